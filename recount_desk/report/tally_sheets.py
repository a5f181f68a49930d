"""Printed tally sheets for a hand count: one page per unit, laid out like the entry form.

The lines follow ``core.recount.SheetLayout.fields`` — ballots counted, each choice,
write-ins (races), over-votes, under-votes — in the order the entry form asks for them,
so the paper the counting board fills in matches the screen the clerk types from. Each
sheet has room for tally marks, a total box, the sheet's own check (ballots × seats =
votes + under + over, 20A-4-109 applied to the recount) and the signature lines of the
two officers who counted it (20A-4-401(1)(e)(i)-(ii): the recount is supervised by the
election officer). Same data, same bytes (reportlab's invariant mode, no clock).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from recount_desk.core.recount import SheetLayout, field_label

from .pdf import register_fonts

PAGE_W, PAGE_H = LETTER
MARGIN = 0.7 * inch
GRID = colors.Color(0.45, 0.45, 0.45)
SHADE = colors.Color(0.92, 0.92, 0.92)


@dataclass(frozen=True)
class SheetUnit:
    name: str
    precincts: tuple[str, ...]


@dataclass(frozen=True)
class TallySheetsDoc:
    """What the sheets show: the election, the contest and its lines, the units."""

    election: str
    election_date: str
    jurisdiction: str
    contest: str
    method: str
    layout: SheetLayout
    parties: dict[str, str]
    units: tuple[SheetUnit, ...]
    case_file: str


def _fit(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _page(c: Canvas, doc: TallySheetsDoc, unit: SheetUnit, number: int, total: int) -> None:
    x0, x1 = MARGIN, PAGE_W - MARGIN
    width = x1 - x0
    y = PAGE_H - MARGIN
    c.setFont("RDSans-Bold", 15)
    c.drawString(x0, y - 12, "Recount tally sheet")
    c.setFont("RDSans", 9)
    c.drawRightString(x1, y - 12, f"Sheet {number} of {total}")
    y -= 30
    c.setFont("RDSans", 9.5)
    c.drawString(x0, y, _fit(f"{doc.election} — {doc.election_date} — {doc.jurisdiction}",
                             "RDSans", 9.5, width))
    y -= 14
    c.setFont("RDSans-Bold", 11.5)
    c.drawString(x0, y, _fit(doc.contest, "RDSans-Bold", 11.5, width))
    y -= 14
    c.setFont("RDSans", 9)
    c.drawString(x0, y, _fit(f"Method: {doc.method}. Utah Code 20A-4-401(1)(e)(ii): all "
                             "ballots cast for the race are recounted.", "RDSans", 9, width))
    y -= 22
    # the unit, boxed
    c.setStrokeColor(colors.black)
    c.setLineWidth(1)
    box_h = 34
    c.rect(x0, y - box_h, width, box_h)
    c.setFont("RDSans-Bold", 12)
    c.drawString(x0 + 8, y - 15, _fit(f"Unit: {unit.name}", "RDSans-Bold", 12, width - 16))
    c.setFont("RDSans", 8.5)
    prec = ", ".join(unit.precincts)
    label = "Precinct" if len(unit.precincts) == 1 else "Precincts"
    c.drawString(x0 + 8, y - 28, _fit(f"{label}: {prec}", "RDSans", 8.5, width - 16))
    y -= box_h + 18

    # the lines of the sheet, in the entry form's order
    keys = doc.layout.fields()
    label_w, total_w = 2.3 * inch, 1.1 * inch
    head_h = 16
    avail = y - (MARGIN + 2.6 * inch)
    row_h = max(22.0, min(40.0, (avail - head_h) / max(1, len(keys))))
    c.setFillColor(SHADE)
    c.rect(x0, y - head_h, width, head_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("RDSans-Bold", 9)
    c.drawString(x0 + 6, y - 11.5, "Line")
    c.drawString(x0 + label_w + 6, y - 11.5, "Tally marks")
    c.drawCentredString(x1 - total_w / 2, y - 11.5, "Total")
    c.setStrokeColor(GRID)
    c.setLineWidth(0.6)
    top = y
    y -= head_h
    for k in keys:
        c.line(x0, y, x1, y)
        name = field_label(k)
        party = doc.parties.get(name, "") if k.startswith("votes:") else ""
        c.setFont("RDSans-Bold" if k.startswith("votes:") else "RDSans", 10)
        c.drawString(x0 + 6, y - 14, _fit(name, "RDSans-Bold", 10, label_w - 12))
        if party:
            c.setFont("RDSans", 7.5)
            c.drawString(x0 + 6, y - 24, _fit(party, "RDSans", 7.5, label_w - 12))
        # the total box, drawn heavier so it is the figure the clerk types
        c.setStrokeColor(colors.black)
        c.setLineWidth(1.2)
        c.rect(x1 - total_w + 6, y - row_h + 4, total_w - 12, row_h - 8)
        c.setStrokeColor(GRID)
        c.setLineWidth(0.6)
        y -= row_h
    c.line(x0, y, x1, y)
    c.line(x0, top, x1, top)
    for x in (x0, x0 + label_w, x1 - total_w, x1):
        c.line(x, top, x, y)
    y -= 16
    seats = doc.layout.seats
    c.setFont("RDSans", 8.5)
    check = ("Check: ballots counted" + (f" × {seats} seats" if seats > 1 else "")
             + " = the votes of every line above" + (" (write-ins included)"
                                                     if doc.layout.write_in_line else "")
             + " + under-votes + over-votes.")
    c.drawString(x0, y, _fit(check, "RDSans", 8.5, width))
    y -= 12
    c.drawString(x0, y, _fit("Over- and under-votes are vote positions: an over-voted ballot "
                             f"counts {seats} over-vote(s) in this contest.", "RDSans", 8.5,
                             width))
    y -= 26

    # two officers sign
    c.setFont("RDSans-Bold", 9.5)
    c.drawString(x0, y, "Counted and signed by")
    y -= 8
    col = (width - 20) / 2
    for i in range(2):
        cx = x0 + i * (col + 20)
        yy = y - 30
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        for label_text, dy in (("Officer (print name)", 0), ("Signature", 36),
                               ("Date and time", 72)):
            c.line(cx, yy - dy, cx + col, yy - dy)
            c.setFont("RDSans", 7.5)
            c.drawString(cx, yy - dy - 10, f"{label_text} — officer {i + 1}")
    # footer
    c.setFont("RDSans", 7)
    c.setFillColor(colors.Color(0.3, 0.3, 0.3))
    c.drawString(x0, MARGIN - 14, _fit(f"Recount Desk · {doc.case_file} · {doc.contest} · "
                                       f"{unit.name}", "RDSans", 7, width - 60))
    c.drawRightString(x1, MARGIN - 14, f"{number} / {total}")
    c.setFillColor(colors.black)


def render(doc: TallySheetsDoc, font_dir: Path) -> bytes:
    """The PDF bytes: one page per unit, in the recount's unit order."""
    register_fonts(font_dir)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=LETTER, invariant=1, pageCompression=1)
    c.setTitle(f"Tally sheets — {doc.contest}")
    c.setAuthor("Recount Desk")
    total = len(doc.units)
    for i, u in enumerate(doc.units, start=1):
        _page(c, doc, u, i, total)
        c.showPage()
    c.save()
    return buf.getvalue()
