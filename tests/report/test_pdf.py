"""The report PDF, variant by variant: every item read back with its real numbers, the layout
rules (no heading at the foot of a page, no signature block split), repeatable bytes."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable
from datetime import date, datetime

import pypdf
import pytest
from pdf_reading import page_lines, pages_text, pdf_of
from report_fixtures import (
    county_race,
    house_69,
    large_board,
    proposition,
    signed,
    two_seats_with_lot,
    wide,
)

from recount_desk.core.model import Scope
from recount_desk.core.recount import BoardKind, BoardMember
from recount_desk.core.report_model import (
    Board,
    RecountReport,
    ReportChoice,
    Unit,
    fingerprint,
    short_code,
)
from recount_desk.core.rules import Edition
from recount_desk.report.pdf import DRAFT_MARK

VARIANTS: dict[str, Callable[[], RecountReport]] = {
    "single-seat": county_race,
    "multi-seat-lot": two_seats_with_lot,
    "proposition": proposition,
    "county-portion": house_69,
    "large-board": large_board,
    "wide-1500x7": lambda: wide(1500, 7),
}
_cache: dict[str, tuple[RecountReport, bytes, list[str]]] = {}


def variant(name: str) -> tuple[RecountReport, bytes, list[str]]:
    if name not in _cache:
        r = VARIANTS[name]()
        blob = pdf_of(r)
        _cache[name] = (r, blob, pages_text(blob))
    return _cache[name]


def joined(name: str) -> str:
    return " ".join(variant(name)[2])


def _n(v: int | None) -> str:
    return "—" if v is None else f"{v:,}"


def _d(v: int | None) -> str:
    return "—" if v is None else ("0" if v == 0 else f"{v:+,}")


def unit_lines(r: RecountReport, u: Unit) -> tuple[str, str, str]:
    """The three lines a unit has in the results by precinct, as the text reads back."""
    def side(votes: tuple[int, ...], b: object) -> list[int | None]:
        out: list[int | None] = list(votes)
        if r.write_in_line:
            out.append(b.write_ins)  # type: ignore[attr-defined]
        out += [sum(votes) + (b.write_ins or 0), b.over, b.under, b.counted]  # type: ignore[attr-defined]
        return out
    c = side(u.canvass, u.canvass_ballots)
    v = side(u.recount, u.recount_ballots)
    ch = [None if a is None or b is None else b - a for a, b in zip(c, v, strict=True)]
    return ("Canvass " + " ".join(_n(x) for x in c), "Recount " + " ".join(_n(x) for x in v),
            "Change " + " ".join(_d(x) for x in ch))


# --- every variant ----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_page_has_number_fingerprint_and_draft_mark(name: str) -> None:
    r, _, text = variant(name)
    code = short_code(fingerprint(r))
    for i, t in enumerate(text, start=1):
        assert f"Page {i} of {len(text)}" in t
        assert f"Fingerprint {code}" in t and fingerprint(r) in t
        assert DRAFT_MARK in t and "DRAFT — the signing is not recorded" in t
    assert text[0].startswith(f"Recount Report (DRAFT) — {r.board.title}")
    assert "Official Recount Report" not in " ".join(text)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_unit_has_canvass_recount_and_change_for_every_line(name: str) -> None:
    r, _, _ = variant(name)
    text = joined(name)
    units = r.units if len(r.units) < 50 else r.units[::97] + r.units[-3:]
    for u in units:
        canvass, recount, change = unit_lines(r, u)
        assert f"{u.name} {canvass}" in text, u.name
        assert recount in text and change in text


@pytest.mark.parametrize("name", list(VARIANTS))
def test_totals_ballot_accounting_and_statutory_total(name: str) -> None:
    r, _, _ = variant(name)
    text = joined(name)
    for ch, c, v in zip(r.choices, r.canvass_totals(), r.recount_totals(), strict=True):
        party = f" {ch.party}" if ch.party else ""
        assert f"{ch.name}{party} {c:,} {v:,} {_d(v - c)}" in text
    word = ("Total votes cast for and against" if r.contest.kind.value == "proposition"
            else "Total votes cast for all candidates (write-ins included)")
    ct, rt = r.canvass_total_votes(), r.recount_total_votes()
    assert f"{word} {ct:,} {rt:,} {_d(rt - ct)}" in text
    cb, rb = r.canvass_ballots(), r.recount_ballots()
    assert f"Over-votes {_n(cb.over)} {_n(rb.over)}" in text
    assert f"Under-votes {_n(cb.under)} {_n(rb.under)}" in text
    assert f"Ballots counted {_n(cb.counted)} {_n(rb.counted)}" in text
    if r.write_in_line:
        assert f"Write-ins (not listed as choices) {_n(cb.write_ins)} {_n(rb.write_ins)}" in text


@pytest.mark.parametrize("name", list(VARIANTS))
def test_changed_units_are_listed_with_their_explanation(name: str) -> None:
    r, _, _ = variant(name)
    text = joined(name)
    changed = r.changed_units()
    assert changed
    for u in changed[:20]:
        assert u.name in text
        if u.note:
            assert f"Variance note: {u.note}" in text
        if u.resolution:
            assert "Double entry: " + u.resolution in text
    for who in {w for u in r.units for w in u.entered_by}:
        assert re.search(re.escape(who) + r" [\d,]+", text)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_board_quorum_costs_chronology_and_certification(name: str) -> None:
    r, _, _ = variant(name)
    text = joined(name)
    for m in r.board.members:
        assert f"{m.name} {m.title} {'Present' if m.present else 'Absent'}" in text
    present = len(r.board.present)
    assert f"A quorum is present: {present} of {r.board.body_size} members present" in text
    assert r.costs is not None and f"Paid by: {r.costs.payer}" in text
    assert "8. The order of events, as checked" in text and "Every date above is in order" in text
    assert "certify that this report is accurate and complete" in text
    assert "Mountain Time (Utah)" in text


@pytest.mark.parametrize("name", list(VARIANTS))
def test_signature_sheet_names_every_member_present_and_the_officer(name: str) -> None:
    r, _, text = variant(name)
    sig = next(i for i, t in enumerate(text) if t.startswith("Signatures"))
    assert sig % 2 == 0  # zero-based even = a front (odd-numbered) page
    sheet = " ".join(t for t in text[sig:] if not t.startswith("Report to the Lieutenant"))
    for m in r.board.present:
        assert m.name in sheet
    assert r.officer.name in sheet
    absent = [m.name for m in r.board.members if not m.present]
    sig_pages = []
    for t in text[sig:]:
        if t.startswith("Report to the Lieutenant") or "Statement of the costs" in t:
            break
        sig_pages.append(t)
    assert not any(a in " ".join(sig_pages) for a in absent)  # absent members do not sign
    blocks = sum(t.count("Printed name") for t in sig_pages)
    assert blocks == len(r.board.present) + 1
    assert sum(t.count("Date") for t in sig_pages) == blocks


HEADINGS = re.compile(r"^(\d\.(\d )? ?[A-Z]|\d\.\d [A-Z]|Signatures$|Members of the |"
                      r"Election officer$|Report to the Lieutenant|Statement of the costs)")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_no_heading_is_the_last_line_of_a_page(name: str) -> None:
    _, blob, _ = variant(name)
    for number, lines in enumerate(page_lines(blob), start=1):
        if lines:
            assert not HEADINGS.match(lines[-1][1]), (number, lines[-1][1])


@pytest.mark.parametrize("name", list(VARIANTS))
def test_no_signature_block_spans_two_pages(name: str) -> None:
    _, blob, _ = variant(name)
    for number, lines in enumerate(page_lines(blob), start=1):
        names = sum(1 for _, t in lines if t.startswith("Printed name"))
        sigs = sum(1 for _, t in lines if t.startswith("Signature "))
        assert names == sigs, number
        if lines and lines[0][1].startswith("Signature "):
            pytest.fail(f"page {number} starts with the second line of a signature block")


# --- variant by variant ------------------------------------------------------------------

def test_single_seat_request_checks_failure_and_override_reason() -> None:
    text = joined("single-seat")
    assert "Requested by Christine Watkins, candidate" in text
    assert "Filed November 28, 2018, 4:30 p.m." in text
    assert ("Check: NOT MET Filed after the deadline, 5:00 p.m. on November 27, 2018 "
            "(20A-4-401(1)(d)(ii))") in text
    assert "Check: met A losing candidate" in text
    assert ("Accepted by override The election officer accepted the request although 1 "
            "check(s) failed. Reason recorded: The clerk's office was closed on November 27 "
            "by a snowstorm") in text


def test_single_seat_envelopes_every_one_with_checks_decision_and_unit() -> None:
    text = joined("single-seat")
    assert "Envelopes reexamined: 3. Accepted: 1" in text and "Still rejected: 2" in text
    assert ("GR-0417 11 Green River 7:69 Signature did not appear to match Affidavit complete "
            "and signed: met; Signature consistent with the record: met Accepted and counted "
            "Helen Strand, November 29, 2018, 10:05 a.m. 11 Green River 7:69") in text
    assert "GR-0522 17 Moab 11:69 Postmarked on election day Returned in time: NOT MET" in text
    assert "Rejected as defective; stays unopened" in text
    assert "1 absentee ballot(s) accepted on reexamination joined this precinct" in text
    assert "Absentee envelopes still rejected 2" in text


def test_single_seat_witnesses_designated_and_attending() -> None:
    text = joined("single-seat")
    assert ("Sam Ortega Christine Watkins November 28, 2018, 5:00 p.m. From November 29, 2018, "
            "9:00 a.m. to November 30, 2018, 3:00 p.m.") in text
    assert "Ann Lee Tim Glenn November 28, 2018, 5:30 p.m. Attendance not recorded" in text


def test_single_seat_declaration_with_date_by_whom_and_citations() -> None:
    text = joined("single-seat")
    assert ("On November 30, 2018, 4:00 p.m., the election officer, Diana Carroll, declared "
            "that, on the recount, Tim Glenn is elected to County Commission Seat A "
            "(20A-4-401(1)(e)(iv))") in text
    assert ("the board declares that Tim Glenn is elected to County Commission Seat A (Utah "
            "Code 20A-4-304(1)(a); 20A-4-401(4)(b)(i))") in text
    assert "this canvassers' report is the official result of the race" in text
    # The text applied, and that it is assumed for a 2018 election (the oldest text held
    # is the 2019 one): never a claim that it is the text in force that day.
    assert "Utah Code 20A-4-401 in its 2019–2023 text (before 2024 H.B. 515)" in text
    assert "ASSUMED: the 2019 text is applied to an election of 2018" in text
    assert "as in force for an election in" not in text
    assert "Report to the Lieutenant Governor" not in text
    assert "Paid by: Grand County (not the candidate who asked) (20A-4-401(3) (2013 text))" in text
    assert "Total $425.50" in text


def test_multi_seat_lot_with_witnesses_meeting_notice_and_deadline() -> None:
    text = joined("multi-seat-lot")
    assert "Race between candidates, 2 seats" in text
    assert ("The tie between Dana Lee and Marco Ortiz was decided by lot under Utah Code "
            "20A-1-304: a name drawn from a covered box, drawn by Diana Carroll, county clerk "
            "on November 29, 2024, 11:00 a.m. at Grand County Council Chambers before Sam "
            "Ortega and Ann Lee. Outcome: Marco Ortiz chosen by lot.") in text
    assert "Meeting: The election officer decide(s) the tie by lot at a public meeting" in text
    assert ("Notice to the tied candidates: Both tied candidates told by telephone and e-mail "
            "on November 26, 2024") in text
    assert "The deadline for the lot, December 2, 2024 (20A-1-304), was kept." in text
    assert "Avery Brooks and Marco Ortiz are elected" in text
    assert "(20A-4-401(1)(e)(v); 20A-4-304(1)(b); 20A-1-304)" in text
    assert ("lot drawn (November 29, 2024, 11:00 a.m.) after the recount canvass (November 25, "
            "2024, 10:00 a.m.)") in text
    assert "Automatic recount: Dana Lee and Marco Ortiz are tied" in text


def test_proposition_for_against_voters_and_cost_statement() -> None:
    text = joined("proposition")
    assert "Ballot proposition" in text and "Write-ins (not listed" not in text
    assert "Total votes cast for and against 1,100 1,101 +1" in text
    assert "the election officer, Diana Carroll, declared the proposition" in text
    assert "declares the proposition Proposition 1: Moab Pool Bond approved" in text
    assert "Voters (10) Voter 1; Voter 2" in text
    assert "Statement of the costs of the recount" in text
    assert "Staff: 12 hours × $25.00 $300.00" in text and "Total $425.50" in text
    assert "Payable by: The voters who requested the recount (20A-4-401(2)(f))" in text


def test_county_portion_certifies_figures_and_declares_no_winner() -> None:
    r, _, text = variant("county-portion")
    body = " ".join(text)
    assert "this report covers Grand County's portion of the multicounty contest" in body
    assert ("The board declares no winner: State House, District 69 is a multicounty contest, "
            "and its result is declared on the whole race (20A-4-401(4)(c))") in body
    assert "is elected" not in body and "declares that" not in body
    assert "certifies Grand County's canvass and recount figures" in body
    lg = [i for i, t in enumerate(text) if t.startswith("Report to the Lieutenant Governor")]
    assert len(lg) == 1 and lg[0] % 2 == 0
    page = " ".join(text[lg[0]:lg[0] + 2])
    assert "20A-4-401(4)(c)" in page and "20A-4-304(7)" in page
    assert "Christine Watkins Rep 841 842 +1" in page and "Tim Glenn Dem 843 843 0" in page
    assert ("Total votes cast for all candidates (write-ins included) 1,684 1,685 +1") in page
    assert "Report dated December 4, 2018, 10:00 a.m." in page
    for m in r.board.present:
        assert m.name in page  # signed by the board, not the clerk alone
    assert page.count("Printed name") == len(r.board.present) + 1


def test_multicounty_proposition_goes_to_the_lieutenant_governor_with_the_assumption() -> None:
    text = " ".join(pages_text(pdf_of(proposition(scope=Scope.MULTICOUNTY))))
    assert "Report to the Lieutenant Governor" in text
    assert "names statewide propositions only" in text


def test_large_board_signature_blocks_all_whole() -> None:
    r, _, text = variant("large-board")
    assert len(r.board.present) == 14
    assert "A quorum is present: 14 of 15 members present" in joined("large-board")
    pages = [t for t in text if "Printed name" in t]
    assert len(pages) >= 2  # the blocks run onto a second page, each one whole


def test_wide_contest_keeps_every_precinct_in_one_place_on_landscape_pages() -> None:
    r, blob, text = variant("wide-1500x7")
    reader = pypdf.PdfReader(io.BytesIO(blob))
    land = [i for i, p in enumerate(reader.pages) if p.mediabox.width > p.mediabox.height]
    assert len(land) >= 50
    for u in r.units[::50]:
        hits = [i for i, t in enumerate(text) if re.search(re.escape(u.name) + r" Canvass", t)]
        assert len(hits) == 1, u.name  # one precinct, one place
    for i in land:
        assert "Precinct Candidate A" in text[i]  # the header repeats on every page
        assert "Write-ins Total votes Over-votes Under-votes Ballots counted" in text[i]
    assert "Co nstantinopoulos" not in " ".join(text)


# --- drafts, signed copies, refusals ------------------------------------------------------

def test_signed_original_has_conformed_signatures_and_no_draft_mark() -> None:
    r = signed(county_race())
    text = pages_text(pdf_of(r))
    body = " ".join(text)
    assert text[0].startswith("Official Recount Report — Board of Grand County Canvassers")
    assert DRAFT_MARK not in body
    assert all("Signed original" in t for t in text)
    assert "/s/ Mary McGann, December 4, 2018, Moab" in body
    assert "/s/ Diana Carroll, December 4, 2018, Moab" in body
    assert "____" not in body


def test_reprint_is_numbered_on_every_page_and_keeps_conformed_signatures() -> None:
    text = pages_text(pdf_of(signed(county_race(), reprint=2)))
    assert all("Reprint 2 of the signed report — generated at January 3, 2019, 3:05 p.m." in t
               for t in text)
    assert "/s/ Terry Morse, December 4, 2018, Moab" in " ".join(text)
    assert "The original was signed on December 4, 2018 by Mary McGann" in text[0]


@pytest.mark.parametrize(("change", "problem"), [
    pytest.param({"completed_at": datetime(2026, 12, 1, 9, 0), "completed": date(2026, 12, 1)},
                 "NOT KEPT: board of canvassers convened (December 4, 2018, 10:00 a.m.) on or "
                 "after recount completed (December 1, 2026, 9:00 a.m.)", id="correction-late"),
    pytest.param({"started_at": datetime(2018, 11, 28, 8, 0)},
                 "NOT KEPT: recount started (November 28, 2018, 8:00 a.m.) on or after request "
                 "filed (November 28, 2018, 4:30 p.m.)", id="recount-before-request"),
], )
def test_dates_out_of_order_are_named_and_never_official(change: dict[str, object],
                                                           problem: str) -> None:
    r = signed(county_race(**change))
    text = pages_text(pdf_of(r))
    body = " ".join(text)
    assert "This report cannot be the official result until these are put right" in text[0]
    assert problem in text[0]
    assert text[0].startswith("Recount Report (DRAFT)")
    assert all("NOT OFFICIAL" in t and DRAFT_MARK in t for t in text)
    assert "The dates above are NOT in order" in body


def test_envelope_decided_after_completion_fails_the_chronology() -> None:
    r = county_race(completed_at=datetime(2018, 11, 28, 23, 0), completed=date(2018, 11, 28),
                    started_at=datetime(2018, 11, 28, 17, 0))
    text = pages_text(pdf_of(r))[0]
    assert "envelope GR-0417 decided on November 29, 2018, after the recount was completed" in text


def test_no_quorum_and_impossible_attendance_are_never_official() -> None:
    few = county_race(board=dataclasses.replace(county_race().board, members=(
        BoardMember("A", "Chair"), BoardMember("B", "Member"))))
    text = pages_text(pdf_of(signed(few)))
    assert "No quorum: 2 present, 4 needed" in text[0]
    assert "NO QUORUM is present" in " ".join(text)
    many = county_race(board=dataclasses.replace(county_race().board, body_size=5))
    text = " ".join(pages_text(pdf_of(many)))
    assert "5 members are recorded present, but the body has only 5 seats" not in text
    twelve = county_race(board=dataclasses.replace(county_race().board, body_size=4))
    text = " ".join(pages_text(pdf_of(twelve)))
    assert "5 members are recorded present, but the body has only 4 seats" in text
    assert "5 of 4 members present" not in text


def test_municipal_quorum_has_no_minimum_of_one() -> None:
    r = county_race(board=dataclasses.replace(county_race().board,
                                              kind=BoardKind.MUNICIPAL))
    text = " ".join(pages_text(pdf_of(r)))
    assert ("a quorum is a simple majority of the 7-member municipal legislative body, "
            "here 4") in text
    assert "not fewer than" not in text


def test_a_state_board_of_two_of_three_has_no_quorum_in_the_report() -> None:
    """20A-4-306 (utah-law-notes §2d): all three members must attend."""
    board = Board("Board of State Canvassers", (
        BoardMember("State Auditor", "State Auditor"),
        BoardMember("State Treasurer", "State Treasurer"),
        BoardMember("Attorney General", "Attorney General", present=False)), 3,
        BoardKind.STATE, datetime(2018, 11, 26, 12, 0), "Lieutenant Governor's office")
    text = " ".join(pages_text(pdf_of(county_race(board=board))))
    assert "NO QUORUM is present: 2 of 3 members present; a quorum is all three members" \
        in text
    assert "(Utah Code 20A-4-306)" in text


def test_recount_without_request_or_automatic_basis_is_named() -> None:
    text = pages_text(pdf_of(county_race(requests=())))
    assert "the case gives no basis for this recount" in " ".join(text)
    assert "No request for a recount is recorded" in text[0]
    assert "Automatic recount: No request" not in " ".join(text)


def test_fingerprint_and_settings_in_metadata() -> None:
    r, blob, _ = variant("single-seat")
    meta = pypdf.PdfReader(io.BytesIO(blob)).metadata
    fp = fingerprint(r)
    assert fp in meta.subject and f"fingerprint={fp}" in meta.get("/Keywords")
    assert "appendix=0" in meta.get("/Keywords") and "official=0" in meta.get("/Keywords")
    assert meta.title == "Recount Report (DRAFT) — Board of Grand County Canvassers"
    assert meta.get("/CreationDate") == "D:20181204100000"


def test_same_data_gives_identical_bytes() -> None:
    _, blob, _ = variant("single-seat")
    assert pdf_of(county_race()) == blob


def test_different_data_gives_different_bytes() -> None:
    _, blob, _ = variant("single-seat")
    changed = county_race(units=county_race().units[:-1])
    assert pdf_of(changed) != blob


def test_2024_edition_and_automatic_recount_have_no_voter_cost_statement() -> None:
    for r in (proposition(Edition.Y2024), proposition(requested=False), county_race()):
        assert "Statement of the costs" not in " ".join(pages_text(pdf_of(r)))


NASTY = [
    "Smith & <Jones> \"O'Brien\"",
    "José Ñúñez-Çelik Øster Łukasz Świętochowski",
    "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessenschafe",
    "דוד כהן",
    "محمد العلي",
    "王小明",
    "김민준",
]


def test_markup_accents_long_cjk_and_rtl_names_render_and_read_back() -> None:
    r = county_race()
    r = dataclasses.replace(
        r, choices=(ReportChoice(NASTY[0], "<Ind>"), ReportChoice(NASTY[5], "A&B")),
        units=(Unit(NASTY[2], (1, 2), (1, 2)), Unit(NASTY[3], (3, 4), (3, 5)),
               Unit(NASTY[4], (0, 0), (0, 0)), Unit(NASTY[6], (1, 1), (1, 1))),
        board=dataclasses.replace(r.board, members=(
            BoardMember(NASTY[1], "Chair & Commissioner <at large>"),
            BoardMember(NASTY[3], "Commissioner"), BoardMember(NASTY[5], "Commissioner"),
            BoardMember("X " * 60, "Commissioner")), body_size=4),
        declaration=dataclasses.replace(r.declaration, elected=(NASTY[4],)))
    text = " ".join(pages_text(pdf_of(r)))
    compact = text.replace(" ", "").replace("-", "")
    assert "Smith & <Jones>" in text and "<Ind>" in text and "A&B" in text
    assert "Chair & Commissioner <at large>" in text
    assert NASTY[1] in text
    # wrapped with hyphens over the unit's lines, not lost or cut
    assert NASTY[2][:20] in compact and NASTY[2][-8:] in compact
    assert NASTY[5] in text and NASTY[6] in text  # CJK in the fallback font, not boxes


def test_rtl_names_read_the_same_everywhere() -> None:
    """A right-to-left name is put in visual order once, so every place shows the same."""
    import arabic_reshaper

    from recount_desk.report.text import visual

    name = NASTY[4]
    shown = visual(name)
    assert shown != name  # shaped and reordered
    r = county_race(choices=(ReportChoice(name, "Ind"), ReportChoice("Tim Glenn", "Dem")),
                    declaration=dataclasses.replace(county_race().declaration,
                                                    elected=(name,)))
    lines = [t for page in page_lines(pdf_of(r)) for _, t in page]
    drawn = [t.replace("\xa0", " ") for t in lines if re.search("[\ufb50-\ufeff]", t)]
    assert len(drawn) >= 3  # a table, the totals, a sentence
    # pypdf gives right-to-left runs back in logical order: the whole name, in every place
    logical = arabic_reshaper.reshape(name)
    assert all(logical in t for t in drawn), drawn
