"""The board of canvassers' recount report as a PDF (reportlab platypus), byte-for-byte repeatable.

Same data, same bytes: the canvas runs in reportlab's invariant mode and the PDF's dates
come from the report (the board's meeting, or a reprint's recorded time), never the clock.
The fingerprint of the data is printed on every page and stored in the PDF's Keywords with
the settings the copy was made with, so any copy can be checked against the case file.

Every page of a copy made before the signing is recorded, or whose dates are out of order,
carries a DRAFT watermark; the signed original and its reprints show conformed signatures
("/s/ name, date, place"). US Letter, portrait; the results by precinct go on landscape
pages when the contest's choices do not fit across a portrait page, and every precinct is
a block of three lines (canvass, recount, change) holding all of its choices, so one
precinct is always in one place. Headings keep with what follows, signature blocks are
never split, and a sheet of its own (signatures, the report to the lieutenant governor)
gets "This page intentionally left blank" on an empty back.
"""

from __future__ import annotations

import io
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import LETTER, landscape
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    ActionFlowable,
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from recount_desk.core.model import ContestKind, Scope
from recount_desk.core.report_model import (
    LG_MULTICOUNTY_PROPOSITION_ASSUMPTION,
    Ballots,
    RecountReport,
    Unit,
    board_declaration_statement,
    certification_statement,
    chronology,
    conformed_signature,
    cost_statement_applies,
    declaration_statement,
    edition_statement,
    fingerprint,
    format_cents,
    format_date,
    format_datetime,
    is_official,
    lot_deadline_statement,
    lot_statement,
    needs_lieutenant_governor_report,
    official_result_statement,
    problems,
    quorum_statement,
    short_code,
)

from . import text as tx

FONT_FILES = {
    "RDSans": "DejaVuSans.ttf",
    "RDSans-Bold": "DejaVuSans-Bold.ttf",
    "RDCond": "DejaVuSansCondensed.ttf",
    "RDCond-Bold": "DejaVuSansCondensed-Bold.ttf",
}
BLANK_PAGE_TEXT = "This page intentionally left blank"
DRAFT_MARK = "DRAFT"
PAGE_W, PAGE_H = LETTER
MARGIN = 0.75 * inch
FOOTER_H = 0.55 * inch
BODY_W = PAGE_W - 2 * MARGIN
LAND_W = PAGE_H - 2 * MARGIN
GRID = colors.Color(0.55, 0.55, 0.55)
HEAD_BG = colors.Color(0.88, 0.88, 0.88)
CHANGE_BG = colors.Color(0.95, 0.95, 0.95)


def register_fonts(font_dir: Path) -> None:
    """Register the embedded fonts once per process (DejaVu: full Latin, Greek, Cyrillic,
    Hebrew and Arabic glyphs; the CJK fallback on first need). A missing font file is an
    installation fault: it raises."""
    tx.set_font_dir(font_dir)
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
    alarm: ParagraphStyle
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
                              leftIndent=5, rightIndent=5),
        alarm=ParagraphStyle("alarm", parent=body, fontName="RDSans-Bold", fontSize=9.5,
                             leading=12.5, borderColor=colors.black, borderWidth=1.5,
                             borderPadding=5, spaceBefore=4, spaceAfter=10,
                             leftIndent=5, rightIndent=5),
        blank=ParagraphStyle("blank", parent=body, fontSize=11, alignment=TA_CENTER,
                             textColor=colors.Color(0.35, 0.35, 0.35)),
    )


def esc(text: str) -> str:
    """User text made safe for Paragraph markup, in visual order, in a font that has it."""
    return tx.markup(text)


def _n(v: int | None) -> str:
    return "—" if v is None else f"{v:,}"


def _d(v: int | None) -> str:
    if v is None:
        return "—"
    return "0" if v == 0 else f"{v:+,}"


