#!/usr/bin/env bash
# Sets the machine up (once) and serves the app with live reload at http://127.0.0.1:8080/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
open_flag=()
# Open a browser tab only where there is a desktop to open it on.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
  open_flag=(--open)
fi
echo "Serving on http://127.0.0.1:8080/ (Ctrl+C to stop)"
exec trunk serve --offline "${open_flag[@]}" "$@"
