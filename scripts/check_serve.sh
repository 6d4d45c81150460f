#!/usr/bin/env bash
# Checks that `trunk serve` (the README's first command) survives ten source edits in a row: it
# starts the server, appends a comment to a Rust source ten times, waits for each rebuild, asks
# the server for the page after each, and puts the file back. Prints one line per edit; fails if
# the server dies or panics. About three minutes on two cores (ten debug rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
port=${PORT:-8091}
log=$(mktemp)
file=src/format.rs
saved=$(mktemp)
cp "$file" "$saved"
trunk serve --offline --dist "$(mktemp -d)" --port "$port" >"$log" 2>&1 &
pid=$!
cleanup() { cp "$saved" "$file"; kill "$pid" 2>/dev/null || true; }
trap cleanup EXIT
builds() { grep -c 'success' "$log" || true; }
for _ in $(seq 1 180); do [ "$(builds)" -ge 1 ] && break; sleep 2; done
[ "$(builds)" -ge 1 ] || { echo "no first build"; tail -20 "$log"; exit 1; }
for n in $(seq 1 10); do
  before=$(builds)
  echo "// check_serve.sh: edit $n" >>"$file"
  for s in $(seq 1 90); do
    [ "$(builds)" -gt "$before" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "trunk serve died at edit $n"; tail -20 "$log"; exit 1; }
    sleep 2
  done
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")
  echo "edit $n: rebuilt after ${s}×2 s, the page answers $code"
  [ "$code" = 200 ] || exit 1
done
if grep -q 'panicked' "$log"; then grep -A3 'panicked' "$log"; exit 1; fi
echo "trunk serve survived 10 edits"
