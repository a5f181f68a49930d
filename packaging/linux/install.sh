#!/usr/bin/env bash
# Install the built bundle for every user: /opt/recount-desk, a launcher on the PATH, the
# menu entry, the icon and the .recount file type. Run as root from the repository root
# after packaging/build.sh (or from an unpacked release that has the same layout).
#   sudo packaging/linux/install.sh            install
#   sudo packaging/linux/install.sh --remove   uninstall (case files are never touched)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX="${PREFIX:-/opt/recount-desk}"
SHARE="${SHARE:-/usr/local/share}"
BIN="${BIN:-/usr/local/bin}"

if [ "${1:-}" = "--remove" ]; then
  rm -rf "$PREFIX"
  rm -f "$BIN/recount-desk" "$BIN/recount-desk-cli" "$SHARE/applications/recount-desk.desktop" \
        "$SHARE/icons/hicolor/256x256/apps/recount-desk.png" \
        "$SHARE/icons/hicolor/scalable/apps/recount-desk.svg"
  xdg-mime uninstall "$ROOT/packaging/linux/recount-desk.xml" 2>/dev/null || \
    rm -f "$SHARE/mime/packages/recount-desk.xml"
else
  [ -x "$ROOT/dist/recount-desk/recount-desk" ] || { echo "build first: packaging/build.sh" >&2; exit 2; }
  rm -rf "$PREFIX" && mkdir -p "$PREFIX" && cp -a "$ROOT/dist/recount-desk/." "$PREFIX/"
  mkdir -p "$BIN" "$SHARE/applications" "$SHARE/icons/hicolor/256x256/apps" \
           "$SHARE/icons/hicolor/scalable/apps" "$SHARE/mime/packages"
  ln -sf "$PREFIX/recount-desk" "$BIN/recount-desk"
  ln -sf "$PREFIX/recount-desk-cli" "$BIN/recount-desk-cli"
  install -m 644 "$ROOT/packaging/linux/recount-desk.desktop" "$SHARE/applications/"
  install -m 644 "$ROOT/resources/icons/recount-desk.png" "$SHARE/icons/hicolor/256x256/apps/"
  install -m 644 "$ROOT/resources/icons/recount-desk.svg" "$SHARE/icons/hicolor/scalable/apps/"
  install -m 644 "$ROOT/packaging/linux/recount-desk.xml" "$SHARE/mime/packages/"
fi
update-mime-database "$SHARE/mime" 2>/dev/null || true
update-desktop-database "$SHARE/applications" 2>/dev/null || true
gtk-update-icon-cache -q "$SHARE/icons/hicolor" 2>/dev/null || true
echo "done"
