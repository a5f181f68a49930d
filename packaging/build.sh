#!/usr/bin/env bash
# Build the one-folder bundle dist/recount-desk/ with PyInstaller.
#
#   packaging/build.sh                  build from this working tree
#   packaging/build.sh --clean-checkout build from the committed HEAD only (git archive), so
#                                       nothing uncommitted slips into a release
#   PYTHON=/path/to/python packaging/build.sh   use that interpreter (default: python3, or
#                                       the active virtualenv's python)
#
# The interpreter needs the project installed (pip install -e .) and PyInstaller
# (pip install pyinstaller). The version comes from recount_desk.__version__.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
if [ -n "${PYTHON:-}" ]; then :
elif [ -n "${VIRTUAL_ENV:-}" ]; then PYTHON="$VIRTUAL_ENV/bin/python"
else PYTHON=python3; fi

SRC="$ROOT"
if [ "${1:-}" = "--clean-checkout" ]; then
  SRC="$ROOT/build/clean-checkout"
  rm -rf "$SRC" && mkdir -p "$SRC"
  git -C "$ROOT" archive --format=tar HEAD | tar -x -C "$SRC"
  echo "Building from a clean checkout of $(git -C "$ROOT" rev-parse --short HEAD)"
fi

if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
  echo "PyInstaller is not installed for $PYTHON: run '$PYTHON -m pip install pyinstaller'" >&2
  exit 2
fi
VERSION="$(cd "$SRC" && "$PYTHON" -c 'import recount_desk; print(recount_desk.__version__)')"
for f in recount-desk.svg recount-desk.png recount-desk.ico; do
  [ -f "$SRC/resources/icons/$f" ] || { echo "missing resources/icons/$f (run packaging/make_icons.py)" >&2; exit 2; }
done

echo "Building Recount Desk $VERSION with $("$PYTHON" -m PyInstaller --version) ($PYTHON)"
start=$(date +%s)
rm -rf "$ROOT/dist/recount-desk" "$ROOT/build/pyinstaller"
# PyInstaller writes its cache under $HOME; keep it inside build/ so a build is self-contained.
PYINSTALLER_CONFIG_DIR="$ROOT/build/pyinstaller-cache" \
  "$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
  "$SRC/packaging/recount_desk.spec"
echo "$VERSION" > "$ROOT/dist/recount-desk/VERSION"

elapsed=$(( $(date +%s) - start ))
size="$(du -sh "$ROOT/dist/recount-desk" | cut -f1)"
files="$(find "$ROOT/dist/recount-desk" -type f | wc -l)"
echo "Built dist/recount-desk/ (Recount Desk $VERSION): $size in $files files, in ${elapsed}s"
