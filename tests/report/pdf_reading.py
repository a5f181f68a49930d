"""Reading a rendered report back for the tests: page text, and lines with their height."""

from __future__ import annotations

import io

import pypdf

from recount_desk.paths import resource
from recount_desk.report.pdf import DRAFT_MARK, render

FONTS = resource("fonts")


def pdf_of(report: object) -> bytes:
    return render(report, FONTS)  # type: ignore[arg-type]


def pages_text(blob: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(blob))
    return [" ".join((p.extract_text() or "").split()) for p in reader.pages]


def page_lines(blob: bytes) -> list[list[tuple[float, str]]]:
    """Per page, its lines of body text from top to bottom as (height, text); the footer,
    the running head and the watermark left out."""
    reader = pypdf.PdfReader(io.BytesIO(blob))
    out = []
    for page in reader.pages:
        height = float(page.mediabox.height)
        parts: dict[float, list[tuple[float, str]]] = {}

        def visit(text: str, cm: list[float], tm: list[float], font: object,
                  size: float, parts: dict[float, list[tuple[float, str]]] = parts) -> None:
            if not text.strip() or text.strip() == DRAFT_MARK:
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            parts.setdefault(round(y), []).append((x, text.strip()))

        page.extract_text(visitor_text=visit)
        lines = []
        for y in sorted(parts, reverse=True):
            if y < 62 or y > height - 60:  # footer and running head
                continue
            lines.append((float(y), " ".join(t for _, t in sorted(parts[y]))))
        out.append(lines)
    return out
