"""Check before write: an edit made outside Recount Desk is never absorbed by the next action,
and nothing can be written without the transaction that ends in its audit entry."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date, datetime

import pytest

from recount_desk import store
from recount_desk.actions import case as case_actions
from recount_desk.actions import contests
from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, open_case
from recount_desk.actions.demo import user_data_dir
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import Election, ElectionKind, PassRule, Scope, VotingMethod
from recount_desk.core.recount import RecountMethod
from recount_desk.core.rules import Office, Requester
from recount_desk.store import repo
from tests.actions.test_recount_actions import ACTIONS, RACE, Act, Setup, make_case
from tests.store.outside import outside_edit

ZERO_VOTES_PG = ("UPDATE canvass_column SET votes = decode(repeat('00', length(votes)), 'hex') "
                 "WHERE choice_id = 1")

OTHER_ACTIONS: list[tuple[str, Act]] = [
    ("update election", lambda c: case_actions.update_election(
        c, Election("Renamed", date(2024, 11, 5), ElectionKind.GENERAL, "Test County",
                    datetime(2024, 11, 19, 10, 0), "Test Clerk"))),
    ("contest settings", lambda c: contests.set_contest_settings(
        c, RACE, seats=1, scope=Scope.COUNTY, voting_method=VotingMethod.PLURALITY,
        pass_rule=PassRule.MAJORITY)),
    ("record request", lambda c: contests.record_request(
        c, RACE, requester=Requester.CANDIDATE, candidate="Ben",
        filed_at=datetime(2024, 11, 20, 10), filed_with=Office.COUNTY_CLERK, voters=[],
        override_reason="late")),
]

EVERY_ACTION = [(n, s, a) for n, s, a in ACTIONS] + [(n, None, a) for n, a in OTHER_ACTIONS]


@pytest.mark.parametrize(("setup", "act"), [(s, a) for _, s, a in EVERY_ACTION],
                         ids=[n for n, _, _ in EVERY_ACTION])
def test_an_outside_edit_then_any_action_is_refused_and_verify_still_reports_it(
        new_case_at, setup: Setup | None, act: Act) -> None:
    path = new_case_at("t.recount")
    case = make_case(path)
    if setup:
        setup(case)
    case.close()
    outside_edit(path, "UPDATE choice SET canvass_total = canvass_total + 5 WHERE name='Ben'")
    case = open_case(path, actor="tester")
    try:
        before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        with pytest.raises(store.CaseChangedOutside) as refused:
            act(case)
        assert "the candidates differ" in str(refused.value)
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == before
        assert case.conn.execute("SELECT canvass_total FROM choice WHERE name='Ben'"
                                 ).fetchone()[0] == 34
    finally:
        case.close()
    result = verify_case(path)
    assert not result.ok
    assert result.first_break == before
    assert any("changed outside Recount Desk after audit entry" in p for p in result.problems)


def test_an_outside_edit_while_the_program_has_the_file_open_is_caught(new_case_at) -> None:
    path = new_case_at("t.recount")
    case = make_case(path)
    try:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)  # the cheap check's cache
        outside_edit(path, "UPDATE election SET name = 'Forged'")
        with pytest.raises(store.CaseChangedOutside, match="the election's details differ"):
            rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        assert case.conn.execute("SELECT name FROM election").fetchone()[0] == "Forged"
    finally:
        case.close()
    assert not verify_case(path).ok


def test_a_forged_canvass_vote_is_refused_too(new_case_at) -> None:
    path = new_case_at("t.recount")
    make_case(path).close()
    outside_edit(path, "UPDATE canvass_column SET votes = zeroblob(length(votes)) "
                       "WHERE choice_id = 1", ZERO_VOTES_PG)
    with open_case(path, actor="tester") as case, pytest.raises(store.CaseChangedOutside,
                                                match="canvass votes"):
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)


def test_a_changed_audit_log_is_refused_and_cannot_be_accepted(new_case_at) -> None:
    path = new_case_at("t.recount")
    make_case(path).close()
    outside_edit(path, "DROP TRIGGER audit_no_update; UPDATE audit SET actor='mallory' "
                       "WHERE seq=1", "DROP TRIGGER audit_no_update ON audit; UPDATE audit "
                       "SET actor='mallory' WHERE seq=1")
    with open_case(path, actor="tester") as case:
        with pytest.raises(store.CaseChangedOutside, match="audit entry 1 is broken"):
            rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
        with pytest.raises(store.CaseFileError, match="Restore a backup"):
            case_actions.accept_file_as_is(case, "I did it")


def test_accepting_the_file_as_it_is_is_audited_with_its_reason_and_unlocks_the_case(
        new_case_at) -> None:
    path = new_case_at("t.recount")
    make_case(path).close()
    outside_edit(path, "UPDATE contest SET seats = 2 WHERE id = 1")
    with open_case(path, actor="tester") as case:
        assert case_actions.changed_outside(case)
        with pytest.raises(case_actions.AcceptRefused):
            case_actions.accept_file_as_is(case, "  ")
        accepted = case_actions.accept_file_as_is(
            case, "The county IT fixed the seats in sqlite3; checked against the canvass.")
        assert any("the contests differ" in a for a in accepted)
        assert case_actions.changed_outside(case) == []
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)  # no longer refused
        with pytest.raises(case_actions.AcceptRefused, match="nothing to accept"):
            case_actions.accept_file_as_is(case, "again")
    result = verify_case(path)
    assert result.ok, result.problems
    (acc,) = result.accepted
    assert acc.reason.startswith("The county IT fixed the seats")
    assert (acc.person, acc.login) == ("tester", store.actor_name())
    assert any("the contests differ" in d for d in acc.differences)
    assert "accepted as it was found" in result.summary()


def test_accepting_a_forged_canvass_keeps_verify_green_afterwards(new_case_at) -> None:
    path = new_case_at("t.recount")
    make_case(path).close()
    outside_edit(path, "UPDATE canvass_column SET votes = zeroblob(length(votes)) "
                       "WHERE choice_id = 1", ZERO_VOTES_PG)
    with open_case(path, actor="tester") as case:
        case_actions.accept_file_as_is(case, "Re-keyed from the paper canvass.")
    assert verify_case(path).ok


def test_a_raw_write_outside_a_transaction_is_impossible(new_case_at) -> None:
    path = new_case_at("t.recount")
    with make_case(path) as case:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            case.conn.execute("UPDATE election SET name = 'No entry'")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            repo.update_contest(case.conn, RACE, seats=2,  # type: ignore[arg-type]
                                scope=Scope.COUNTY, voting_method=VotingMethod.PLURALITY,
                                pass_rule=PassRule.MAJORITY)
        # and stays impossible after a transaction, whether it committed or failed
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
        with pytest.raises(ZeroDivisionError), store.transaction(case.conn, "t", "x"):
            1 / 0  # noqa: B018
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            case.conn.execute("DELETE FROM recount")
    assert verify_case(path).ok


def test_the_cheap_check_does_not_rehash_the_case_when_nobody_else_wrote(
        new_case_at, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = store.db.differences
    monkeypatch.setattr(store.db, "differences", lambda conn: calls.append(1) or real(conn))
    path = new_case_at("t.recount")
    with make_case(path) as case:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
        rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        assert calls == []
    # (a case file closed here is remembered as checked by its image: forget it here,
    # tests/store/test_checked_image.py tests that)
    shutil.rmtree(user_data_dir() / "checked", ignore_errors=True)
    with open_case(path, actor="tester") as case:  # a fresh connection checks in full once
        rc.add_witness(case, RACE, name="V", designated_by="Ada", side="Ada")
        rc.add_witness(case, RACE, name="U", designated_by="Ada", side="Ada")
        assert calls == [1]


def test_another_programs_audited_write_is_checked_in_full_and_passes(new_case_at) -> None:
    path = new_case_at("t.recount")
    with make_case(path) as first:
        second = Case(path, store.open_case(path))
        second.act_as("Dana")
        try:
            rc.start_recount(second, RACE, method=RecountMethod.HAND_COUNT)
        finally:
            second.conn.close()
        rc.add_witness(first, RACE, name="W", designated_by="Ada", side="Ada")
    assert verify_case(path).ok