def _delta(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else b - a


def report_title(r: RecountReport) -> str:
    """"Official Recount Report" only for a signed copy with nothing wrong."""
    word = "Official Recount Report" if is_official(r) else "Recount Report (DRAFT)"
    return f"{word} — {r.board.title}"


def copy_status(r: RecountReport) -> str:
    p = r.printing
    if p.signing is None:
        return "DRAFT — the signing is not recorded; this copy is not the official result"
    if problems(r):
        return "NOT OFFICIAL — recorded as signed, but the report fails its checks"
    if p.reprint:
        return f"Reprint {p.reprint} of the signed report"
    return "Signed original"


# --- page numbering, footer, watermark ----------------------------------------------------

def _draw_text(canv: Canvas, x: float, y: float, text: str, font: str, size: float,
               align: str = "left") -> None:
    """Draw one line (already in visual order) with the fallback font where needed."""
    w = tx.width(text, font, size)
    if align == "right":
        x -= w
    elif align == "center":
        x -= w / 2
    if not tx.needs_fallback(text):
        canv.setFont(font, size)
        canv.drawString(x, y, text)
        return
    for fb, piece in tx.runs(text):
        f = tx.FALLBACK if fb else font
        canv.setFont(f, size)
        canv.drawString(x, y, piece)
        x += stringWidth(piece, f, size)


def _canvas_class(report: RecountReport, fp: str, code: str) -> type[Canvas]:
    """A canvas that holds its pages until the end, so each footer can say "Page X of Y"."""
    left = tx.visual(f"{report_title(report)} · {report.contest.label()}")
    draft = not is_official(report)
    status = copy_status(report)
    p = report.printing
    mark = status
    if p.reprint and p.generated_at is not None:
        mark = f"{status} — generated at {format_datetime(p.generated_at)}"
    stamp = p.generated_at if p.generated_at is not None else report.report_date()
    pdf_date = "D:" + stamp.strftime("%Y%m%d%H%M%S")
    line = f"Fingerprint {code}   SHA-256 {fp}" + (f"   {p.footer_note}" if p.footer_note
                                                      else "")
    fitted: dict[tuple[str, float, float], str] = {}

    def _fitted(text: str, font: str, size: float, room: float) -> str:
        key = (text, size, room)  # the same on every page: measured once
        if key not in fitted:
            fitted[key] = _fit(text, font, size, room)
        return fitted[key]

    class FooterCanvas(Canvas):  # type: ignore[misc]  # reportlab ships no types
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
            w, h = self._pagesize
            self.saveState()
            if draft:
                self.saveState()
                self.setFillColor(colors.Color(0.5, 0.5, 0.5, alpha=0.16))
                self.translate(w / 2, h / 2)
                self.rotate(38)
                self.setFont("RDSans-Bold", 120)
                self.drawCentredString(0, -40, DRAFT_MARK)
                self.restoreState()
            self.setStrokeColor(GRID)
            self.setLineWidth(0.5)
            y = MARGIN - 0.12 * inch
            self.line(MARGIN, y + 10, w - MARGIN, y + 10)
            self.setFont("RDSans-Bold", 8)
            page = f"Page {number} of {total}"
            self.drawRightString(w - MARGIN, y, page)
            room = w - 2 * MARGIN - stringWidth(page, "RDSans-Bold", 8) - 12
            _draw_text(self, MARGIN, y, _fitted(left, "RDSans", 7.5, room), "RDSans", 7.5)
            _draw_text(self, MARGIN, y - 10, _fitted(line, "RDSans", 6.5, w - 2 * MARGIN),
                       "RDSans", 6.5)
            self.setFont("RDSans-Bold", 8)
            self.drawCentredString(w / 2, h - MARGIN + 14, mark)
            self.restoreState()

    return FooterCanvas


def _sentence(text: str) -> str:
    """End with one full stop ("10:00 a.m." already has it)."""
    return text if text.endswith(".") else text + "."


def _fit(text: str, font: str, size: float, room: float) -> str:
    if tx.width(text, font, size) <= room:
        return text
    while text and tx.width(text + "…", font, size) > room:
        text = text[:-1]
    return text + "…"


class _SheetBoundary(Flowable):  # type: ignore[misc]  # reportlab ships no types
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

def keywords(report: RecountReport, fp: str, code: str) -> str:
    """The settings of this copy, read back by verification (``pdf_meta.read``)."""
    p = report.printing
    parts = [f"recount-desk; fingerprint={fp}", f"code={code}", f"reprint={p.reprint}",
             f"appendix={1 if p.appendix is not None else 0}", f"audit_upto={p.audit_upto}",
             f"official={1 if is_official(report) else 0}"]
    if p.generated_at is not None:
        parts.append(f"generated_at={p.generated_at.isoformat()}")
    if p.footer_note:  # the chain head printed beside the fingerprint (store/anchor.py)
        parts.append("chain_head=" + p.footer_note.replace(";", "%3B"))
    if p.signing is not None:
        s = p.signing
        parts.append(f"signed_at={s.signed_at.isoformat()}")
        parts.append("signed_place=" + s.place.replace(";", "%3B"))
        parts.append("signed_by=" + ",".join(
            x.name.replace(",", "%2C").replace(";", "%3B") for x in s.signers))
    return "; ".join(parts)


def render(report: RecountReport, font_dir: Path,
           on_progress: Callable[[int, int], None] | None = None,
           fp: str | None = None) -> bytes:
    """The report as PDF bytes; the same report gives the same bytes. ``fp``: its
    fingerprint, when the caller has it already."""
    register_fonts(font_dir)
    st = _styles()
    fp = fp or fingerprint(report)
    code = short_code(fp)
    buf = io.BytesIO()
    doc = BaseDocTemplate(
        buf, pagesize=LETTER, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN + FOOTER_H * 0.4, invariant=1, title=report_title(report),
        author=report.officer.name or report.board.title,
        subject=f"Recount of {report.contest.label()} — fingerprint {code} (SHA-256 {fp})",
        keywords=keywords(report, fp, code),
        creator="Recount Desk", producer="Recount Desk (ReportLab)",
    )
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    land_h = PAGE_W - doc.topMargin - doc.bottomMargin
    lframe = Frame(doc.leftMargin, doc.bottomMargin, LAND_W, land_h, id="land",
                   leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], pagesize=LETTER),
                          PageTemplate(id="land", frames=[lframe],
                                       pagesize=landscape(LETTER))])
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
    s += _witness_section(r, st)
    s += _cost_section(r, st)
    s += _board_section(r, st)
    s += _declaration_section(r, st)
    s += _chronology_section(r, st)
    s += _certification_section(r, st)
    s += _own_sheet(_signature_page(r, st, fp, code), st, frame_h)
    if needs_lieutenant_governor_report(r):
        s += _own_sheet(_lieutenant_governor_report(r, st, code), st, frame_h)
    if cost_statement_applies(r):
        s += _own_sheet(_cost_statement(r, st), st, frame_h)
    if r.printing.appendix is not None:
        s += [PageBreak(), *_appendix(r, st)]
    return _keep_headings(s, {st.h1.name, st.h2.name, st.h3.name})


def _keep_headings(story: list[Flowable], heads: set[str]) -> list[Flowable]:
    """Every run of headings goes to a page with what follows it (reportlab's keepWithNext
    would push a heading and a long table whole to the next page, leaving a gap)."""
    out: list[Flowable] = []
    run: list[Flowable] = []
    for f in story:
        if isinstance(f, Paragraph) and (f.style.name in heads or (
                run and f.style.name == "small" and len(run) < 3)):
            run.append(f)
            continue
        if run and isinstance(f, ActionFlowable):
            out += [*run, f]
            run = []
        elif run:
            out.append(_KeepStart([*run, f]))
            run = []
        else:
            out.append(f)
    out += run
    return out


class _KeepStart(Flowable):  # type: ignore[misc]  # reportlab ships no types
    """Headings and the flowable after them: placed only where the headings and the start
    of what follows (a few lines of it, or all of it if short) fit; then they flow on."""

    START = 42.0

    def __init__(self, content: list[Flowable]) -> None:
        super().__init__()
        self._content = content
        self._need = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        total = 0.0
        need = 0.0
        for i, f in enumerate(self._content):
            _, h = f.wrapOn(self.canv, availWidth, availHeight)
            h += f.getSpaceBefore() + f.getSpaceAfter()
            total += h
            last = i == len(self._content) - 1
            need += min(h, self.START) if last else h
        self._need = need
        self.width, self.height = availWidth, total
        return availWidth, total

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self.wrap(availWidth, availHeight)
        if availHeight + 1e-6 < self._need:
            return []
        return list(self._content)

    def draw(self) -> None:
        y = self.height
        for f in self._content:
            _, h = f.wrapOn(self.canv, self.width, self.height)
            y -= f.getSpaceBefore() + h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


def _blank_page(st: _Styles, frame_h: float) -> list[Flowable]:
    return [Spacer(1, frame_h * 0.42), Paragraph(BLANK_PAGE_TEXT, st.blank)]


