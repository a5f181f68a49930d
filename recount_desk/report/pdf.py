"""The board of canvassers' recount report as a PDF (reportlab platypus), byte-for-byte repeatable.

Same data, same bytes: the canvas runs in reportlab's invariant mode and the PDF's dates
come from the report (the board's meeting, or a reprint's recorded time), never the clock.
The fingerprint of the data is printed on every page and stored in the PDF's Subject and
Keywords, so a copy can be checked against the case file.

Layout choices: US Letter portrait throughout (a board signs it on paper, printed two-sided);
wide contests are split into groups of at most three choices per table rather than turned
to landscape, so the pages stay in one orientation; long tables split across pages and
repeat their headers. Right-to-left names are drawn in logical order (reportlab shapes
and reorders them only when the optional ``rlbidi`` package is installed); they wrap like
any other text and never widen a column.
"""

from __future__ import annotations

import io
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from recount_desk.core.model import ContestKind
from recount_desk.core.report_model import (
    RecountReport,
    Unit,
    certification_statement,
    cost_statement_applies,
    declaration_statement,
    fingerprint,
    format_cents,
    format_date,
    format_datetime,
    lot_statement,
    needs_lieutenant_governor_report,
    official_result_statement,
    quorum_statement,
    short_code,
    title,
)

FONT_FILES = {
    "RDSans": "DejaVuSans.ttf",
    "RDSans-Bold": "DejaVuSans-Bold.ttf",
    "RDCond": "DejaVuSansCondensed.ttf",
    "RDCond-Bold": "DejaVuSansCondensed-Bold.ttf",
}
BLANK_PAGE_TEXT = "This page intentionally left blank"
PAGE_W, PAGE_H = LETTER
MARGIN = 0.75 * inch
FOOTER_H = 0.55 * inch
BODY_W = PAGE_W - 2 * MARGIN
CHOICES_PER_TABLE = 3
GRID = colors.Color(0.55, 0.55, 0.55)
HEAD_BG = colors.Color(0.88, 0.88, 0.88)
ZEBRA = colors.Color(0.96, 0.96, 0.96)


def register_fonts(font_dir: Path) -> None:
    """Register the embedded fonts once per process (DejaVu: full Latin, Greek, Cyrillic,
    Hebrew and Arabic glyphs). A missing font file is an installation fault: it raises."""
    if "RDSans" in pdfmetrics.getRegisteredFontNames():
        return
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(Path(font_dir) / file)))
    registerFontFamily("RDSans", normal="RDSans", bold="RDSans-Bold", italic="RDSans",
                       boldItalic="RDSans-Bold")
    registerFontFamily("RDCond", normal="RDCond", bold="RDCond-Bold", italic="RDCond",
                       boldItalic="RDCond-Bold")


@dataclass(frozen=True)
class _Styles:
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    head: ParagraphStyle
    banner: ParagraphStyle
    blank: ParagraphStyle


def _styles() -> _Styles:
    body = ParagraphStyle("body", fontName="RDSans", fontSize=9.5, leading=12.5,
                          spaceAfter=4, alignment=TA_LEFT)
    return _Styles(
        h1=ParagraphStyle("h1", parent=body, fontName="RDSans-Bold", fontSize=15, leading=19,
                          spaceAfter=4),
        h2=ParagraphStyle("h2", parent=body, fontName="RDSans-Bold", fontSize=11.5, leading=15,
                          spaceBefore=10, spaceAfter=4),
        h3=ParagraphStyle("h3", parent=body, fontName="RDSans-Bold", fontSize=9.5,
                          leading=12.5, spaceBefore=6, spaceAfter=3),
        body=body,
        small=ParagraphStyle("small", parent=body, fontSize=8, leading=10),
        cell=ParagraphStyle("cell", fontName="RDCond", fontSize=8, leading=9.6),
        cell_bold=ParagraphStyle("cellb", fontName="RDCond-Bold", fontSize=8, leading=9.6),
        head=ParagraphStyle("head", fontName="RDCond-Bold", fontSize=8, leading=9.6,
                            alignment=TA_CENTER),
        banner=ParagraphStyle("banner", parent=body, fontName="RDSans-Bold", fontSize=10,
                              leading=13, borderColor=colors.black, borderWidth=1,
                              borderPadding=5, spaceBefore=4, spaceAfter=10,
                              # the border stays inside the text width, as the tables do
                              leftIndent=5, rightIndent=5),
        blank=ParagraphStyle("blank", parent=body, fontSize=11, alignment=TA_CENTER,
                             textColor=colors.Color(0.35, 0.35, 0.35)),
    )


