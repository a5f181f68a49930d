"""The report model: fingerprint, read-back code, and which parts a report must carry."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from datetime import datetime
from pathlib import Path

import pytest

from recount_desk.core.model import ContestKind, Scope
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    ChecklistInput,
    Readiness,
    Signer,
    Signing,
    Stage,
    checklist,
    quorum,
)
from recount_desk.core.report_model import (
    AuditRow,
    Board,
    Printing,
    Unit,
    board_declaration_statement,
    canonical_report_data,
    chronology,
    conformed_signature,
    cost_statement_applies,
    declaration_statement,
    fingerprint,
    is_official,
    needs_lieutenant_governor_report,
    problems,
    quorum_statement,
    short_code,
)
from recount_desk.core.rules import Edition

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "report"))
from report_fixtures import (
    county_race,
    house_69,
    proposition,
    signed,
    tie_with_lot,
    two_seats_with_lot,
)


def test_totals_and_differences_follow_the_units() -> None:
    r = house_69()
    assert r.canvass_totals() == (841, 843)
    assert r.recount_totals() == (842, 843)
    assert r.total_differences() == (1, 0)
    assert r.units[0].difference == (0, 1)


def test_fingerprint_is_sha256_of_canonical_json() -> None:
    r = house_69()
    data = canonical_report_data(r)
    body = json.loads(data)
    assert body["format"] == "recount-desk-report/4"
    assert body["board"]["kind"] == "county"
    assert body["units"][0]["canvass"] == [397, 436]
    assert re.fullmatch(r"[0-9a-f]{64}", fingerprint(r))
    assert fingerprint(r) == fingerprint(house_69())


def test_one_vote_changes_the_fingerprint() -> None:
    r = house_69()
    units = (dataclasses.replace(r.units[0], recount=(398, 437)), *r.units[1:])
    assert fingerprint(dataclasses.replace(r, units=units)) != fingerprint(r)


def test_reprint_and_appendix_do_not_change_the_fingerprint() -> None:
    r = house_69()
    printed = dataclasses.replace(r, printing=Printing(
        3, datetime(2019, 1, 2, 9, 0), (AuditRow(1, "2018-11-20T10:00", "clerk", "x", ""),),
        Signing(datetime(2018, 12, 4, 11, 0), "Moab", (Signer("Mary McGann", "Chair"),)), 7))
    assert fingerprint(printed) == fingerprint(r)


def test_short_code_is_four_groups_of_four_base32() -> None:
    code = short_code(fingerprint(house_69()))
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", code)
    assert short_code("00" * 32) == "AAAA-AAAA-AAAA-AAAA"


@pytest.mark.parametrize(("kind", "scope", "needed"), [
    (ContestKind.RACE, Scope.STATEWIDE, True),
    (ContestKind.RACE, Scope.MULTICOUNTY, True),
    (ContestKind.RACE, Scope.COUNTY, False),
    (ContestKind.RACE, Scope.MUNICIPAL, False),
    (ContestKind.PROPOSITION, Scope.STATEWIDE, True),
    (ContestKind.PROPOSITION, Scope.MULTICOUNTY, True),
    (ContestKind.PROPOSITION, Scope.COUNTY, False),
], ids=["statewide-race", "multicounty-race", "county-race", "municipal-race",
        "statewide-prop", "multicounty-prop", "county-prop"])
def test_lieutenant_governor_report_only_for_4c_contests(kind: ContestKind, scope: Scope,
                                                         needed: bool) -> None:
    r = house_69()
    r = dataclasses.replace(r, contest=dataclasses.replace(r.contest, kind=kind, scope=scope))
    assert needs_lieutenant_governor_report(r) is needed


@pytest.mark.parametrize(("edition", "requested", "applies"), [
    (Edition.Y2019, True, True),
    (Edition.Y2024, True, False),
    (Edition.Y2019, False, False),
], ids=["voters-2019", "voters-2024", "automatic-2019"])
def test_cost_statement_only_for_voter_requested_proposition_before_2024(
        edition: Edition, requested: bool, applies: bool) -> None:
    assert cost_statement_applies(proposition(edition, requested=requested)) is applies


def test_cost_statement_never_for_a_candidate_race() -> None:
    assert not cost_statement_applies(county_race())


@pytest.mark.parametrize(("present", "size", "ok", "need"), [
    (3, 3, True, 3), (2, 3, False, 3), (3, 5, True, 3), (4, 7, True, 4), (3, 7, False, 4),
], ids=["3of3", "2of3", "3of5", "4of7", "3of7"])
def test_quorum_is_majority_and_at_least_three(present: int, size: int, ok: bool,
                                               need: int) -> None:
    members = tuple(BoardMember(f"M{i}", "Commissioner", present=i < present)
                    for i in range(size))
    b = Board("Board of X County Canvassers", members, size)
    assert b.quorum_met is ok
    assert b.quorum_required == need
    assert f"{present} of {size} members present" in quorum_statement(b)


# What a quorum of each board is, as the law notes read 20A-4-301 and 20A-4-306
# (utah-law-notes §2a, §2d): county, a simple majority of the legislative body and not
# fewer than three; municipal, a simple majority; state, all three members.
NEEDED = {BoardKind.COUNTY: lambda n: max(3, n // 2 + 1),
          BoardKind.MUNICIPAL: lambda n: n // 2 + 1,
          BoardKind.STATE: lambda n: 3}


@pytest.mark.parametrize("kind", list(BoardKind), ids=[k.value for k in BoardKind])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 9], ids=lambda n: f"{n}-seats")
def test_checklist_and_report_agree_on_the_quorum_in_every_board(kind: BoardKind,
                                                                 size: int) -> None:
    for present in range(size + 1):
        members = tuple(BoardMember(f"M{i}", "Member", present=i < present)
                        for i in range(size))
        expected = present >= NEEDED[kind](size)
        q = quorum(kind, members, size)
        steps = checklist(ChecklistInput(
            ContestKind.RACE, True, False, True,
            Readiness(1, 1, 0, 0, True, ()), True, False, True, q.ok, False)).steps
        convened = next(s for s in steps if s.stage is Stage.BOARD_CONVENED)
        board = Board("Board", members, size, kind)
        statement = quorum_statement(board)
        assert (q.ok, convened.done, board.quorum_met) == (expected,) * 3, (present, size)
        assert statement.startswith("A quorum is present" if expected else
                                    "NO QUORUM is present")
        assert f"here {NEEDED[kind](size)} (Utah Code {q.basis})" in statement
        assert any("No quorum" in p for p in problems(county_race(board=board))) \
            is not expected


def test_declaration_statements_cite_the_statute() -> None:
    assert declaration_statement(county_race()) == (
        "On November 30, 2018, 4:00 p.m., the election officer, Diana Carroll, declared that, "
        "on the recount, Tim Glenn is elected to County Commission Seat A "
        "(20A-4-401(1)(e)(iv)).")
    assert "(Utah Code 20A-4-304(1)(a); 20A-4-401(4)(b)(i))" in board_declaration_statement(
        county_race())
    assert "proposition Proposition 1: Moab Pool Bond passed" in declaration_statement(
        proposition())
    assert "approved (Utah Code 20A-4-304(1)(c)" in board_declaration_statement(proposition())
    assert tie_with_lot().declaration.lot is not None


def test_a_county_portion_declares_no_winner() -> None:
    text = declaration_statement(house_69())
    assert text.startswith("The board declares no winner") and "Tim Glenn" not in text
    assert house_69().portion and not county_race().portion


def test_total_is_votes_for_all_candidates_write_ins_included() -> None:
    r = county_race(units=tuple(dataclasses.replace(
        u, recount_ballots=dataclasses.replace(u.recount_ballots, write_ins=2))
        for u in county_race().units))
    assert r.recount_total_votes() == sum(r.recount_totals()) + 2 * len(r.units)


def test_ballot_line_unknown_in_any_unit_is_unknown_in_the_total() -> None:
    r = county_race()
    assert r.canvass_ballots().counted is None
    assert r.recount_ballots().counted == sum(u.recount_ballots.counted or 0 for u in r.units)


def test_chronology_in_order_for_the_fixtures() -> None:
    for r in (county_race(), house_69(), proposition(), two_seats_with_lot()):
        assert chronology(r).ok, chronology(r).failures
        assert not problems(r)
        assert not is_official(r)  # not signed
        assert is_official(signed(r))


@pytest.mark.parametrize(("change", "words"), [
    ({"started_at": datetime(2018, 11, 28, 9, 0)}, "recount started"),
    ({"completed_at": datetime(2018, 12, 5, 9, 0)}, "board of canvassers convened"),
    ({"completed_at": datetime(2018, 11, 29, 9, 0)}, "envelope GR-0417 decided"),
], ids=["start-before-request", "completed-after-board", "envelope-after-completion"])
def test_chronology_names_the_step_out_of_order(change: dict[str, object], words: str) -> None:
    r = county_race(**change)
    failed = chronology(r).failures
    assert failed and any(words in f.text for f in failed)
    assert not is_official(signed(r))


def test_lot_since_2024_must_come_after_the_recount_canvass() -> None:
    r = two_seats_with_lot()
    early = dataclasses.replace(r.declaration.lot, drawn_at=datetime(2024, 11, 25, 9, 0))
    bad = dataclasses.replace(r, declaration=dataclasses.replace(r.declaration, lot=early))
    assert any("lot drawn" in f.text and "20A-1-304 (2024" in f.basis
               for f in chronology(bad).failures)


def test_signed_before_the_report_date_is_out_of_order() -> None:
    r = signed(county_race(), at=datetime(2018, 12, 3, 9, 0))
    assert any("report signed" in f.text for f in chronology(r).failures)


def test_quorum_statement_for_impossible_and_municipal_boards() -> None:
    members = tuple(BoardMember(f"M{i}", "Member") for i in range(12))
    assert "THE RECORD IS INCONSISTENT: 12 members are recorded present, but the body has 11" \
        in quorum_statement(Board("B", members, 11))
    municipal = Board("B", members[:3], 5, BoardKind.MUNICIPAL)
    assert "a simple majority of the 5-member municipal legislative body, here 3" in \
        quorum_statement(municipal)


def test_conformed_signature() -> None:
    s = Signing(datetime(2018, 12, 4, 11, 0), "Moab", ())
    assert conformed_signature("Mary McGann", s) == "/s/ Mary McGann, December 4, 2018, Moab"


def test_unit_difference_requires_same_choices() -> None:
    with pytest.raises(ValueError, match=r"shorter|longer"):
        _ = Unit("x", (1, 2), (1,)).difference