def _own_sheet(content: list[Flowable], st: _Styles, frame_h: float) -> list[Flowable]:
    """Content that must be a sheet of its own when printed two-sided: it starts on a front
    (odd) page, and a blank back page follows when it ends on a front page."""
    def blank() -> list[Flowable]:
        return _blank_page(st, frame_h)
    return [_SheetBoundary(True, blank), *content, _SheetBoundary(False, blank)]


def _kv_table(rows: Sequence[tuple[str, str]], st: _Styles,
              key_w: float = 1.55 * inch, width: float = BODY_W) -> Table:
    data = [[Paragraph(esc(k), st.cell_bold), Paragraph(esc(v), st.cell)] for k, v in rows]
    t = Table(data, colWidths=[key_w, width - key_w], hAlign="LEFT")
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
    ]))
    return t


def _plain_table(data: list[list[Any]], widths: list[float], right: int | None = None,
                 bold_last: bool = False) -> Table:
    head = ParagraphStyle("th", fontName="RDCond-Bold", fontSize=8.5, leading=10)
    data = [[Paragraph(tx.markup(h), head) if isinstance(h, str) and h else h
             for h in data[0]], *data[1:]]
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), "RDCond", 8.5),
        ("FONT", (0, 0), (-1, 0), "RDCond-Bold", 8.5),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.25, GRID),
    ]
    if right is not None:
        style.append(("ALIGN", (right, 0), (-1, -1), "RIGHT"))
    if bold_last:
        style += [("FONT", (0, -1), (-1, -1), "RDCond-Bold", 8.5),
                  ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black)]
    t.setStyle(TableStyle(style))
    return t


def _p(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(esc(text), style)


def _title_block(r: RecountReport, st: _Styles) -> list[Flowable]:
    e, c = r.election, r.contest
    s: list[Flowable] = [_p(report_title(r), st.h1), _p(c.label(), st.h2)]
    p = r.printing
    found = problems(r)
    if found:
        s.append(Paragraph(
            "This report cannot be the official result until these are put right:<br/>"
            + "<br/>".join("• " + esc(x) for x in found), st.alarm))
    elif p.signing is None:
        s.append(_p("DRAFT for the board's review. It becomes the official result once the "
                    "board and the election officer have signed it and the signing is "
                    "recorded in the case; the copy made then carries their conformed "
                    "signatures.", st.banner))
    elif p.reprint and p.generated_at is not None:
        s.append(_p(f"Reprint {p.reprint} — generated at "
                    f"{_sentence(format_datetime(p.generated_at))} This copy is made from the "
                    "same data as the signed report: its fingerprint must match the signed "
                    f"copy's. The original was signed on "
                    f"{format_date(p.signing.signed_at.date())} by "
                    + ", ".join(x.name for x in p.signing.signers) + ".", st.banner))
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
    voted = c.scope.label
    if r.portion:
        voted += (f" — this report covers {e.jurisdiction}'s portion of the "
                  f"{c.scope.label.lower()} contest")
    rows += [
        ("Kind of contest", kind),
        ("Voted on", voted),
        ("Law applied", edition_statement(r)),
        ("Report dated", format_datetime(r.report_date())),
        ("This copy", copy_status(r)),
        ("Times", "Mountain Time (Utah), as recorded in the case"),
    ]
    s.append(_kv_table(rows, st))
    return s


def _request_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("1. The request for a recount", st.h2)]
    if not r.requests:
        if r.automatic_basis:
            s.append(_p("Automatic recount: " + r.automatic_basis, st.body))
        else:
            s.append(_p("No request for a recount is recorded, and the canvass does not call "
                        "for an automatic recount: the case gives no basis for this recount.",
                        st.body))
        return s
    for i, q in enumerate(r.requests, start=1):
        rows = [("Requested by", q.requester), ("Filed", format_datetime(q.filed_at)),
                ("Filed with", q.filed_with)]
        for c in q.checks:
            rows.append(("Check: met" if c.ok else "Check: NOT MET",
                         c.text + (f" ({c.basis})" if c.basis else "")))
        if not q.checks:
            rows.append(("Eligibility", q.basis))
        if q.failed:
            rows.append(("Accepted by override",
                         "The election officer accepted the request although "
                         f"{len(q.failed)} check(s) failed. Reason recorded: "
                         + (q.override_reason or "none recorded")))
        if q.voters:
            rows.append((f"Voters ({len(q.voters)})", "; ".join(q.voters)))
        if len(r.requests) > 1:
            s.append(_p(f"Request {i}", st.h3))
        s.append(_kv_table(rows, st))
    return s


def _recount_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    batches = any(u.covers for u in r.units)
    unit_word = "counting batch" if batches else "precinct"
    entry = ("Each tally sheet entered twice, by two officers, and reconciled (double entry)"
             if r.double_entry else "Each tally sheet entered once (single entry)")
    keyed = sum(1 for u in r.units if u.source) if r.loads else len(r.units)
    if r.loads and not keyed:
        entry = "Loaded from the re-tabulated statement (see Source): no tally sheet was keyed"
    elif r.loads:
        entry = (f"Loaded from the re-tabulated statement (see Source), but {keyed:,} unit(s) "
                 "counted by hand: " + entry[0].lower() + entry[1:])
    a = r.absentee
    s: list[Flowable] = [
        _p("2. The recount", st.h2),
        _kv_table([
            ("Method", r.method.description),
            ("Entry", entry),
            ("Recount started", format_datetime(r.started_at) if r.started_at
             else format_date(r.started)),
            ("Recount completed", format_datetime(r.completed_at) if r.completed_at
             else format_date(r.completed)),
            ("Units", f"{len(r.units):,} {unit_word}{'es' if batches else 's'}"
                      f" ({len(r.choices)} choices)"),
            ("Absentee envelopes still rejected",
             f"{_n(a.rejected_total if a else 0)} (their ballots were not counted; see 3)"),
            *(("Source", line) for line in r.loads),
        ], st),
        _p("2.1 Totals", st.h3),
        _p("“—” means the figure is not recorded: the canvass file gives no ballots-counted "
           "figure, and lists write-ins as choices of their own or not at all, so where its "
           "write-ins are “—” its total counts the listed choices only.", st.small),
        _totals_table(r, st),
    ]
    s += _changed_section(r, st, unit_word)
    s += _entry_section(r, st)
    s += _units_section(r, st, unit_word, batches)
    return s


def _total_word(r: RecountReport) -> str:
    if r.contest.kind is ContestKind.PROPOSITION:
        return "Total votes cast for and against"
    return "Total votes cast for all candidates (write-ins included)"