def esc(text: str) -> str:
    """User text made safe for Paragraph markup (``<``, ``>``, ``&``)."""
    return escape(text)


def _n(v: int) -> str:
    return f"{v:,}"


def _d(v: int) -> str:
    return "0" if v == 0 else f"{v:+,}"


# --- page numbering and footer ------------------------------------------------------------

def _canvas_class(report: RecountReport, fp: str, code: str) -> type[Canvas]:
    """A canvas that holds its pages until the end, so each footer can say "Page X of Y"."""
    left = f"{title(report)} · {report.contest.label()}"
    reprint = report.printing.reprint
    mark = ""
    if reprint and report.printing.generated_at is not None:
        mark = (f"Reprint {reprint} — generated at "
                f"{format_datetime(report.printing.generated_at)}")
    stamp = report.report_date()
    pdf_date = "D:" + stamp.strftime("%Y%m%d%H%M%S")
    if reprint and report.printing.generated_at is not None:
        pdf_date = "D:" + report.printing.generated_at.strftime("%Y%m%d%H%M%S")

    class FooterCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._held: list[dict[str, Any]] = []
            self.setDateFormatter(lambda *_: pdf_date)

        def showPage(self) -> None:
            self._held.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held)
            for number, state in enumerate(self._held, start=1):
                self.__dict__.update(state)
                self._footer(number, total)
                super().showPage()
            super().save()

        def _footer(self, number: int, total: int) -> None:
            self.saveState()
            self.setStrokeColor(GRID)
            self.setLineWidth(0.5)
            y = MARGIN - 0.12 * inch
            self.line(MARGIN, y + 10, PAGE_W - MARGIN, y + 10)
            self.setFont("RDSans-Bold", 8)
            page = f"Page {number} of {total}"
            self.drawRightString(PAGE_W - MARGIN, y, page)
            self.setFont("RDSans", 7.5)
            room = BODY_W - stringWidth(page, "RDSans-Bold", 8) - 12
            self.drawString(MARGIN, y, _fit(left, "RDSans", 7.5, room))
            self.setFont("RDSans", 6.5)
            self.drawString(MARGIN, y - 10, f"Fingerprint {code}   SHA-256 {fp}")
            if mark:
                self.setFont("RDSans-Bold", 8)
                self.drawCentredString(PAGE_W / 2, PAGE_H - MARGIN + 14, mark)
            self.restoreState()

    return FooterCanvas


def _sentence(text: str) -> str:
    """End with one full stop ("10:00 a.m." already has it)."""
    return text if text.endswith(".") else text + "."


def _fit(text: str, font: str, size: float, room: float) -> str:
    if stringWidth(text, font, size) <= room:
        return text
    while text and stringWidth(text + "…", font, size) > room:
        text = text[:-1]
    return text + "…"


class _SheetBoundary(Flowable):
    """A sheet boundary for two-sided printing.

    ``start``: what follows begins on a front (odd) page — break the page if anything is on
    it, and fill an even page with the blank notice first. ``end``: if the content just
    finished on a front page, its back page gets the blank notice, so the sheet stays
    separate; nothing follows on that back.
    """

    _ZEROSIZE = 1

    def __init__(self, start: bool, blank: Callable[[], list[Flowable]]) -> None:
        super().__init__()
        self._start = start
        self._blank = blank

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        frame = self._doctemplateAttr("frame")
        page = int(self._doctemplateAttr("page"))
        if not frame._atTop:
            frame.add_generated_content(PageBreak(), _SheetBoundary(self._start, self._blank))
        elif page % 2 == 0:
            frame.add_generated_content(*self._blank(), *([PageBreak()] if self._start else []))
        return 0, 0

    def draw(self) -> None:
        pass


# --- the document -------------------------------------------------------------------------

