#!/usr/bin/env bash
# Trunk post-build hook: builds the site's module (src/main.rs) into `app/`, which index.html
# loads. Its main module is the first paint (src/early.rs, no Yew); the app itself (Yew, the
# shell's settings and views) is the chunk `app`, which the first paint fetches as it starts, and
# the views few pages open on are chunks of their own (src/ui/lazy.rs). It is built with the
# `split` feature and relocations kept, and wasm-split-cli writes the main module and its chunks
# into `app/` (`app/__wasm_split.js` loads a chunk, from the packs scripts/chunks.mjs makes).
# Release builds are shrunk with wasm-opt as trunk does for the worker.
#   bash scripts/build_app.sh --whole DIR   (scripts/package.sh) builds instead, for the single
#   file, the app in one module (src/bin/whole.rs, every view in it) into DIR/pe-explorer.js and
#   the first paint that loads it from the page (src/bin/first.rs) into DIR/first.js.
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
# shrink WASM: wasm-opt as trunk runs it, in release builds (WASM_NAMES=1 keeps the functions'
# names, for a profile or scripts/wasm_sizes.py).
shrink() {
  if [ "$profile" = release ]; then
    wasm-opt -Oz ${WASM_NAMES:+-g} --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
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
  cargo build "${flags[@]}" --bin whole --bin first
  bindgen "$dir/whole.wasm" "${2:?--whole DIR}" pe-explorer
  bindgen "$dir/first.wasm" "$2" first
  exit 0
fi
staging="${TRUNK_STAGING_DIR:?run by trunk}"
# The site's module, split: the linker keeps its relocations for wasm-split-cli (only this
# binary's link, so no dependency is rebuilt), which writes the main module and its chunks into
# app/.
cargo rustc "${flags[@]}" --bin pe-explorer --features split -- -C link-arg=--emit-relocs
mkdir -p "$staging/app"
wasm-split-cli "$dir/pe-explorer.wasm" "$staging/app" --out-name pe-explorer
# The chunks call the shell's functions through exports wasm-bindgen must keep.
bindgen "$staging/app/pe-explorer.wasm" "$staging/app" pe-explorer --keep-lld-exports
rm "$staging/app/pe-explorer.wasm"
for chunk in "$staging"/app/*.wasm; do
  case "$chunk" in *_bg.wasm) ;; *) shrink "$chunk" ;; esac
done
# Each chunk's files packed into one download (app/pack_NAME.wasm), and which packs each chunk
# needs, into index.html for the first paint's early fetch.
node scripts/chunks.mjs "$staging"
# Preloads for the module's scripts, and in release builds the main module's wasm inside
# index.html (one request's latency less before the first chart).
if [ "$profile" = release ]; then
  node scripts/inline_module.mjs "$staging" --inline
  node scripts/precompress.mjs "$staging"
else
  node scripts/inline_module.mjs "$staging"
fi