def _totals_table(r: RecountReport, st: _Styles) -> Table:
    canvass, recount = r.canvass_totals(), r.recount_totals()
    cb, rb = r.canvass_ballots(), r.recount_ballots()
    data: list[list[Any]] = [[Paragraph("Choice", st.cell_bold),
                              Paragraph("Party", st.cell_bold), "Canvass", "Recount",
                              "Change"]]
    for ch, c, v in zip(r.choices, canvass, recount, strict=True):
        data.append([_p(ch.name, st.cell), _p(ch.party, st.cell), _n(c), _n(v), _d(v - c)])
    if r.write_in_line:
        data.append([_p("Write-ins (not listed as choices)", st.cell), "",
                     _n(cb.write_ins), _n(rb.write_ins), _d(_delta(cb.write_ins, rb.write_ins))])
    ct, rt = r.canvass_total_votes(), r.recount_total_votes()
    data.append([_p(_total_word(r), st.cell_bold), "", _n(ct), _n(rt), _d(rt - ct)])
    total_row = len(data) - 1
    for label, a, b in (("Over-votes", cb.over, rb.over), ("Under-votes", cb.under, rb.under),
                        ("Ballots counted", cb.counted, rb.counted)):
        data.append([_p(label, st.cell), "", _n(a), _n(b), _d(_delta(a, b))])
    num_w = 0.9 * inch
    party_w = 1.1 * inch
    t = Table(data, colWidths=[BODY_W - party_w - 3 * num_w, party_w, num_w, num_w, num_w],
              repeatRows=1, hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "RDCond", 8.5),
        ("FONT", (0, 0), (-1, 0), "RDCond-Bold", 8.5),
        ("FONT", (0, total_row), (-1, total_row), "RDCond-Bold", 8.5),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEABOVE", (0, total_row), (-1, total_row), 0.8, colors.black),
        ("LINEBELOW", (0, total_row), (-1, total_row), 0.8, colors.black),
        ("GRID", (0, 0), (-1, -1), 0.25, GRID),
    ]))
    return t


def _change_words(r: RecountReport, u: Unit) -> str:
    parts = [f"{ch.name} {_d(d)}" for ch, d in zip(r.choices, u.difference, strict=True) if d]
    w = _delta(u.canvass_ballots.write_ins, u.recount_ballots.write_ins)
    if w:
        parts.append(f"write-ins {_d(w)}")
    return "; ".join(parts)


def _changed_section(r: RecountReport, st: _Styles, unit_word: str) -> list[Flowable]:
    changed = r.changed_units()
    s: list[Flowable] = [_p(f"2.2 The {unit_word}s whose figures changed, and why", st.h3)]
    if not changed:
        s.append(_p(f"No {unit_word}'s votes changed on the recount.", st.body))
        return s
    data: list[list[Any]] = [[unit_word.capitalize(), "Change", "Explanation recorded"]]
    for u in changed:
        why = []
        if u.note:
            why.append("Variance note: " + u.note)
        if u.envelopes:
            why.append(f"{u.envelopes} absentee ballot(s) accepted on reexamination joined "
                       f"this {unit_word}")
        if u.resolution:
            why.append("Double entry: " + u.resolution)
        if not why:
            why.append("NO EXPLANATION IS RECORDED")
        data.append([_p(u.name, st.cell), _p(_change_words(r, u), st.cell),
                     Paragraph("<br/>".join(esc(w) for w in why), st.cell)])
    s.append(_plain_table(data, [BODY_W * 0.22, BODY_W * 0.24, BODY_W * 0.54]))
    return s


def _entry_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("2.3 Who entered the tally sheets, and who resolved "
                            "disagreements", st.h3)]
    # A unit loaded from a re-tabulated statement was not keyed (its source is blank).
    keyed = [u for u in r.units if u.source or not r.loads]
    counts: dict[str, int] = {}
    for u in keyed:
        for who in u.entered_by:
            counts[who] = counts.get(who, 0) + 1
    loaded = len(r.units) - len(keyed)
    if loaded:
        s.append(_p(f"{loaded:,} of {len(r.units):,} units were loaded from the re-tabulated "
                    "statement (section 2, Source), not keyed: no tally sheet was entered "
                    "for them and no second entry was needed.", st.body))
    if counts:
        data: list[list[Any]] = [["Officer", "Tally sheets entered"]]
        data += [[_p(k, st.cell), f"{v:,}"] for k, v in sorted(counts.items())]
        s.append(_plain_table(data, [BODY_W * 0.7, BODY_W * 0.3], right=1))
    elif keyed:
        s.append(_p("The case records no officer's name for the tally sheets.", st.body))
    sourced = [u for u in r.units if u.source]
    if sourced:
        data = [["Unit", "Where its figures come from (not the re-tabulated statement)"]]
        data += [[_p(u.name, st.cell), _p(u.source, st.cell)] for u in sourced]
        s.append(Spacer(1, 4))
        s.append(_plain_table(data, [BODY_W * 0.25, BODY_W * 0.75]))
    resolved = [u for u in r.units if u.resolution]
    if resolved:
        data = [["Unit", "How the two entries' disagreement was resolved"]]
        data += [[_p(u.name, st.cell), _p(u.resolution, st.cell)] for u in resolved]
        s.append(Spacer(1, 4))
        s.append(_plain_table(data, [BODY_W * 0.25, BODY_W * 0.75]))
    elif r.double_entry and keyed:
        s.append(_p("The two entries of every keyed tally sheet agreed; no disagreement had to be "
                    "resolved.", st.body))
    return s


# --- results by unit: blocks of three lines ------------------------------------------------

UNIT_FONT, UNIT_BOLD, UNIT_SIZE = "RDCond", "RDCond-Bold", 7.0
ROW_H = 9.0
HEAD_SIZE = 7.0
KEEP_WITH_TOTAL = 2  # the total block never stands alone at the top of a page
MIN_BLOCKS_ON_PAGE = 2
LABELS = ("Canvass", "Recount", "Change")


@dataclass(frozen=True)
class _Block:
    rows: list[list[str]]  # each row: cells as text ("" for none)
    bold: list[int]  # columns set in bold on the change row (a changed figure)
    fallback: bool  # a name needs the fallback font


@dataclass(frozen=True)
class _GridSpec:
    widths: list[float]
    head: list[list[str]]  # per column, its header lines
    head_size: list[float]  # per column, its header font size
    head_h: float
    blocks: list[_Block]
    prefix: list[float]  # prefix[i] = height of blocks [0, i)
    total: _Block
    memo: dict[str, dict[Any, Any]]  # encoded strings, shared by the pages of a document