def render(report: RecountReport, font_dir: Path,
           on_progress: Callable[[int, int], None] | None = None) -> bytes:
    """The report as PDF bytes; the same report gives the same bytes."""
    register_fonts(font_dir)
    st = _styles()
    fp = fingerprint(report)
    code = short_code(fp)
    buf = io.BytesIO()
    doc = BaseDocTemplate(
        buf, pagesize=LETTER, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN + FOOTER_H * 0.4, invariant=1, title=title(report),
        author=report.officer.name or report.board.title,
        subject=f"Recount of {report.contest.label()} — fingerprint {code} (SHA-256 {fp})",
        keywords=(f"recount-desk; fingerprint={fp}; code={code}; "
                  f"reprint={report.printing.reprint}"),
        creator="Recount Desk", producer="Recount Desk (ReportLab)",
    )
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    story = _story(report, st, fp, code, doc.height)
    doc.build(story, canvasmaker=_canvas_class(report, fp, code))
    return buf.getvalue()


def _story(r: RecountReport, st: _Styles, fp: str, code: str,
           frame_h: float) -> list[Flowable]:
    s: list[Flowable] = []
    s += _title_block(r, st)
    s += _request_section(r, st)
    s += _recount_section(r, st)
    s += _absentee_section(r, st)
    s += _people_section(r, st)
    s += _declaration_section(r, st)
    s += _own_sheet(_signature_page(r, st, fp, code), st, frame_h)
    if needs_lieutenant_governor_report(r):
        s += _own_sheet(_lieutenant_governor_report(r, st, code), st, frame_h)
    if cost_statement_applies(r):
        s += _own_sheet(_cost_statement(r, st), st, frame_h)
    if r.printing.appendix is not None:
        s += [PageBreak(), *_appendix(r, st)]
    return s


def _blank_page(st: _Styles, frame_h: float) -> list[Flowable]:
    return [Spacer(1, frame_h * 0.42), Paragraph(BLANK_PAGE_TEXT, st.blank)]


def _own_sheet(content: list[Flowable], st: _Styles, frame_h: float) -> list[Flowable]:
    """Content that must be a sheet of its own when printed two-sided: it starts on a front
    (odd) page, and a blank back page follows when it ends on a front page."""
    def blank() -> list[Flowable]:
        return _blank_page(st, frame_h)
    return [_SheetBoundary(True, blank), *content, _SheetBoundary(False, blank)]


def _kv_table(rows: Sequence[tuple[str, str]], st: _Styles,
              key_w: float = 1.55 * inch) -> Table:
    data = [[Paragraph(esc(k), st.cell_bold), Paragraph(esc(v), st.cell)] for k, v in rows]
    t = Table(data, colWidths=[key_w, BODY_W - key_w], hAlign="LEFT")
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
    ]))
    return t


def _title_block(r: RecountReport, st: _Styles) -> list[Flowable]:
    e, c = r.election, r.contest
    s: list[Flowable] = [Paragraph(esc(title(r)), st.h1),
                         Paragraph(esc(c.label()), st.h2)]
    if r.printing.reprint and r.printing.generated_at is not None:
        signed = ""
        if r.printing.signed_on is not None:
            signed = f" The original was signed on {format_date(r.printing.signed_on)}"
            if r.printing.signed_by:
                signed += " by " + ", ".join(r.printing.signed_by)
            signed += "."
        s.append(Paragraph(esc(
            f"Reprint {r.printing.reprint} — generated at "
            f"{_sentence(format_datetime(r.printing.generated_at))} This copy is made from "
            f"the same data as the signed report: its fingerprint must match the signed copy's."
            + signed), st.banner))
    if c.kind is ContestKind.PROPOSITION:
        kind = "Ballot proposition"
    else:
        kind = "Race between candidates, " + (
            "1 seat" if c.seats == 1 else f"{c.seats} seats")
    rows = [
        ("Election", e.name),
        ("Election date", format_date(e.date)),
        ("Kind of election", e.kind.label),
        ("Jurisdiction", e.jurisdiction),
        ("Contest", c.title),
    ]
    if c.district:
        rows.append(("District", c.district))
    if c.party:
        rows.append(("Party", c.party))
    rows += [
        ("Kind of contest", kind),
        ("Voted on", c.scope.label),
        ("Law applied", f"{r.edition.label}"),
        ("Report dated", format_datetime(r.report_date())),
    ]
    s.append(_kv_table(rows, st))
    return s


