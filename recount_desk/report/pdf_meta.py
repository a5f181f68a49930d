"""Reading a report PDF back: its fingerprint and printing settings from the metadata, and
its text, with a PDF library (pypdf) rather than a scan of the raw bytes."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

_FP = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class ReportMeta:
    fingerprint: str | None
    settings: dict[str, Any] = field(default_factory=dict)  # what make_report recorded


def _fields(keywords: str) -> dict[str, str]:
    out = {}
    for part in keywords.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def read(blob: bytes) -> ReportMeta | None:
    """The fingerprint and settings in a PDF's document information; None if not a PDF."""
    import pypdf
    from pypdf.errors import PyPdfError

    try:
        info = pypdf.PdfReader(io.BytesIO(blob)).metadata
    except (PyPdfError, ValueError, OSError, KeyError, TypeError):
        return None
    if info is None:
        return ReportMeta(None)
    f = _fields(str(info.get("/Keywords") or ""))
    fp = f.get("fingerprint", "")
    if not _FP.match(fp):
        return ReportMeta(None)
    settings: dict[str, Any] = {"appendix": f.get("appendix") == "1",
                                "audit_upto": int(f.get("audit_upto", "0") or 0),
                                "reprint": int(f.get("reprint", "0") or 0)}
    for key in ("generated_at", "signed_at", "signed_place", "chain_head"):
        if f.get(key):
            settings[key] = f[key].replace("%3B", ";")
    if f.get("signed_by"):
        settings["signed_by"] = [n.replace("%2C", ",").replace("%3B", ";")
                                 for n in f["signed_by"].split(",")]
    return ReportMeta(fp, settings)


def text(blob: bytes) -> list[str]:
    """Each page's text, whitespace collapsed."""
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(blob))
    return [" ".join((p.extract_text() or "").split()) for p in reader.pages]


def same_text(a: bytes, b: bytes) -> bool:
    """Do two PDFs carry the same text, page for page?"""
    from pypdf.errors import PyPdfError

    try:
        return text(a) == text(b)
    except (PyPdfError, ValueError, OSError, KeyError, TypeError):
        return False
