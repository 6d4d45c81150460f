#!/usr/bin/env bash
# Builds the release app and prints the benchmark tables recorded in docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
export PATH="$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
trunk build --release --offline
cd tests/e2e
if [ -z "${ONLY:-}" ] || { [ "${ONLY}" != train ] && [ "${ONLY}" != stop ]; }; then node bench.mjs; fi
if [ -z "${ONLY:-}" ] || [ "${ONLY}" = train ]; then node bench_train.mjs; fi
if [ -z "${ONLY:-}" ] || [ "${ONLY}" = stop ]; then node bench_stop.mjs; fi