def _request_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [Paragraph("1. The request for a recount", st.h2)]
    if not r.requests:
        basis = r.automatic_basis or "No request is recorded."
        s.append(Paragraph(esc("Automatic recount: " + basis), st.body))
        return s
    for i, q in enumerate(r.requests, start=1):
        rows = [("Requested by", q.requester), ("Filed", format_datetime(q.filed_at)),
                ("Filed with", q.filed_with), ("Eligibility", q.basis)]
        if q.voters:
            rows.append((f"Voters ({len(q.voters)})", "; ".join(q.voters)))
        if len(r.requests) > 1:
            s.append(Paragraph(f"Request {i}", st.h3))
        s.append(_kv_table(rows, st))
    return s


def _recount_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    batches = any(u.covers for u in r.units)
    unit_word = "counting batch" if batches else "precinct"
    entry = ("Each tally sheet entered twice, by two officers, and reconciled (double entry)"
             if r.double_entry else "Each tally sheet entered once (single entry)")
    s: list[Flowable] = [
        Paragraph("2. The recount", st.h2),
        _kv_table([
            ("Method", r.method.label),
            ("Entry", entry),
            ("Recount started", format_date(r.started)),
            ("Recount completed", format_date(r.completed)),
            ("Units", f"{len(r.units):,} {unit_word}{'es' if batches else 's'}"
                      f" ({len(r.choices)} choices)"),
            ("Ballots rejected", _n(r.ballots_rejected)),
            *(("Source", line) for line in r.loads),
        ], st),
        Paragraph("2.1 Totals", st.h3),
        _totals_table(r, st),
        Paragraph(f"2.2 Results by {unit_word}", st.h3),
        Paragraph("For each choice: the votes of the official canvass, the votes found on "
                  "the recount, and the change (recount minus canvass)."
                  + (" Every unit's figures are loaded from the re-tabulated statement above "
                     "unless its source is named under it." if r.loads else ""), st.small),
    ]
    if not r.units:
        s.append(Paragraph("No units are recorded.", st.body))
        return s
    chunks = _chunks(len(r.choices))
    # measured once per unit, not once per group of choices
    name_widths = [stringWidth(u.name, UNIT_FONT, UNIT_SIZE) for u in r.units]
    for k, (lo, hi) in enumerate(chunks):
        if len(chunks) > 1:
            s.append(CondPageBreak(1.5 * inch))
            s.append(Paragraph(esc(f"Choices {lo + 1}–{hi} of {len(r.choices)}"), st.small))
        s.append(_unit_table(r, st, lo, hi, "Batch" if batches else "Precinct",
                              name_widths))
        if k < len(chunks) - 1:
            s.append(Spacer(1, 8))
    return s


def _chunks(n: int) -> list[tuple[int, int]]:
    """Split n choices into balanced groups of at most CHOICES_PER_TABLE."""
    if n == 0:
        return [(0, 0)]
    groups = -(-n // CHOICES_PER_TABLE)
    base, extra = divmod(n, groups)
    out, lo = [], 0
    for g in range(groups):
        hi = lo + base + (1 if g < extra else 0)
        out.append((lo, hi))
        lo = hi
    return out


def _totals_table(r: RecountReport, st: _Styles) -> Table:
    canvass, recount, diff = r.canvass_totals(), r.recount_totals(), r.total_differences()
    data: list[list[Any]] = [[Paragraph("Choice", st.cell_bold), Paragraph("Party", st.cell_bold),
                              "Canvass", "Recount", "Change"]]
    for ch, c, v, d in zip(r.choices, canvass, recount, diff, strict=True):
        data.append([Paragraph(esc(ch.name), st.cell), Paragraph(esc(ch.party), st.cell),
                     _n(c), _n(v), _d(d)])
    data.append([Paragraph("Total", st.cell_bold), "", _n(sum(canvass)), _n(sum(recount)),
                 _d(sum(recount) - sum(canvass))])
    num_w = 0.9 * inch
    party_w = 1.1 * inch
    t = Table(data, colWidths=[BODY_W - party_w - 3 * num_w, party_w, num_w, num_w, num_w],
              repeatRows=1, hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "RDCond", 8.5),
        ("FONT", (0, 0), (-1, 0), "RDCond-Bold", 8.5),
        ("FONT", (0, -1), (-1, -1), "RDCond-Bold", 8.5),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black),
        ("GRID", (0, 0), (-1, -1), 0.25, GRID),
    ]))
    return t


