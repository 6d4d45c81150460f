#!/usr/bin/env bash
# Makes every release artifact in release/ (see scripts/package.py for the list, and the
# notebook widget's wheel, pe_explorer-*.whl, built from python/):
#   bash scripts/package.sh             # sets the machine up (once), builds, packages
#   bash scripts/package.sh --no-build  # packages dist-release/ as it is (the test command builds it)
# The site is built with relative addresses (--public-url ./), so it works at any host's root or
# under any sub-path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-build" ]; then
  bash scripts/setup.sh
  export PATH="$HOME/.cargo/bin:$PATH"
  export TRUNK_SKIP_VERSION_CHECK=true
  trunk build --release --offline --public-url ./ --dist dist-release
fi
# The single file and the notebook carry every file inside the page, so they carry the app in one
# module (src/bin/whole.rs): chunks there would only add files.
whole="${CARGO_TARGET_DIR:-target}/whole-app"
rm -rf "$whole"
bash scripts/build_app.sh --whole "$whole"
PYTHONDONTWRITEBYTECODE=1 WHOLE_APP="$whole" python3 scripts/package.py dist-release release

# The notebook widget: a pure-Python wheel that carries the single file.
cp release/pe-explorer.html python/src/pe_explorer/static/app.html
py=$(bash scripts/pyenv.sh build)
rm -f release/pe_explorer-*.whl
PYTHONDONTWRITEBYTECODE=1 "$py" -m build --wheel --no-isolation --outdir release python >/dev/null
rm -rf python/build
for w in release/pe_explorer-*.whl; do
  printf 'package: %s (%s bytes)\n' "$w" "$(wc -c <"$w" | tr -d ' ')"
done
