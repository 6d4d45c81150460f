#!/usr/bin/env bash
# Trunk post-build hook: builds the app itself (src/main.rs: the shell, with Yew, the settings and
# the views most pages show first) as its own module in `app/`, which the small first-paint module
# (src/bin/first.rs, trunk's main) imports once the first chart is on screen; and each view module
# (src/bin/view_NAME.rs) in `views/NAME.js`, which the app fetches when the view first opens
# (src/ui/remote.rs). Release builds are shrunk with wasm-opt as trunk does for the others.
#   bash scripts/build_app.sh --whole DIR   (scripts/package.sh) builds instead the app in one
#   module (src/bin/whole.rs, every view in it) into DIR/pe-explorer.js, for the single file.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
profile="${TRUNK_PROFILE:-release}"
modules=(view_patches view_train)
bins=(--bin pe-explorer)
for m in "${modules[@]}"; do bins+=(--bin "$m"); done
if [ "${1:-}" = --whole ]; then
  modules=()
  bins=(--bin whole)
  staging="${2:?--whole DIR}"
else
  staging="${TRUNK_STAGING_DIR:?run by trunk}"
fi
if [ "$profile" = release ]; then
  cargo build --release --locked --target wasm32-unknown-unknown "${bins[@]}"
  dir="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"
else
  cargo build --locked --target wasm32-unknown-unknown "${bins[@]}"
  dir="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/debug"
fi
# bindgen WASM OUT_DIR OUT_NAME
bindgen() {
  wasm-bindgen --target web --no-typescript --out-dir "$2" --out-name "$3" "$1"
  if [ "$profile" = release ]; then
    wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$2/$3_bg.wasm" -o "$2/$3_bg.wasm"
  fi
}
if [ "${1:-}" = --whole ]; then
  bindgen "$dir/whole.wasm" "$staging" pe-explorer
  exit 0
fi
bindgen "$dir/pe-explorer.wasm" "$staging/app" pe-explorer
for m in "${modules[@]}"; do
  bindgen "$dir/$m.wasm" "$staging/views" "${m#view_}"
done
if [ "$profile" = release ]; then
  node scripts/precompress.mjs "$staging"
fi