UNIT_FONT, UNIT_SIZE = "RDCond", 7.5
KEEP_WITH_TOTAL = 3  # the total never stands alone at the top of a page: 3 units go with it
MIN_ROWS_ON_PAGE = 3  # fewer rows than this under a header at the foot of a page: next page


@dataclass(frozen=True)
class _RowSet:
    """One unit table, cut into rows whose heights are all known before layout."""

    head: list[list[Any]]
    head_heights: list[float]
    body: list[list[Any]]
    body_heights: list[float]
    prefix: list[float]  # prefix[i] = height of body rows [0, i)
    bold: list[tuple[int, ...]]  # per body row, the columns set in bold (a changed count)
    total: list[Any]
    total_height: float
    col_widths: list[float]
    style: list[tuple[Any, ...]]  # commands valid for every piece (whole rows or columns)

    def piece(self, a: int, b: int, with_total: bool) -> Table:
        """A Table of the header, body rows [a, b) and, if asked, the total."""
        nh = len(self.head)
        data = [*self.head, *self.body[a:b]]
        heights = [*self.head_heights, *self.body_heights[a:b]]
        style = list(self.style)
        if b > a:
            # the stripes keep their phase from piece to piece
            order = [colors.white, ZEBRA] if a % 2 == 0 else [ZEBRA, colors.white]
            style.append(("ROWBACKGROUNDS", (0, nh), (-1, nh + b - a - 1), order))
        for i in range(a, b):
            for col in self.bold[i]:
                style.append(("FONT", (col, nh + i - a), (col, nh + i - a), "RDCond-Bold",
                              UNIT_SIZE))
        if with_total:
            data.append(self.total)
            heights.append(self.total_height)
            style += [("FONT", (0, -1), (-1, -1), "RDCond-Bold", UNIT_SIZE),
                      ("LINEABOVE", (0, -1), (-1, -1), 0.9, colors.black)]
        t = Table(data, colWidths=self.col_widths, rowHeights=heights, hAlign="LEFT")
        t.setStyle(TableStyle(style))
        return t


class _PagedTable(Flowable):
    """A long table that cuts itself at page boundaries, one page's rows at a time.

    reportlab's Table measures and splits the whole remaining table again on every page,
    which is quadratic in the number of rows (a 3,000-precinct recount spent most of its
    time there). Here every row height is known in advance, so the rows that fit on a page
    are found by bisecting the running heights, and only those rows ever become a Table.
    """

    def __init__(self, rows: _RowSet, start: int = 0) -> None:
        super().__init__()
        self._rows = rows
        self._start = start
        self._table: Table | None = None

    def _height(self) -> float:
        rs = self._rows
        return (sum(rs.head_heights) + rs.prefix[-1] - rs.prefix[self._start]
                + rs.total_height)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = sum(self._rows.col_widths), self._height()
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        rs, a = self._rows, self._start
        left = len(rs.body) - a
        room = availHeight - sum(rs.head_heights) + 1e-6
        fit = bisect_right(rs.prefix, rs.prefix[a] + room) - 1 - a
        fit = min(fit, left - KEEP_WITH_TOTAL)
        if fit < MIN_ROWS_ON_PAGE:
            return []
        return [rs.piece(a, a + fit, with_total=False), _PagedTable(rs, a + fit)]

    def draw(self) -> None:
        t = self._rows.piece(self._start, len(self._rows.body), with_total=True)
        t.wrapOn(self.canv, self.width, self.height)
        t.drawOn(self.canv, 0, 0)


def _row_heights(rows: list[list[Any]], widths: list[float],
                 style: list[tuple[Any, ...]]) -> list[float]:
    """The heights reportlab gives these rows (measured by reportlab itself)."""
    t = Table(rows, colWidths=widths)
    t.setStyle(TableStyle(style))
    t.wrap(sum(widths), 1e9)
    return list(t._rowHeights)