def _grid_columns(r: RecountReport, page_w: float) -> tuple[list[float], int]:
    extra = 5 if r.write_in_line else 4  # (write-ins,) total, over, under, ballots
    n = len(r.choices) + extra
    name_w = min(1.6 * inch, max(1.0 * inch, page_w * 0.18))
    label_w = 34.0
    num_w = (page_w - name_w - label_w) / n
    return [name_w, label_w] + [num_w] * n, n


def fits_portrait(r: RecountReport) -> bool:
    widths, _ = _grid_columns(r, BODY_W)
    return widths[2] >= 36


def _unit_values(u: Unit, r: RecountReport, side: int) -> list[int | None]:
    b: Ballots = u.canvass_ballots if side == 0 else u.recount_ballots
    votes = list(u.canvass if side == 0 else u.recount)
    total = sum(votes) + (b.write_ins or 0)
    out: list[int | None] = list(votes)
    if r.write_in_line:
        out.append(b.write_ins)
    out += [total, b.over, b.under, b.counted]
    return out


def _block(r: RecountReport, name_lines: list[str], canv: list[int | None],
           rec: list[int | None], fallback: bool) -> _Block:
    change = [_delta(a, b) for a, b in zip(canv, rec, strict=True)]
    rows = []
    for i in range(max(3, len(name_lines))):
        name = name_lines[i] if i < len(name_lines) else ""
        if i < 3:
            vals = (canv, rec, change)[i]
            cells = [_n(v) if i < 2 else _d(v) for v in vals]
            rows.append([name, LABELS[i], *cells])
        else:
            rows.append([name, "", *([""] * len(canv))])
    bold = [2 + j for j, d in enumerate(change) if d]
    return _Block(rows, bold, fallback)


def _grid_spec(r: RecountReport, page_w: float, batches: bool) -> _GridSpec:
    widths, n = _grid_columns(r, page_w)
    num_w = widths[2]
    heads = [("Batch" if batches else "Precinct"), ""]
    heads += [ch.name + (f" ({ch.party})" if ch.party else "") for ch in r.choices]
    if r.write_in_line:
        heads.append("Write-ins")
    heads += ["Total votes", "Over-votes", "Under-votes", "Ballots counted"]
    head_lines: list[list[str]] = []
    head_size: list[float] = []
    for i, h in enumerate(heads):
        room = widths[i] - 4
        vis = tx.visual(h)
        size = tx.fit_size(vis.split(), UNIT_BOLD, HEAD_SIZE, room) if i >= 2 else HEAD_SIZE
        head_lines.append(tx.wrap(vis, UNIT_BOLD, size, room) if vis else [""])
        head_size.append(size)
    head_h = max(len(lines) * (s + 1.5) for lines, s in zip(head_lines, head_size,
                                                           strict=True)) + 5
    room = widths[0] - 5
    blocks = []
    for u in r.units:
        vis = tx.visual(u.name)
        lines = ([vis] if stringWidth(vis, UNIT_FONT, UNIT_SIZE) <= room
                 and not tx.needs_fallback(vis) else tx.wrap(vis, UNIT_FONT, UNIT_SIZE, room))
        if u.covers:
            lines += tx.wrap(tx.visual("Covers " + ", ".join(u.covers)), UNIT_FONT,
                             UNIT_SIZE - 1, room)
        if u.source:
            lines += tx.wrap(tx.visual(u.source), UNIT_FONT, UNIT_SIZE - 1, room)
        blocks.append(_block(r, lines, _unit_values(u, r, 0), _unit_values(u, r, 1),
                             tx.needs_fallback(vis)))
    tc = list(r.canvass_totals())
    trc = list(r.recount_totals())
    cb, rb = r.canvass_ballots(), r.recount_ballots()
    canv: list[int | None] = list(tc)
    rec: list[int | None] = list(trc)
    if r.write_in_line:
        canv.append(cb.write_ins)
        rec.append(rb.write_ins)
    canv += [r.canvass_total_votes(), cb.over, cb.under, cb.counted]
    rec += [r.recount_total_votes(), rb.over, rb.under, rb.counted]
    total = _block(r, ["Total"], canv, rec, False)
    heights = [len(b.rows) * ROW_H for b in blocks]
    del num_w, n
    return _GridSpec(widths, head_lines, head_size, head_h, blocks,
                     [0.0, *accumulate(heights)], total, {})


