"""The report model: fingerprint, read-back code, and which parts a report must carry."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk.core.model import ContestKind, Scope
from recount_desk.core.report_model import (
    AuditRow,
    Board,
    BoardMember,
    Printing,
    Unit,
    canonical_report_data,
    cost_statement_applies,
    declaration_statement,
    fingerprint,
    needs_lieutenant_governor_report,
    quorum_statement,
    short_code,
)
from recount_desk.core.rules import Edition

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "report"))
from report_fixtures import house_69, proposition, tie_with_lot


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
    assert body["format"] == "recount-desk-report/1"
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
        date(2018, 12, 4), ("Mary McGann",)))
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
    (ContestKind.PROPOSITION, Scope.MULTICOUNTY, False),
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
    assert not cost_statement_applies(house_69())


@pytest.mark.parametrize(("present", "size", "ok", "need"), [
    (3, 3, True, 3), (2, 3, False, 3), (3, 5, True, 3), (4, 7, True, 4), (3, 7, False, 4),
], ids=["3of3", "2of3", "3of5", "4of7", "3of7"])
def test_quorum_is_majority_and_at_least_three(present: int, size: int, ok: bool,
                                               need: int) -> None:
    members = tuple(BoardMember(f"M{i}", "Commissioner", i < present) for i in range(size))
    b = Board("Board of X County Canvassers", members, size)
    assert b.quorum_met is ok
    assert b.quorum_required == need
    assert f"{present} of {size} members present" in quorum_statement(b)


def test_declaration_statements_cite_the_statute() -> None:
    assert declaration_statement(house_69()) == (
        "On the recount, the board declares that Tim Glenn is elected to State House, "
        "District 69 (20A-4-401(1)(e)(iv)).")
    assert "proposition Proposition 1: Moab Pool Bond passed" in declaration_statement(
        proposition())
    assert tie_with_lot().declaration.lot is not None


def test_unit_difference_requires_same_choices() -> None:
    with pytest.raises(ValueError, match=r"shorter|longer"):
        _ = Unit("x", (1, 2), (1,)).difference