def _unit_table(r: RecountReport, st: _Styles, lo: int, hi: int, unit_head: str,
                name_widths: list[float]) -> _PagedTable:
    n = hi - lo
    num_w = 40.0 if n == 3 else 48.0
    name_w = BODY_W - 3 * n * num_w
    widths = [name_w] + [num_w] * (3 * n)
    room = name_w - 6
    head0: list[Any] = [Paragraph(unit_head, st.cell_bold)]
    head1: list[Any] = [""]
    for ch in r.choices[lo:hi]:
        label = esc(ch.name) + (f"<br/><font size=6.5>{esc(ch.party)}</font>" if ch.party
                                else "")
        head0 += [Paragraph(label, st.head), "", ""]
        head1 += ["Canvass", "Recount", "Change"]
    # Whole-table, whole-row and whole-column commands only: they cost the same for
    # 30 rows as for 3,000.
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), UNIT_FONT, UNIT_SIZE),
        ("FONT", (0, 1), (-1, 1), "RDCond-Bold", 7),
        ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 1), HEAD_BG),
        ("GRID", (0, 0), (-1, -1), 0.25, GRID),
        ("TOPPADDING", (0, 0), (-1, -1), 1.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for k in range(n):
        c0 = 1 + 3 * k
        style.append(("SPAN", (c0, 0), (c0 + 2, 0)))
        style.append(("LINEBEFORE", (c0, 0), (c0, -1), 0.9, colors.black))
    body: list[list[Any]] = []
    bold: list[tuple[int, ...]] = []
    wrapped: list[int] = []
    for i, (u, width) in enumerate(zip(r.units, name_widths, strict=True)):
        row = _unit_row(u, lo, hi, st, wraps=bool(u.covers or u.source) or width > room)
        if not isinstance(row[0], str):
            wrapped.append(i)
        body.append(row)
        bold.append(tuple(3 + 3 * k for k, d in enumerate(u.difference[lo:hi]) if d))
    canvass, recount = r.canvass_totals(), r.recount_totals()
    total: list[Any] = ["Total"]
    for j in range(lo, hi):
        total += [_n(canvass[j]), _n(recount[j]), _d(recount[j] - canvass[j])]
    # One-line rows all have the height of the total row; only wrapped names are measured.
    measured = _row_heights([head0, head1, total, *(body[i] for i in wrapped)], widths, style)
    head_heights, line_h = measured[:2], measured[2]
    heights = [line_h] * len(body)
    for i, h in zip(wrapped, measured[3:], strict=True):
        heights[i] = h
    prefix = [0.0, *accumulate(heights)]
    return _PagedTable(_RowSet([head0, head1], head_heights, body, heights, prefix, bold,
                               total, line_h, widths, style))


def _unit_row(u: Unit, lo: int, hi: int, st: _Styles, wraps: bool) -> list[Any]:
    # Plain strings are far cheaper than Paragraphs; wrap only the names that need it.
    name: Any = u.name
    if wraps:
        text = esc(u.name)
        if u.covers:
            text += "<br/><font size=6.5>" + esc("Covers " + ", ".join(u.covers)) + "</font>"
        if u.source:
            text += "<br/><font size=6.5>" + esc(u.source) + "</font>"
        name = Paragraph(text, st.cell)
    row: list[Any] = [name]
    for c, v in zip(u.canvass[lo:hi], u.recount[lo:hi], strict=True):
        row += [_n(c), _n(v), _d(v - c)]
    return row


def _absentee_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [Paragraph("3. Reexamination of unopened absentee ballots", st.h2)]
    a = r.absentee
    if a is None:
        s.append(Paragraph("No unopened absentee ballots were found to reexamine "
                           "(Utah Code 20A-4-401(1)(e)(iii), (2)(d)(iii)).", st.body))
        return s
    s.append(Paragraph(esc(
        f"Envelopes reexamined: {_n(a.reexamined)}. Accepted: {_n(a.accepted)} (their votes "
        f"are included in the recount above). Still rejected: {_n(a.rejected_total)}."),
        st.body))
    if a.still_rejected:
        data: list[list[Any]] = [["Reason still rejected", "Envelopes"]]
        data += [[Paragraph(esc(x.reason), st.cell), _n(x.count)] for x in a.still_rejected]
        t = Table(data, colWidths=[BODY_W - 1.2 * inch, 1.2 * inch], hAlign="LEFT")
        t.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), "RDCond", 8.5),
            ("FONT", (0, 0), (-1, 0), "RDCond-Bold", 8.5),
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
            ("ALIGN", (1, 0), (1, -1), "RIGHT"),
            ("GRID", (0, 0), (-1, -1), 0.25, GRID),
        ]))
        s.append(t)
    return s


