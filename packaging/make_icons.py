"""Render resources/icons/recount-desk.svg into the PNG (256 px) and the multi-size ICO.

Run from anywhere: ``python packaging/make_icons.py``. Needs PySide6 (QtSvg ships in
PySide6-Essentials). The ICO is written by hand: a Windows icon directory whose entries
are PNG images, which Windows Vista and later read at every size.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SVG = ICONS / "recount-desk.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """The icon as PNG bytes, ``size`` pixels square, transparent outside the tile."""
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):
        raise RuntimeError(f"could not encode the {size} px PNG")
    buf.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file holding one PNG per size (ICONDIR, ICONDIRENTRY × n, then the images)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(sizes)
    entries, blobs = [], []
    for s in sizes:
        blob = pngs[s]
        # width/height 0 means 256; no palette; 1 plane; 32 bits per pixel.
        entries.append(struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32,
                                   len(blob), offset))
        blobs.append(blob)
        offset += len(blob)
    return header + b"".join(entries) + b"".join(blobs)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"{SVG}: not a valid SVG", file=sys.stderr)
        return 1
    pngs = {s: render_png(renderer, s) for s in ICO_SIZES}
    (ICONS / "recount-desk.png").write_bytes(pngs[256])
    (ICONS / "recount-desk.ico").write_bytes(ico_bytes(pngs))
    print(f"wrote {ICONS / 'recount-desk.png'} and {ICONS / 'recount-desk.ico'} "
          f"({', '.join(str(s) for s in ICO_SIZES)} px)")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
