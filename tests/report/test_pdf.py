"""The report PDF: every item readable back with its real numbers, repeatable bytes, layout."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import date, datetime

import pypdf
import pypdfium2 as pdfium
import pytest
from report_fixtures import house_69, proposition, tie_with_lot

from recount_desk.core.model import Scope
from recount_desk.core.report_model import (
    BoardMember,
    Printing,
    RecountReport,
    ReportChoice,
    Unit,
    fingerprint,
    short_code,
)
from recount_desk.core.rules import Edition
from recount_desk.paths import resource
from recount_desk.report.pdf import BLANK_PAGE_TEXT, render

FONTS = resource("fonts")


def pdf_of(report: RecountReport) -> bytes:
    return render(report, FONTS)


def pages_text(blob: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(blob))
    return [" ".join((p.extract_text() or "").split()) for p in reader.pages]


@pytest.fixture(scope="module")
def house_pdf() -> bytes:
    return pdf_of(house_69())


@pytest.fixture(scope="module")
def house_text(house_pdf: bytes) -> list[str]:
    return pages_text(house_pdf)


def test_title_election_contest_and_edition(house_text: list[str]) -> None:
    first = house_text[0]
    assert "Official Recount Report — Board of Grand County Canvassers" in first
    for item in ("2018 General Election", "November 6, 2018", "Regular general election",
                 "Grand County", "State House, District 69", "Race between candidates, 1 seat",
                 "Multicounty", "20A-4-401 as amended through 2023 (before 2024 H.B. 515)",
                 "December 4, 2018, 10:00 a.m."):
        assert item in first, item


def test_request_who_when_with_whom_and_basis(house_text: list[str]) -> None:
    first = house_text[0]
    assert "Requested by Christine Watkins" in first
    assert "November 26, 2018, 2:30 p.m." in first
    assert "Filed with the lieutenant governor" in first
    assert "20A-4-401(1)(b)" in first


def test_recount_method_units_totals_and_rejected(house_text: list[str]) -> None:
    text = " ".join(house_text)
    assert "Ballots re-tabulated on the election's tabulating equipment" in text
    assert "double entry" in text
    assert "November 28, 2018" in text and "November 30, 2018" in text
    assert "8 precincts (2 choices)" in text
    assert "Ballots rejected 14" in text
    assert "Christine Watkins Rep 841 842 +1" in text
    assert "Tim Glenn Dem 843 843 0" in text
    assert "Total 1,684 1,685 +1" in text


@pytest.mark.parametrize(("row"), [
    "02 Moab 2:69 397 397 0 436 437 +1",
    "11 Green River 7:69 10 11 +1 1 1 0",
    "13 Castle Valley 8:69 90 90 0 163 162 -1",
    "17 Moab 11:69 254 254 0 194 194 0",
], ids=["moab2", "green-river", "castle-valley", "moab11"])
def test_per_unit_canvass_recount_and_difference(house_text: list[str], row: str) -> None:
    assert row in " ".join(house_text)


def test_absentee_witnesses_board_and_quorum(house_text: list[str]) -> None:
    text = " ".join(house_text)
    assert "Envelopes reexamined: 5. Accepted: 2" in text
    assert "Still rejected: 3" in text
    assert "Rejected as defective 2" in text
    assert "Rejected as not a registered voter 1" in text
    assert "Sam Ortega Christine Watkins" in text and "Ann Lee Tim Glenn" in text
    assert "Curtis Wells Commissioner Absent" in text
    assert "A quorum is present: 5 of 7 members present" in text


def test_declaration_official_result_and_certification(house_text: list[str]) -> None:
    text = " ".join(house_text)
    assert "the board declares that Tim Glenn is elected to State House, District 69" in text
    assert ("this canvassers' report is the official result of the race State House, "
            "District 69") in text
    assert "certify that this report is accurate and complete" in text


def test_signature_page_is_a_sheet_of_its_own(house_text: list[str]) -> None:
    sig = next(i for i, t in enumerate(house_text) if t.startswith("Signatures"))
    assert sig % 2 == 0  # zero-based even = a front (odd-numbered) page
    assert BLANK_PAGE_TEXT in house_text[sig + 1]
    assert BLANK_PAGE_TEXT not in house_text[sig - 1]
    page = house_text[sig]
    for name in ("Mary McGann", "Jaylyn Hawks", "Evan Clapper", "Rory Paxman", "Terry Morse",
                 "Diana Carroll", "Grand County Clerk/Auditor"):
        assert name in page
    assert "Curtis Wells" not in page  # absent members do not sign
    assert page.count("Printed name") == 6
    assert page.count("Signature") >= 6 and page.count("Date") == 6


def test_page_x_of_y_and_fingerprint_on_every_page(house_text: list[str]) -> None:
    fp = fingerprint(house_69())
    code = short_code(fp)
    n = len(house_text)
    for i, t in enumerate(house_text, start=1):
        assert f"Page {i} of {n}" in t
        assert f"Fingerprint {code}" in t
        assert fp in t


def test_fingerprint_in_metadata(house_pdf: bytes) -> None:
    meta = pypdf.PdfReader(io.BytesIO(house_pdf)).metadata
    fp = fingerprint(house_69())
    assert fp in meta.subject and f"fingerprint={fp}" in meta.get("/Keywords")
    assert meta.title == "Official Recount Report — Board of Grand County Canvassers"
    assert meta.get("/CreationDate") == "D:20181204100000"


def test_same_data_gives_identical_bytes(house_pdf: bytes) -> None:
    assert pdf_of(house_69()) == house_pdf


def test_different_data_gives_different_bytes(house_pdf: bytes) -> None:
    r = house_69()
    changed = dataclasses.replace(r, ballots_rejected=15)
    assert pdf_of(changed) != house_pdf


def test_lieutenant_governor_report_for_multicounty_race(house_text: list[str]) -> None:
    lg = [t for t in house_text if t.startswith("Report to the Lieutenant Governor")]
    assert len(lg) == 1
    assert "20A-4-401(4)(c)" in lg[0] and "20A-4-304(7)" in lg[0]
    assert "Christine Watkins Rep 842" in lg[0] and "Tim Glenn Dem 843" in lg[0]
    assert "Total 1,685" in lg[0]


def test_no_lieutenant_governor_report_for_county_race() -> None:
    r = house_69()
    r = dataclasses.replace(r, contest=dataclasses.replace(r.contest, scope=Scope.COUNTY))
    assert "Report to the Lieutenant Governor" not in " ".join(pages_text(pdf_of(r)))


def test_statewide_proposition_has_for_and_against_to_lieutenant_governor() -> None:
    text = " ".join(pages_text(pdf_of(proposition(scope=Scope.STATEWIDE))))
    assert "Report to the Lieutenant Governor" in text
    assert "For / against" in text and "For 551" in text and "Against 550" in text


def test_cost_statement_for_voter_requested_proposition_2019() -> None:
    text = " ".join(pages_text(pdf_of(proposition())))
    assert "Statement of the costs of the recount" in text
    assert "Staff: 12 hours × $25.00 $300.00" in text
    assert "Total $425.50" in text
    assert "Voter 10" in text
    assert "proposition Proposition 1: Moab Pool Bond passed" in text


@pytest.mark.parametrize("report", [
    pytest.param(lambda: proposition(Edition.Y2024), id="2024-edition"),
    pytest.param(lambda: proposition(requested=False), id="automatic"),
    pytest.param(house_69, id="race"),
])
def test_no_cost_statement_otherwise(report: object) -> None:
    text = " ".join(pages_text(pdf_of(report())))  # type: ignore[operator]
    assert "Statement of the costs" not in text


def test_automatic_recount_is_stated() -> None:
    text = " ".join(pages_text(pdf_of(proposition(Edition.Y2024, requested=False))))
    assert "Automatic recount: Tie vote" in text


def test_lot_how_by_whom_when_where() -> None:
    text = " ".join(pages_text(pdf_of(tie_with_lot())))
    assert ("The tie between Christine Watkins and Tim Glenn was decided by lot under Utah "
            "Code 20A-1-304: a name drawn from a covered box, drawn by Diana Carroll, county "
            "clerk on December 7, 2018, 11:00 a.m. at Grand County Council Chambers") in text


def test_reprint_is_marked_on_every_page() -> None:
    r = dataclasses.replace(house_69(), printing=Printing(
        2, datetime(2019, 1, 3, 15, 5), None, date(2018, 12, 4), ("Mary McGann",)))
    text = pages_text(pdf_of(r))
    assert all("Reprint 2 — generated at January 3, 2019, 3:05 p.m." in t for t in text)
    assert "The original was signed on December 4, 2018 by Mary McGann" in text[0]


NASTY = [
    "Smith & <Jones> \"O'Brien\"",
    "José Ñúñez-Çelik Øster Łukasz Świętochowski",
    "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessenschafe"
    "warenwohlgepflegeundsorgfaltigkeitbeschutzenvorangreifendurchihrraubgierigfeinde",
    "דוד כהן",
    "محمد العلي",
]


def test_markup_accents_long_and_rtl_names_render_and_appear() -> None:
    r = house_69()
    r = dataclasses.replace(
        r, choices=(ReportChoice(NASTY[0], "<Ind>"), ReportChoice(NASTY[1], "A&B")),
        units=(Unit(NASTY[2], (1, 2), (1, 2)), Unit(NASTY[3], (3, 4), (3, 5)),
               Unit(NASTY[4], (0, 0), (0, 0))),
        board=dataclasses.replace(r.board, members=(
            BoardMember(NASTY[1], "Chair & Commissioner <at large>"),
            BoardMember(NASTY[3], "Commissioner"), BoardMember("X " * 80, "Commissioner"))),
        declaration=dataclasses.replace(r.declaration, winners=(NASTY[0],)))
    text = " ".join(pages_text(pdf_of(r)))
    compact = text.replace(" ", "")
    assert "Smith & <Jones>" in text and "<Ind>" in text and "A&B" in text
    assert "Chair & Commissioner <at large>" in text
    assert NASTY[1] in text
    assert NASTY[2] in compact  # wrapped, not lost
    for rtl in NASTY[3:]:
        # Drawn in logical order (reportlab reorders only with the optional rlbidi);
        # pypdf's extraction reverses right-to-left runs, so accept either direction.
        for word in rtl.split():
            assert word in text or word[::-1] in text


def wide(units: int, choices: int) -> RecountReport:
    r = house_69()
    names = tuple(ReportChoice(f"Candidate {chr(65 + i)} Longname", "Party") for i in
                  range(choices))
    us = tuple(Unit(f"Precinct {i:04d}", tuple((i * 7 + j) % 500 for j in range(choices)),
                    tuple((i * 7 + j) % 500 + (1 if (i + j) % 97 == 0 else 0)
                          for j in range(choices))) for i in range(units))
    return dataclasses.replace(r, choices=names, units=us)


def test_wide_contest_splits_choices_and_repeats_headers() -> None:
    r = wide(300, 8)
    text = pages_text(pdf_of(r))
    joined = " ".join(text)
    assert "Choices 1–3 of 8" in joined and "Choices 4–6 of 8" in joined
    assert "Choices 7–8 of 8" in joined
    with_header = [t for t in text if "Precinct Candidate" in t and "Canvass Recount Change"
                   in t]
    assert len(with_header) >= 6  # every page of the unit tables repeats its header
    assert "Precinct 0299" in joined
    totals = r.recount_totals()
    assert f"{totals[7]:,}" in joined


def test_pages_render_to_letter_images_that_are_not_blank() -> None:
    doc = pdfium.PdfDocument(pdf_of(house_69()))
    assert len(doc) >= 4
    for i in (0, 2):
        w, h = doc[i].get_size()
        assert (round(w), round(h)) == (612, 792)
        img = doc[i].render(scale=1).to_pil().convert("L")
        assert img.size == (612, 792)
        dark = sum(img.histogram()[:128])
        assert dark > 2000, "page looks blank"
    doc.close()


def test_blank_back_page_is_nearly_empty() -> None:
    blob = pdf_of(house_69())
    text = pages_text(blob)
    blank = next(i for i, t in enumerate(text) if BLANK_PAGE_TEXT in t)
    doc = pdfium.PdfDocument(blob)
    def dark(i: int) -> int:
        return sum(doc[i].render(scale=1).to_pil().convert("L").histogram()[:128])
    blank_dark, first_dark = dark(blank), dark(0)
    doc.close()
    assert 0 < blank_dark < first_dark / 5


def test_short_code_appears_in_text_as_groups() -> None:
    text = " ".join(pages_text(pdf_of(house_69())))
    assert re.search(r"Fingerprint [A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}", text)