def _people_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [Paragraph("4. Witnesses present", st.h2)]
    if r.witnesses:
        data: list[list[Any]] = [["Witness", "Designated by"]]
        data += [[Paragraph(esc(w.name), st.cell), Paragraph(esc(w.designated_by), st.cell)]
                 for w in r.witnesses]
        s.append(_plain_table(data, [BODY_W / 2, BODY_W / 2]))
    else:
        s.append(Paragraph("No witnesses were designated.", st.body))
    b = r.board
    s.append(Paragraph("5. The board of canvassers", st.h2))
    met = []
    if b.convened_at is not None:
        met.append(f"convened on {format_datetime(b.convened_at)}")
    if b.place:
        met.append(f"at {b.place}")
    s.append(Paragraph(esc(f"The {b.title} " + (" ".join(met) if met else "met") +
                           " to canvass the returns of the recount (Utah Code "
                           "20A-4-401(4)(a),(b))."), st.body))
    data = [["Member", "Title", "Attendance"]]
    data += [[Paragraph(esc(m.name), st.cell), Paragraph(esc(m.title), st.cell),
              "Present" if m.present else "Absent"] for m in b.members]
    s.append(_plain_table(data, [BODY_W * 0.4, BODY_W * 0.42, BODY_W * 0.18]))
    s.append(Spacer(1, 3))
    s.append(Paragraph(esc(quorum_statement(b)), st.body))
    return s


def _plain_table(data: list[list[Any]], widths: list[float]) -> Table:
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "RDCond", 8.5),
        ("FONT", (0, 0), (-1, 0), "RDCond-Bold", 8.5),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.25, GRID),
    ]))
    return t


def _declaration_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [Paragraph("6. Declaration of the result", st.h2),
                         Paragraph(esc(declaration_statement(r)), st.body)]
    if r.declaration.lot is not None:
        s.append(Paragraph(esc(lot_statement(r.declaration.lot)), st.body))
    s.append(Paragraph("7. Official result and certification", st.h2))
    s.append(Paragraph(esc(official_result_statement(r)), st.body))
    s.append(Paragraph(esc(certification_statement(r)), st.body))
    s.append(Paragraph("The signatures are on a sheet of their own at the end of this report.",
                       st.small))
    return [KeepTogether(s[:3]), *s[3:]] if len(s) > 3 else s


def _signature_block(name: str, role: str, st: _Styles) -> Table:
    line = "_" * 46
    data = [
        [Paragraph("Printed name", st.small), Paragraph(esc(name), st.body),
         Paragraph("Title", st.small), Paragraph(esc(role), st.body)],
        [Paragraph("Signature", st.small), line, Paragraph("Date", st.small), "_" * 18],
    ]
    t = Table(data, colWidths=[0.95 * inch, 3.2 * inch, 0.45 * inch, BODY_W - 4.6 * inch],
              hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "RDSans", 9),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 1), (-1, 1), 22),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("BOX", (0, 0), (-1, -1), 0.4, GRID),
    ]))
    return t


def _signature_page(r: RecountReport, st: _Styles, fp: str, code: str) -> list[Flowable]:
    s: list[Flowable] = [
        Paragraph("Signatures", st.h1),
        Paragraph(esc(f"{title(r)} · {r.contest.label()} · {r.election.name}"), st.body),
        Paragraph(esc(certification_statement(r)), st.body),
        Paragraph(esc(f"Report fingerprint {code} (SHA-256 {fp}). The same fingerprint is "
                      "printed at the foot of every page of this report."), st.small),
        Spacer(1, 6),
        Paragraph(esc(f"Members of the {r.board.title}"), st.h3),
    ]
    for m in r.board.present:
        s += [_signature_block(m.name, m.title, st), Spacer(1, 7)]
    s.append(Paragraph("Election officer", st.h3))
    s.append(_signature_block(r.officer.name, r.officer.title, st))
    return s


