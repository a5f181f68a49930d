"""Text for the report's fonts: right-to-left names shaped and put in visual order, characters
the Latin font lacks (Chinese, Japanese, Korean) set in the bundled fallback font, and
wrapping by measured width that breaks an over-long word with a hyphen, never silently.

Right-to-left: Arabic letters are given their joined forms by ``arabic_reshaper`` and each
right-to-left run is put in visual order by ``python-bidi`` (the Unicode bidirectional
algorithm), once here for every place the report draws text, so a name reads the same in a
table, a sentence and the footer, and is never broken across lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

FALLBACK = "RDCJK"
FALLBACK_FILE = "WenQuanYiMicroHei-subset.ttf"
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_RTL_CH = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
_RTL_RUN = re.compile(f"[{_RTL_CH}]+(?: +[{_RTL_CH}]+)*")
_state: dict[str, object] = {}


def set_font_dir(font_dir: Path) -> None:
    _state["dir"] = Path(font_dir)


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    """Characters the main (DejaVu) font draws."""
    font = pdfmetrics.getFont("RDSans")
    return frozenset(font.face.charToGlyph)


def _fallback_ready() -> bool:
    """Register the CJK fallback font the first time a report needs it (it is 2 MB)."""
    if FALLBACK in pdfmetrics.getRegisteredFontNames():
        return True
    path = Path(str(_state.get("dir", ""))) / FALLBACK_FILE
    pdfmetrics.registerFont(TTFont(FALLBACK, str(path)))
    return True


@lru_cache(maxsize=4096)
def visual(text: str) -> str:
    """``text`` as it is drawn left to right: each right-to-left run (letters and the spaces
    between them, e.g. a name) shaped and reordered on its own, as if isolated, so numbers
    and words around it keep their places. Its words are joined by no-break spaces: a name
    broken across two lines would show its words swapped."""
    if not _RTL.search(text):
        return text
    import arabic_reshaper
    from bidi import get_display

    def one(m: re.Match[str]) -> str:
        return str(get_display(arabic_reshaper.reshape(m.group(0)))).replace(" ", "\u00a0")

    return _RTL_RUN.sub(one, text)


def needs_fallback(text: str) -> bool:
    cov = _covered()
    return any(ord(ch) not in cov and not ch.isspace() for ch in text)


def runs(text: str) -> Iterator[tuple[bool, str]]:
    """(in the fallback font?, piece) for ``text`` already in visual order."""
    cov = _covered()
    cur: list[str] = []
    fb = False
    for ch in text:
        mine = ord(ch) not in cov and not ch.isspace()
        if cur and mine != fb:
            yield fb, "".join(cur)
            cur = []
        fb = mine
        cur.append(ch)
    if cur:
        yield fb, "".join(cur)


def markup(text: str) -> str:
    """User text as Paragraph markup: escaped, in visual order, fallback font where needed."""
    text = visual(text)
    if not needs_fallback(text):
        return escape(text)
    _fallback_ready()
    return "".join(f'<font name="{FALLBACK}">{escape(p)}</font>' if fb else escape(p)
                   for fb, p in runs(text))


def width(text: str, font: str, size: float) -> float:
    if not needs_fallback(text):
        return float(stringWidth(text, font, size))
    _fallback_ready()
    return float(sum(stringWidth(p, FALLBACK if fb else font, size) for fb, p in runs(text)))


def wrap(text: str, font: str, size: float, room: float) -> list[str]:
    """Lines of at most ``room`` points: words kept whole, a word longer than a line cut
    with a hyphen at the end of each piece. ``text`` is in visual order already."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}" if cur else word
        if width(trial, font, size) <= room:
            cur = trial
            continue
        if cur:
            lines.append(cur)
            cur = ""
        while width(word, font, size) > room:
            cut = len(word) - 1
            while cut > 1 and width(word[:cut] + "-", font, size) > room:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        cur = word
    if cur or not lines:
        lines.append(cur)
    return lines


def fit_size(words: list[str], font: str, size: float, room: float,
             smallest: float = 5.5) -> float:
    """The largest size ≤ ``size`` at which the longest word fits in ``room``."""
    widest = max((width(w, font, 1.0) for w in words), default=0.0)
    if widest <= 0:
        return size
    return max(smallest, min(size, room / widest))