class _UnitGrid(Flowable):  # type: ignore[misc]  # reportlab ships no types
    """The results by unit, drawn straight onto the canvas one page's blocks at a time.

    Every line has the same height, so the blocks that fit on a page are found by bisecting
    the running heights, and the header repeats on every page. (reportlab's Table measures
    and splits the whole remaining table again on every page, which is quadratic in rows.)
    """

    def __init__(self, spec: _GridSpec, start: int = 0) -> None:
        super().__init__()
        self._spec = spec
        self._start = start
        self._end = len(spec.blocks)
        self._with_total = True

    def _body_h(self, a: int, b: int, total: bool) -> float:
        s = self._spec
        return (s.prefix[b] - s.prefix[a]) + (len(s.total.rows) * ROW_H if total else 0)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = sum(self._spec.widths)
        self.height = self._spec.head_h + self._body_h(self._start, self._end,
                                                        self._with_total)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        s, a = self._spec, self._start
        room = availHeight - s.head_h + 1e-6
        fit = bisect_right(s.prefix, s.prefix[a] + room) - 1 - a
        left = len(s.blocks) - a
        fit = min(fit, left - KEEP_WITH_TOTAL)
        if fit < MIN_BLOCKS_ON_PAGE:
            return []
        head = _UnitGrid(s, a)
        head._end, head._with_total = a + fit, False
        return [head, _UnitGrid(s, a + fit)]

    def draw(self) -> None:
        c = self.canv
        s = self._spec
        widths = s.widths
        xs = [0.0, *accumulate(widths)]
        top = self.height
        # header
        c.setFillColor(HEAD_BG)
        c.rect(0, top - s.head_h, xs[-1], s.head_h, stroke=0, fill=1)
        c.setFillColor(colors.black)
        for i, lines in enumerate(s.head):
            size = s.head_size[i]
            lead = size + 1.5
            y = top - 3 - size
            y -= (s.head_h - 5 - len(lines) * lead) / 2
            for line in lines:
                if i < 2:
                    _draw_text(c, xs[i] + 3, y, line, UNIT_BOLD, size)
                else:
                    _draw_text(c, (xs[i] + xs[i + 1]) / 2, y, line, UNIT_BOLD, size,
                               "center")
                y -= lead
        y = top - s.head_h
        blocks = s.blocks[self._start:self._end]
        if self._with_total:
            blocks = [*blocks, s.total]
        # shaded change rows, then the text, then the rules
        c.setFillColor(CHANGE_BG)
        yy = y
        for b in blocks:
            c.rect(xs[1], yy - 3 * ROW_H, xs[-1] - xs[1], ROW_H, stroke=0, fill=1)
            yy -= len(b.rows) * ROW_H
        c.setFillColor(colors.black)
        t = c.beginText()
        out = _TextWriter(t, s.memo)
        rules: list[tuple[float, float, float, float]] = []
        heavy: list[tuple[float, float, float, float]] = []
        for k, b in enumerate(blocks):
            is_total = self._with_total and k == len(blocks) - 1
            for i, row in enumerate(b.rows):
                base = y - ROW_H + 2.4
                ystr = fp_str(base)  # one row's cells share their baseline
                font = UNIT_BOLD if is_total else UNIT_FONT
                name = row[0]
                if name and b.fallback:
                    x = 3.0
                    for fb, piece in tx.runs(name):
                        f = tx.FALLBACK if fb else font
                        out.put(f, x, base, piece)
                        x += tx.width(piece, f, UNIT_SIZE)
                elif name:
                    out.put(font, 3, base, name)
                if row[1]:
                    out.put(font, xs[1] + 3, base, row[1])
                for j in range(2, len(row)):
                    cell = row[j]
                    if cell:
                        f = UNIT_BOLD if (is_total or (i == 2 and j in b.bold)) else font
                        out.put_right(f, j, xs[j + 1] - 3, ystr, cell)
                y -= ROW_H
                if i < len(b.rows) - 1:
                    rules.append((xs[1], y, xs[-1], y))
            heavy.append((0, y, xs[-1], y))
        c.drawText(t)
        bottom = y
        c.setLineWidth(0.25)
        c.setStrokeColor(GRID)
        c.lines(rules + [(x, top, x, bottom) for x in xs[1:-1]])
        c.setLineWidth(0.6)
        c.setStrokeColor(colors.black)
        c.lines([*heavy, (0, top, xs[-1], top), (0, top - s.head_h, xs[-1], top - s.head_h),
                 (0, top, 0, bottom), (xs[-1], top, xs[-1], bottom),
                 (xs[2], top, xs[2], bottom)])


class _TextWriter:
    """Many short strings into one text object, each encoded once.

    A 3,000-unit grid draws about 100,000 cells, mostly the same few hundred numbers;
    reportlab's ``textOut`` encodes every string into the font's subsets again and emits a
    font change after every ``setFont``. Here each distinct string is split into its subset
    pieces once (by reportlab's own ``splitString``, which also records the glyphs for
    embedding), and a font operator is written only when the font or subset changes.
    """

    def __init__(self, t: Any, memo: dict[str, dict[Any, Any]]) -> None:
        self._t = t
        self._canv = t._canvas
        self._active: tuple[str, int] | None = None
        # shared by every page of one document (the subsets belong to the document)
        self._pieces: dict[tuple[str, str], list[tuple[int, str]]] = memo.setdefault(
            "pieces", {})
        self._widths: dict[tuple[str, str], float] = memo.setdefault("widths", {})
        self._names: dict[tuple[str, int], str] = memo.setdefault("names", {})
        self._right: dict[tuple[str, str, int], str] = memo.setdefault("right", {})
        self._tf = f"{fp_str(UNIT_SIZE)} Tf {fp_str(UNIT_SIZE * 1.2)} TL"

    def width(self, text: str, font: str) -> float:
        key = (text, font)
        got = self._widths.get(key)
        if got is None:
            got = self._widths[key] = stringWidth(text, font, UNIT_SIZE)
        return got

    def put_right(self, font: str, column: int, right: float, ystr: str, text: str) -> None:
        """``text`` ending at ``right`` on the baseline ``ystr`` (already formatted): the
        same numbers recur in a column, so their positions are formatted once."""
        key = (font, text, column)
        xstr = self._right.get(key)
        if xstr is None:
            xstr = self._right[key] = fp_str(right - self.width(text, font))
        self._put(font, f"1 0 0 1 {xstr} {ystr} Tm", text)

    def put(self, font: str, x: float, y: float, text: str) -> None:
        self._put(font, f"1 0 0 1 {fp_str(x, y)} Tm", text)

    def _put(self, font: str, tm: str, text: str) -> None:
        code = self._t._code
        code.append(tm)
        key = (font, text)
        pieces = self._pieces.get(key)
        if pieces is None:
            f = pdfmetrics.getFont(font)
            doc = self._canv._doc
            pieces = self._pieces[key] = [
                (subset, f"({self._canv._escape(raw)}) Tj")
                for subset, raw in f.splitString(text, doc)]
        for subset, tj in pieces:
            if self._active != (font, subset):
                name = self._names.get((font, subset))
                if name is None:
                    name = self._names[(font, subset)] = pdfmetrics.getFont(
                        font).getSubsetInternalName(subset, self._canv._doc)
                code.append(f"{name} {self._tf}")
                self._active = (font, subset)
            code.append(tj)


def _units_section(r: RecountReport, st: _Styles, unit_word: str,
                   batches: bool) -> list[Flowable]:
    portrait = fits_portrait(r)
    page_w = BODY_W if portrait else LAND_W
    heading = [_p(f"2.4 Results by {unit_word}", st.h3),
               _p("For each unit: the official canvass, the recount (with any absentee "
                  "ballots accepted on reexamination), and the change (recount minus "
                  "canvass), for every choice, the write-ins, the total votes, the over- and "
                  "under-votes and the ballots counted. A changed figure is in bold."
                  + (" Every unit's figures are loaded from the re-tabulated statement above "
                     "unless its source is named under it." if r.loads else ""),
                  st.small)]
    if not r.units:
        return [*heading, _p("No units are recorded.", st.body)]
    grid = _UnitGrid(_grid_spec(r, page_w, batches))
    if portrait:
        return [CondPageBreak(2.2 * inch), *heading, grid]
    return [NextPageTemplate("land"), PageBreak(), *heading, grid,
            NextPageTemplate("page"), PageBreak()]


# --- absentee, witnesses, costs, board ---------------------------------------------------

def _check_words(checks: tuple[tuple[str, bool | None], ...]) -> str:
    if not checks:
        return "No checks recorded"
    word = {True: "met", False: "NOT MET", None: "not checked"}
    return "; ".join(f"{label}: {word[ok]}" for label, ok in checks)


