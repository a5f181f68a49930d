"""People, not logins: the roster, who acts, and what the audit log says of them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recount_desk import cli, store
from recount_desk.actions import case as case_actions
from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, WhoAreYou, open_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.people import Role
from recount_desk.core.recount import RecountMethod, ResolutionKind
from tests.actions.test_recount_actions import RACE, S, make_case


@pytest.fixture
def case(tmp_path: Path) -> Case:
    c = make_case(tmp_path / "t.recount")  # tester (election officer), Dana, Marcus, Sup
    yield c  # type: ignore[misc]
    c.close()


def last(case: Case) -> tuple[str, dict[str, object]]:
    e = store.last_entry(case.conn)
    assert e is not None
    return e.actor, json.loads(e.payload)


def test_a_new_cases_creator_is_its_election_officer(case: Case) -> None:
    assert case.roster.election_officer is not None
    assert case.roster.election_officer.name == "tester"
    first = next(store.audit_entries(case.conn))
    assert first.actor == "tester"
    assert json.loads(first.payload)["data"]["election_officer"] == "tester"


def test_the_audit_log_names_the_person_and_the_login_beside_it(case: Case) -> None:
    case.act_as("dana")
    rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    actor, body = last(case)
    assert actor == "Dana"
    assert body["login"] == store.actor_name()


def test_nobody_chosen_on_a_roster_of_several_changes_nothing(tmp_path: Path,
                                                              case: Case) -> None:
    path = case.path
    case.close()
    with open_case(path) as c:
        assert c.person is None
        with pytest.raises(WhoAreYou, match="Say who you are"):
            rc.start_recount(c, RACE, method=RecountMethod.HAND_COUNT)
    with pytest.raises(WhoAreYou, match="not on this case's roster"):
        open_case(path, actor="Mickey Mouse")
    with open_case(path, actor="MARCUS") as c:
        assert c.person is not None and c.person.name == "Marcus"


def test_only_the_election_officer_edits_the_roster_and_every_change_is_audited(
        case: Case) -> None:
    before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
    case_actions.add_person(case, "Kim Nguyen", Role.DEPUTY)
    assert last(case)[1]["data"] == {"person_id": 5, "name": "Kim Nguyen", "role": "deputy"}
    with pytest.raises(case_actions.RosterRefused, match="already on the roster"):
        case_actions.add_person(case, "nguyen, kim", Role.DEPUTY)
    case_actions.change_role(case, "K. Nguyen", Role.SUPERVISOR)
    case_actions.remove_person(case, "Kim Nguyen")
    with pytest.raises(case_actions.RosterRefused, match="cannot be removed"):
        case_actions.remove_person(case, "tester")
    with pytest.raises(case_actions.RosterRefused, match="needs its election officer"):
        case_actions.change_role(case, "tester", Role.DEPUTY)
    actions = [a for (a,) in case.conn.execute("SELECT action FROM audit WHERE seq > ?",
                                               (before,))]
    assert actions == ["add person", "change role", "remove person"]
    case.act_as("Dana")
    for attempt in (lambda: case_actions.add_person(case, "Eve", Role.SUPERVISOR),
                    lambda: case_actions.change_role(case, "Dana", Role.SUPERVISOR),
                    lambda: case_actions.remove_person(case, "Marcus")):
        with pytest.raises(case_actions.RosterRefused, match="Only the election officer"):
            attempt()
    assert verify_case(case.path).ok


def test_handing_over_the_election_officer_role(case: Case) -> None:
    case_actions.change_role(case, "Sup", Role.ELECTION_OFFICER)
    roster = case.roster
    assert roster.election_officer is not None and roster.election_officer.name == "Sup"
    assert roster.who("tester").person.role is Role.DEPUTY  # type: ignore[union-attr]
    assert case.person is not None and case.person.role is Role.DEPUTY


def test_a_second_entry_by_the_first_officer_in_any_spelling_is_refused_before_typing(
        case: Case) -> None:
    rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
    for spelling in ("Dana", " DANA ", "dana."):
        assert "made the other entry" in (rc.may_enter(case, RACE, "P1", 2, spelling) or "")
        with pytest.raises(rc.RecountError, match="made the other entry"):
            rc.enter_tally(case, RACE, "P1", entry=2, officer=spelling, sheet=S(10, 9, 1))
    assert "not on this case's roster" in (rc.may_enter(case, RACE, "P1", 2, "Mickey") or "")
    assert rc.may_enter(case, RACE, "P1", 2, "marcus") is None
    got = rc.enter_tally(case, RACE, "P1", entry=2, officer="marcus", sheet=S(10, 8, 2))
    assert rc.entry_of(case, RACE, "P1", 2).officer == "Marcus"  # type: ignore[union-attr]
    assert got.state.diffs


def test_a_resolution_by_an_officer_of_the_entries_is_refused_unless_joint(
        case: Case) -> None:
    rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
    rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 8, 2))
    with pytest.raises(rc.RecountError, match="made one of the two entries"):
        rc.resolve_mismatch(case, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, by="dana",
                            note="I keep mine")
    with pytest.raises(rc.RecountError, match="Say in the note"):
        rc.resolve_mismatch(case, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, by="Sup")
    rc.resolve_mismatch(case, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, joint=True,
                        note="Re-read the tape together")
    row = rc.unit_list(case, RACE)[0]
    assert row.state.resolution is not None
    _, body = last(case)
    assert body["data"]["by"] == "Dana and Marcus, jointly"  # type: ignore[index]
    assert body["data"]["joint"] is True  # type: ignore[index]


def test_an_older_case_file_gets_its_election_officer_on_upgrade(tmp_path: Path) -> None:
    from tests.store.test_recount_repo import make_v1_file

    path = tmp_path / "old.recount"
    make_v1_file(path)
    with open_case(path) as c:  # one person: nobody else it could be
        assert [p.name for p in c.roster.people] == ["v1"]
        assert c.person is not None and c.person.role is Role.ELECTION_OFFICER
    assert verify_case(path).ok


def test_the_command_line_acts_as_the_person_named(case: Case, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = case.path
    case.close()
    monkeypatch.setenv("RECOUNT_DESK_AS", "Mickey Mouse")
    assert cli.main(["election", str(path), "--name", "Renamed"]) != 0
    assert "not on this case's roster" in capsys.readouterr().err
    assert cli.main(["--as", "Sup", "election", str(path), "--name", "Renamed"]) == 0
    raw = sqlite3.connect(str(path))
    actor = raw.execute("SELECT actor FROM audit ORDER BY seq DESC LIMIT 1").fetchone()[0]
    raw.close()
    assert actor == "Sup"
