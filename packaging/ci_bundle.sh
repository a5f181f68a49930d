#!/usr/bin/env bash
# CI: build the Linux bundle and run its self-test offscreen, with the time and the size.
#
# Run from the repository root with the project's virtualenv active (as .ci/run leaves it),
# or with PYTHON pointing at an interpreter that has the project installed. Installs
# PyInstaller into that environment if it is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
if [ -z "${PYTHON:-}" ]; then
  if [ -n "${VIRTUAL_ENV:-}" ]; then PYTHON="$VIRTUAL_ENV/bin/python"; else PYTHON=python3; fi
fi
export PYTHON

start=$(date +%s)
if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
  "$PYTHON" -m pip install -q "pyinstaller>=6.10"
fi
packaging/build.sh --clean-checkout
built=$(date +%s)

# The bundle must run without the build's Python: hide the virtualenv from it.
echo "Self-test of the bundle (offscreen):"
env -u VIRTUAL_ENV -u PYTHONPATH -u PYTHONHOME QT_QPA_PLATFORM=offscreen \
  RECOUNT_DESK_DATA="$(mktemp -d)" dist/recount-desk/recount-desk --self-test
env -u VIRTUAL_ENV -u PYTHONPATH -u PYTHONHOME \
  dist/recount-desk/recount-desk-cli --version
done_=$(date +%s)

echo "Bundle: dist/recount-desk/ $(du -sh dist/recount-desk | cut -f1)" \
     "($(du -sb dist/recount-desk | cut -f1) bytes); build $((built - start))s," \
     "self-test $((done_ - built))s, total $((done_ - start))s"