def _absentee_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("3. Reexamination of unopened absentee ballots", st.h2)]
    a = r.absentee
    if a is None:
        s.append(_p("No unopened absentee ballots were found to reexamine "
                    "(Utah Code 20A-4-401(1)(e)(iii), (2)(d)(iii)).", st.body))
        return s
    s.append(_p(f"Envelopes reexamined: {_n(a.reexamined)}. Accepted: {_n(a.accepted)} (their "
                f"votes are included in the recount above, in the unit of their precinct). "
                f"Still rejected: {_n(a.rejected_total)}.", st.body))
    if a.envelopes:
        data: list[list[Any]] = [["Envelope", "Precinct", "Original reason", "Checks made",
                                  "Decision", "Decided by, when", "Joined"]]
        for e in a.envelopes:
            when = f", {format_datetime(e.decided_at)}" if e.decided_at else ""
            data.append([_p(e.envelope_id, st.cell), _p(e.precinct, st.cell),
                         _p(e.original_reason, st.cell), _p(_check_words(e.checks), st.cell),
                         _p(e.decision, st.cell), _p((e.decided_by or "—") + when, st.cell),
                         _p(e.joined or "—", st.cell)])
        w = BODY_W
        s.append(_plain_table(data, [w * 0.11, w * 0.12, w * 0.16, w * 0.22, w * 0.14,
                                     w * 0.14, w * 0.11]))
    return s


def _witness_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("4. Witnesses designated and attending", st.h2)]
    if not r.witnesses:
        s.append(_p("No witnesses were designated (Utah Code 20A-4-401(2)(e)).", st.body))
        return s
    data: list[list[Any]] = [["Witness", "Designated by", "Designated", "Attended"]]
    for w in r.witnesses:
        att = "Attendance not recorded"
        if w.attended_from is not None:
            att = "From " + format_datetime(w.attended_from)
            if w.attended_to is not None:
                att += " to " + format_datetime(w.attended_to)
        data.append([_p(w.name, st.cell), _p(w.designated_by, st.cell),
                     _p(format_datetime(w.designated_at) if w.designated_at else "—", st.cell),
                     _p(att, st.cell)])
    s.append(_plain_table(data, [BODY_W * 0.25, BODY_W * 0.25, BODY_W * 0.2, BODY_W * 0.3]))
    return s


def _cost_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("5. The costs of the recount", st.h2)]
    cost = r.costs
    if cost is None:
        s.append(_p("No costs are recorded.", st.body))
        return s
    s.append(_p(f"Paid by: {cost.payer} ({cost.basis}).", st.body))
    for a in cost.assumptions:
        s.append(_p("Assumption: " + a, st.small))
    if cost.items:
        data: list[list[Any]] = [["Item", "Amount"]]
        data += [[_p(i.description, st.cell), format_cents(i.amount_cents)] for i in cost.items]
        data.append(["Total", format_cents(cost.total_cents)])
        s.append(_plain_table(data, [BODY_W - 1.4 * inch, 1.4 * inch], right=1,
                              bold_last=True))
    else:
        s.append(_p("No cost items have been recorded.", st.body))
    return s


def _board_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    b = r.board
    s: list[Flowable] = [_p("6. The board of canvassers", st.h2)]
    met = []
    if b.convened_at is not None:
        met.append(f"convened on {format_datetime(b.convened_at)}")
    if b.place:
        met.append(f"at {b.place}")
    s.append(_p(f"The {b.title} " + (" ".join(met) if met else "met") +
                " to canvass the returns of the recount (Utah Code 20A-4-401(4)(a),(b)).",
                st.body))
    data: list[list[Any]] = [["Member", "Title", "Attendance"]]
    data += [[_p(m.name, st.cell), _p(m.title, st.cell), "Present" if m.present else "Absent"]
             for m in b.members]
    s.append(_plain_table(data, [BODY_W * 0.4, BODY_W * 0.42, BODY_W * 0.18]))
    s.append(Spacer(1, 3))
    s.append(_p(quorum_statement(b), st.body))
    return s


def _declaration_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [_p("7. Declaration of the result", st.h2)]
    s.append(_p(declaration_statement(r), st.body))
    d = r.declaration
    if d.lot is not None and not r.portion:
        s.append(_p(lot_statement(d, d.lot), st.body))
        s.append(_p("Meeting: " + (d.lot_meeting or "not recorded"), st.body))
        s.append(_p("Notice to the tied candidates: " + (
            d.lot_notice or "NOT RECORDED in the case (20A-1-304 lets each tied candidate "
            "attend or send a representative)"), st.body))
        s.append(_p(lot_deadline_statement(d), st.body))
    if not r.portion:
        s.append(_p(board_declaration_statement(r), st.body))
    return s


def _chronology_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    chron = chronology(r)
    s: list[Flowable] = [_p("8. The order of events, as checked", st.h2)]
    if not chron.steps:
        s.append(_p("No dates to check.", st.body))
        return s
    data: list[list[Any]] = [["Rule", "Kept", "Basis"]]
    for step in chron.steps:
        data.append([_p(step.text.removeprefix("NOT KEPT: "), st.cell),
                     "Yes" if step.ok else "NO", _p(step.basis, st.cell)])
    s.append(_plain_table(data, [BODY_W * 0.62, BODY_W * 0.1, BODY_W * 0.28]))
    s.append(_p("Every date above is in order." if chron.ok else
                "The dates above are NOT in order: this report cannot be the official result "
                "until the record is corrected.", st.body))
    return s


def _certification_section(r: RecountReport, st: _Styles) -> list[Flowable]:
    return [_p("9. Official result and certification", st.h2),
            _p(official_result_statement(r), st.body),
            _p(certification_statement(r), st.body),
            _p("The signatures are on a sheet of their own at the end of this report.",
               st.small)]


# --- signatures ---------------------------------------------------------------------------

def _signature_block(name: str, role: str, st: _Styles, r: RecountReport,
                     width: float = BODY_W) -> Table:
    signing = r.printing.signing
    signed = signing is not None and any(x.name == name for x in signing.signers)
    if signing is not None and signed:
        sig: Any = _p(conformed_signature(name, signing), st.body)
        day: Any = format_date(signing.signed_at.date())
    elif signing is not None:
        sig, day = _p("(did not sign)", st.small), "—"
    else:
        sig, day = "_" * 46, "_" * 18
    data = [
        [Paragraph("Printed name", st.small), _p(name, st.body),
         Paragraph("Title", st.small), _p(role, st.body)],
        [Paragraph("Signature", st.small), sig, Paragraph("Date", st.small), day],
    ]
    t = Table(data, colWidths=[0.95 * inch, 3.2 * inch, 0.45 * inch, width - 4.6 * inch],
              hAlign="LEFT")
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "RDSans", 9),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 1), (-1, 1), 22),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("BOX", (0, 0), (-1, -1), 0.4, GRID),
    ]))
    t.keepWithNext = 0
    return t


