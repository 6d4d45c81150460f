#!/usr/bin/env bash
# Trunk post-build hook: builds the app itself (src/main.rs: the shell, with Yew, the settings and
# the views most pages show first) as its own module in `app/`, which the small first-paint module
# (src/bin/first.rs, trunk's main) imports once the first chart is on screen. The shell is built
# with the `split` feature and relocations kept, and wasm-split-cli moves its lazy views
# (src/ui/lazy.rs) into chunks beside it in `app/`, which `app/__wasm_split.js` fetches when a
# view first opens. Release builds are shrunk with wasm-opt as trunk does for the others.
#   bash scripts/build_app.sh --whole DIR   (scripts/package.sh) builds instead the app in one
#   module (src/bin/whole.rs, every view in it) into DIR/pe-explorer.js, for the single file.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
profile="${TRUNK_PROFILE:-release}"
flags=(--locked --target wasm32-unknown-unknown)
if [ "$profile" = release ]; then
  flags+=(--release)
  dir="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"
else
  dir="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/debug"
fi
# shrink WASM: wasm-opt as trunk runs it, in release builds.
shrink() {
  if [ "$profile" = release ]; then
    wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$1" -o "$1"
  fi
}
# bindgen WASM OUT_DIR OUT_NAME [wasm-bindgen's options]
bindgen() {
  wasm-bindgen --target web --no-typescript --out-dir "$2" --out-name "$3" "${@:4}" "$1"
  shrink "$2/$3_bg.wasm"
}
if [ "${1:-}" = --whole ]; then
  cargo build "${flags[@]}" --bin whole
  bindgen "$dir/whole.wasm" "${2:?--whole DIR}" pe-explorer
  exit 0
fi
staging="${TRUNK_STAGING_DIR:?run by trunk}"
# The shell, split: the linker keeps its relocations for wasm-split-cli (only this binary's link,
# so no dependency is rebuilt), which writes the shell's main module and its chunks into app/.
cargo rustc "${flags[@]}" --bin pe-explorer --features split -- -C link-arg=--emit-relocs
mkdir -p "$staging/app"
wasm-split-cli "$dir/pe-explorer.wasm" "$staging/app" --out-name pe-explorer
# The chunks call the shell's functions through exports wasm-bindgen must keep.
bindgen "$staging/app/pe-explorer.wasm" "$staging/app" pe-explorer --keep-lld-exports
rm "$staging/app/pe-explorer.wasm"
for chunk in "$staging"/app/*.wasm; do
  case "$chunk" in *_bg.wasm) ;; *) shrink "$chunk" ;; esac
done
# Which files each chunk needs, into index.html for the first paint's early fetch.
node scripts/chunks.mjs "$staging"
if [ "$profile" = release ]; then
  node scripts/precompress.mjs "$staging"
fi
