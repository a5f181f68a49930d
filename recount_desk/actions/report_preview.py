"""Pages of a report PDF as plain RGB images (pypdfium2), for the window's preview and printing.

The window must not import pypdfium2 itself (ui imports actions and core only), so this
module turns pages into bytes the UI can wrap in its own image type. It knows nothing of Qt.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


class PreviewError(Exception):
    """The PDF cannot be opened or rendered; the message is for the user."""


@dataclass(frozen=True)
class PageImage:
    """One rendered page: ``height`` rows of ``stride`` bytes, each pixel R, G, B."""

    index: int  # zero-based page number
    width: int
    height: int
    stride: int
    rgb: bytes


def page_count(pdf_path: Path | str) -> int:
    """How many pages the PDF has."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(pdf_path))
    except (pdfium.PdfiumError, OSError) as e:
        raise PreviewError(f"{Path(pdf_path).name} cannot be opened as a PDF "
                           f"({str(e).rstrip('.')}).") from None
    try:
        return len(doc)
    finally:
        doc.close()


def iter_pages(pdf_path: Path | str, scale: float, pages: Sequence[int] | None = None,
               cancelled: Callable[[], bool] | None = None) -> Iterator[PageImage]:
    """Render pages one at a time (``scale`` 1 = 72 pixels per inch), so that printing at a
    printer's resolution holds one page in memory, not the whole report."""
    import pypdfium2 as pdfium

    if scale <= 0:
        raise ValueError("scale must be positive")
    try:
        doc = pdfium.PdfDocument(str(pdf_path))
    except (pdfium.PdfiumError, OSError) as e:
        raise PreviewError(f"{Path(pdf_path).name} cannot be opened as a PDF "
                           f"({str(e).rstrip('.')}).") from None
    try:
        wanted = range(len(doc)) if pages is None else pages
        for i in wanted:
            if cancelled is not None and cancelled():
                return
            page = doc[i]
            try:
                bitmap = page.render(scale=scale, rev_byteorder=True)
                try:
                    yield PageImage(i, bitmap.width, bitmap.height, bitmap.stride,
                                    bytes(bitmap.buffer))
                finally:
                    bitmap.close()
            finally:
                page.close()
    finally:
        doc.close()


def render_pages(pdf_path: Path | str, scale: float,
                 on_progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> list[PageImage]:
    """Every page of the PDF as an RGB image."""
    total = page_count(pdf_path)
    out = []
    for image in iter_pages(pdf_path, scale, cancelled=cancelled):
        out.append(image)
        if on_progress:
            on_progress(len(out), total)
    return out


def copy_report(source: Path | str, dest: Path | str) -> Path:
    """Write the bytes of a generated report to ``dest`` (whole, or not at all).

    A copy has the same bytes, so it verifies against the case exactly like the original.
    """
    source, dest = Path(source), Path(dest)
    blob = source.read_bytes()
    tmp = dest.with_name(dest.name + ".part")
    with open(tmp, "wb") as f:
        f.write(blob)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, dest)
    return dest