def _lieutenant_governor_report(r: RecountReport, st: _Styles, code: str) -> list[Flowable]:
    c = r.contest
    is_prop = c.kind is ContestKind.PROPOSITION
    s: list[Flowable] = [
        Paragraph("Report to the Lieutenant Governor", st.h1),
        Paragraph(esc(f"{c.label()} — {r.election.name}"), st.h2),
        Paragraph(esc(
            f"Separate report of the {r.board.title} on the recount of a "
            f"{c.scope.label.lower()} {'proposition' if is_prop else 'race'}, prepared and "
            f"transmitted under Utah Code 20A-4-401(4)(c) and 20A-4-304(7). The votes below are "
            f"the votes cast in {r.election.jurisdiction} for "
            f"{'and against the proposition' if is_prop else 'each candidate'}, as found on "
            f"the recount."), st.body),
    ]
    head = "For / against" if is_prop else "Candidate"
    data: list[list[Any]] = [[head, "Party", f"Votes in {r.election.jurisdiction}"]]
    totals = r.recount_totals()
    for ch, v in zip(r.choices, totals, strict=True):
        data.append([Paragraph(esc(ch.name), st.cell), Paragraph(esc(ch.party), st.cell),
                     _n(v)])
    data.append(["Total", "", _n(sum(totals))])
    t = _plain_table(data, [BODY_W * 0.5, BODY_W * 0.25, BODY_W * 0.25])
    t.setStyle(TableStyle([("ALIGN", (2, 0), (2, -1), "RIGHT"),
                           ("FONT", (0, -1), (-1, -1), "RDCond-Bold", 8.5),
                           ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    s += [t, Spacer(1, 6),
          Paragraph(esc(declaration_statement(r)), st.body),
          Paragraph(esc(f"Fingerprint of the recount data: {code}."), st.small),
          Spacer(1, 10), Paragraph("Transmitted by", st.h3),
          _signature_block(r.officer.name, r.officer.title, st)]
    return s


def _cost_statement(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [
        Paragraph("Statement of the costs of the recount", st.h1),
        Paragraph(esc(f"{r.contest.label()} — {r.election.name}"), st.h2),
    ]
    cost = r.costs
    if cost is None:
        s.append(Paragraph("The voters who requested this recount pay its costs (Utah Code "
                           "20A-4-401(2)(f)); no costs have been recorded yet.", st.body))
        return s
    s.append(Paragraph(esc(f"Payable by: {cost.payer} ({cost.basis})."), st.body))
    data: list[list[Any]] = [["Item", "Amount"]]
    data += [[Paragraph(esc(i.description), st.cell), format_cents(i.cents)]
             for i in cost.items]
    data.append(["Total", format_cents(cost.total_cents)])
    t = _plain_table(data, [BODY_W - 1.4 * inch, 1.4 * inch])
    t.setStyle(TableStyle([("ALIGN", (1, 0), (1, -1), "RIGHT"),
                           ("FONT", (0, -1), (-1, -1), "RDCond-Bold", 8.5)]))
    s += [t, Spacer(1, 6)]
    if r.requests:
        s.append(Paragraph(esc("Requested by: " + "; ".join(
            q.requester for q in r.requests)), st.body))
    return s


def _appendix(r: RecountReport, st: _Styles) -> list[Flowable]:
    rows = r.printing.appendix or ()
    s: list[Flowable] = [Paragraph("Appendix — audit log of this contest", st.h1),
                         Paragraph("Every recorded action on this contest, in order, from the "
                                   "case file's hash-chained audit log.", st.small)]
    data: list[list[Any]] = [["#", "When (UTC)", "By", "Action", "Details"]]
    for a in rows:
        data.append([str(a.seq), a.at[:19].replace("T", " "), Paragraph(esc(a.actor), st.cell),
                     Paragraph(esc(a.action), st.cell), Paragraph(esc(a.summary), st.cell)])
    if not rows:
        data.append(["", "", "", "No entries.", ""])
    s.append(_plain_table(data, [0.45 * inch, 1.25 * inch, 0.95 * inch, 1.4 * inch,
                                 BODY_W - 4.05 * inch]))
    return s