def _signature_blocks(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = []
    # A Table would split between its two lines at the foot of a page: each block is
    # kept whole, and a heading goes with the first block under it.
    heading = _p(f"Members of the {r.board.title}", st.h3)
    for i, m in enumerate(r.board.present):
        block = [_signature_block(m.name, m.title, st, r), Spacer(1, 7)]
        s.append(_Whole([heading, *block] if i == 0 else block))
    s.append(_Whole([_p("Election officer", st.h3),
                     _signature_block(r.officer.name, r.officer.title, st, r)]))
    return s


class _Whole(Flowable):  # type: ignore[misc]  # reportlab ships no types
    """Flowables that are never split: moved whole to the next page when they do not fit."""

    def __init__(self, content: list[Flowable]) -> None:
        super().__init__()
        self._content = content
        self._sizes: list[tuple[float, float]] = []

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._sizes = [f.wrapOn(self.canv, availWidth, 1e6) for f in self._content]
        self.width = availWidth
        self.height = sum(h + f.getSpaceBefore() + f.getSpaceAfter()
                          for f, (_, h) in zip(self._content, self._sizes, strict=True))
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return []

    def draw(self) -> None:
        y = self.height
        for f, (_, h) in zip(self._content, self._sizes, strict=True):
            y -= f.getSpaceBefore() + h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


def _signature_page(r: RecountReport, st: _Styles, fp: str, code: str) -> list[Flowable]:
    s: list[Flowable] = [
        _p("Signatures", st.h1),
        _p(f"{report_title(r)} · {r.contest.label()} · {r.election.name}", st.body),
        _p(certification_statement(r), st.body),
        _p(f"Report fingerprint {code} (SHA-256 {fp}). The same fingerprint is printed at the "
           "foot of every page of this report.", st.small),
    ]
    signing = r.printing.signing
    if signing is not None:
        s.append(_p("Conformed copy: the signatures below are those recorded in the case on "
                    f"{format_datetime(signing.signed_at)}"
                    + (f" at {signing.place}" if signing.place else "") + ".", st.small))
    s.append(Spacer(1, 6))
    return s + _signature_blocks(r, st)


def _lieutenant_governor_report(r: RecountReport, st: _Styles, code: str) -> list[Flowable]:
    c = r.contest
    is_prop = c.kind is ContestKind.PROPOSITION
    what = "proposition" if is_prop else "race"
    s: list[Flowable] = [
        _p("Report to the Lieutenant Governor", st.h1),
        _p(f"{c.label()} — {r.election.name}", st.h2),
        _p(f"Separate report of the {r.board.title} on the recount of "
           f"{r.election.jurisdiction}'s portion of a {c.scope.label.lower()} {what}, prepared "
           f"and transmitted under Utah Code 20A-4-401(4)(c) and 20A-4-304(7). The board "
           f"certifies {r.election.jurisdiction}'s canvass and recount figures below; the "
           f"result of the whole {what} is declared on the figures of every county.", st.body),
        _kv_table([("Report dated", format_datetime(r.report_date())),
                   ("Recount", f"{format_date(r.started)} to {format_date(r.completed)}"),
                   ("Board convened", format_datetime(r.board.convened_at)
                    if r.board.convened_at else "not recorded"),
                   ("Fingerprint", code)], st),
        Spacer(1, 4),
        _totals_table(r, st),
    ]
    if is_prop and c.scope is Scope.MULTICOUNTY:
        s.append(_p("Assumption: " + LG_MULTICOUNTY_PROPOSITION_ASSUMPTION, st.small))
    a = r.absentee
    s.append(_p(f"Absentee envelopes reexamined: {_n(a.reexamined if a else 0)}; accepted: "
                f"{_n(a.accepted if a else 0)}; still rejected: "
                f"{_n(a.rejected_total if a else 0)}.", st.body))
    s.append(_p(f"Signed by the members of the {r.board.title} present and the election "
                "officer (20A-4-401(4)(b)(ii)).", st.small))
    return s + _signature_blocks(r, st)


def _cost_statement(r: RecountReport, st: _Styles) -> list[Flowable]:
    s: list[Flowable] = [
        _p("Statement of the costs of the recount", st.h1),
        _p(f"{r.contest.label()} — {r.election.name}", st.h2),
    ]
    cost = r.costs
    if cost is None or not cost.items:
        s.append(_p("The voters who requested this recount pay its costs (Utah Code "
                    "20A-4-401(2)(f)); no costs have been recorded yet.", st.body))
        return s
    s.append(_p(f"Payable by: {cost.payer} ({cost.basis}).", st.body))
    data: list[list[Any]] = [["Item", "Amount"]]
    data += [[_p(i.description, st.cell), format_cents(i.amount_cents)] for i in cost.items]
    data.append(["Total", format_cents(cost.total_cents)])
    s += [_plain_table(data, [BODY_W - 1.4 * inch, 1.4 * inch], right=1, bold_last=True),
          Spacer(1, 6)]
    if r.requests:
        s.append(_p("Requested by: " + "; ".join(q.requester for q in r.requests), st.body))
        for q in r.requests:
            if q.voters:
                s.append(_p("; ".join(q.voters), st.small))
    return s


def _appendix(r: RecountReport, st: _Styles) -> list[Flowable]:
    rows = r.printing.appendix or ()
    s: list[Flowable] = [_p("Appendix — audit log of this contest", st.h1),
                         _p("Every recorded action on this contest, in order, from the case "
                            "file's hash-chained audit log. Times are Mountain Time (Utah); "
                            "“By” is the person of the case's roster who acted (the "
                            "workstation's login is kept in the log beside it).", st.small)]
    data: list[list[Any]] = [["#", "When", "By", "Action", "Details"]]
    for a in rows:
        data.append([str(a.seq), a.at, _p(a.actor, st.cell), _p(a.action, st.cell),
                     _p(a.summary, st.cell)])
    if not rows:
        data.append(["", "", "", "No entries.", ""])
    s.append(_plain_table(data, [0.45 * inch, 1.05 * inch, 0.95 * inch, 1.4 * inch,
                                 BODY_W - 3.85 * inch]))
    return s
