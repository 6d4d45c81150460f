#!/usr/bin/env bash
# Sets the machine up (once) and runs every check and test:
#   formatting, clippy (host and wasm32), native tests of the math, browser tests of the
#   components (wasm-bindgen-test in headless Chromium), a release build, and end-to-end tests
#   of the built page (playwright-core driving headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
export PATH="$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

step() { printf '\n\033[1;32m==> %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy (host)"
cargo clippy --all-targets --locked -- -D warnings

step "clippy (wasm32)"
cargo clippy --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
# The shell as the site serves it: its lazy views behind split points (src/ui/lazy.rs).
cargo clippy --locked --target wasm32-unknown-unknown --bin pe-explorer --features split -- -D warnings

step "native tests"
cargo test --locked

step "browser tests of the components (headless Chromium)"
# Each browser test may take up to 90 s (wasm-bindgen-test's default is 20 s): the walk through
# every view under every scheme runs a debug build and takes 12-16 s on an idle 2-core machine.
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
WASM_BINDGEN_TEST_TIMEOUT=90 \
  cargo test --locked --target wasm32-unknown-unknown --test web --test kernels

step "release build (and the release artifacts: the site with relative addresses, the single file, the SCORM packages)"
trunk build --release --offline
trunk build --release --offline --public-url ./ --dist dist-release
bash scripts/package.sh --no-build

step "the notebook widget: its wheel installed in its own environment, and its Python tests"
py=$(bash scripts/pyenv.sh test)
"$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps release/pe_explorer-*.whl
(cd python && PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -q -p no:cacheprovider)
export PE_PYTHON="$py"

step "end-to-end tests of the built page (headless Chromium; JupyterLab and marimo for the widget)"
# A test that hangs fails the run with the runner's report instead of holding CI to its limit:
# each test may take 5 minutes (the longest, axe on the compact embeds, takes 1.6 here), the
# whole step 40 (15 here, on 2 cores), and the runner exits once its tests end, whatever a
# failed test left open (a server that kept a file's run from ending held one CI run to its
# limit).
(cd tests/e2e && timeout --kill-after=30s 40m node --test --test-concurrency=1 --test-force-exit --test-timeout=300000 ./*.test.mjs)

step "all checks passed"
