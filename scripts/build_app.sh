#!/usr/bin/env bash
# Trunk post-build hook: builds the app itself (src/main.rs, Yew and every view) as its own module
# in `app/`, which the small first-paint module (src/bin/first.rs, trunk's main) imports once the
# first chart is on screen. Release builds are shrunk with wasm-opt as trunk does for the others.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
profile="${TRUNK_PROFILE:-release}"
if [ "$profile" = release ]; then
  cargo build --release --locked --target wasm32-unknown-unknown --bin pe-explorer
  wasm="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/pe-explorer.wasm"
else
  cargo build --locked --target wasm32-unknown-unknown --bin pe-explorer
  wasm="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/debug/pe-explorer.wasm"
fi
out="${TRUNK_STAGING_DIR:?run by trunk}/app"
wasm-bindgen --target web --no-typescript --out-dir "$out" "$wasm"
if [ "$profile" = release ]; then
  wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/pe-explorer_bg.wasm" -o "$out/pe-explorer_bg.wasm"
fi
if [ "$profile" = release ]; then
  node scripts/precompress.mjs "$TRUNK_STAGING_DIR"
fi
