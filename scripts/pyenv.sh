#!/usr/bin/env bash
# A Python virtual environment for the notebook widget, made once and kept in target/ (idempotent:
# remade only when the pinned versions below change). Prints the environment's python.
#   bash scripts/pyenv.sh build   # what building the wheel needs (build, hatchling)
#   bash scripts/pyenv.sh test    # plus what the tests run it in (JupyterLab, marimo, pytest)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="build==1.6.1 hatchling==1.33.0"
TEST="$BUILD jupyterlab==4.6.6 ipykernel==7.4.0 marimo==0.25.2 anywidget==0.11.0 numpy pytest==9.2.0"
case "${1:-build}" in
  build) want=$BUILD; dir=target/pyenv-build ;;
  test) want=$TEST; dir=target/pyenv-test ;;
  *) echo "usage: $0 build|test" >&2; exit 2 ;;
esac
stamp="$dir/.requirements"
if [ ! -x "$dir/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "[pyenv] making $dir ($want)" >&2
  rm -rf "$dir"
  # venv's own pip step hides why it failed (a CI machine once stopped here with only "ensurepip
  # returned non-zero exit status 1"), so the environment is made without pip and ensurepip runs
  # in the open (it sets the machine's pip settings aside itself); failing that, the base
  # interpreter's pip puts pip in, after saying what went wrong and how full the disk is.
  python3 -m venv --without-pip "$dir"
  if ! log=$("$dir/bin/python" -m ensurepip --default-pip 2>&1); then
    {
      echo "[pyenv] ensurepip failed in $dir:"
      echo "$log" | tail -20
      df -h . | tail -1 || true
      echo "[pyenv] trying the base interpreter's pip ($(command -v python3)); where that fails"
      echo "[pyenv] too, Debian and Ubuntu need their python3-venv package (apt-get install python3-venv)"
    } >&2
    python3 -m pip --python "$dir/bin/python" install --quiet --disable-pip-version-check pip >&2
  fi
  # shellcheck disable=SC2086
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check $want >&2
  echo "$want" >"$stamp"
fi
echo "$PWD/$dir/bin/python"
