#!/usr/bin/env bash
# Installs what building (and, with --test, testing) the app needs. Idempotent: every step checks
# first and skips what is already present at the right version. Works offline except for the
# package registries (crates.io, npm, PyPI, Debian); nothing is downloaded from GitHub.
#
#   bash scripts/setup.sh          # toolchain to build and serve the app
#   bash scripts/setup.sh --test   # plus Chromium, chromedriver, playwright-core, numpy, autograd
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# trunk 0.22.0-beta.1: the last trunk that builds on rustc 1.95 (0.22.0 wants 1.96.1) and the first
# whose file watcher cannot abort `trunk serve` (notify-debouncer-full ^0.7; 0.21.x's 0.5.0 indexed
# an event's first path on events that have none: "index out of bounds: the len is 0").
TRUNK_VERSION=0.22.0-beta.1
BINARYEN_VERSION=132
# wasm-split-cli: splits the shell's lazy views into chunks (scripts/build_app.sh, src/ui/lazy.rs);
# its version pairs with the wasm_split_helpers crate in Cargo.lock.
WASM_SPLIT_VERSION=0.2.4
# trunk refuses a wasm-bindgen CLI whose version differs from the library's in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, "", $0); print; exit }' Cargo.lock)

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1
  fi
}

want_test=false
[ "${1:-}" = "--test" ] && want_test=true

if ! command -v cargo >/dev/null; then
  echo "Rust is not installed: get it from https://rustup.rs and run this again." >&2
  exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 14 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 5 minutes, once)"
  # Not --locked: its lockfile pins a crate version the registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# It prints no version: cargo's list of installed crates says which one is there. A cached
# ~/.cargo/bin without that list reinstalls it (--force) rather than failing on the file.
if ! command -v wasm-split-cli >/dev/null \
  || ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about 1 minute, once)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary \
    --locked --force
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing wasm-opt (binaryen $BINARYEN_VERSION) from npm"
  as_root npm install -g --no-audit --no-fund "binaryen@$BINARYEN_VERSION"
fi

# trunk builds with --offline (so it never downloads tools); the crates it compiles must be here.
say "fetching the crates (once; quick when they are already here)"
cargo fetch --locked >/dev/null

if $want_test; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Chromium and chromedriver from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  if ! python3 -c "import numpy" 2>/dev/null; then
    say "installing numpy (the tests run the app's generated NumPy code)"
    python3 -m pip install --quiet --disable-pip-version-check numpy
  fi
  if ! python3 -c "import autograd" 2>/dev/null; then
    say "installing autograd (HIPS; the trainer's gradients are checked against it)"
    python3 -m pip install --quiet --disable-pip-version-check autograd
  fi
  if ! (cd tests/e2e && node -e "require.resolve('playwright-core')" 2>/dev/null) ||
     [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; then
    say "installing playwright-core (drives the system Chromium; downloads no browser)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  fi
fi

say "ready"
