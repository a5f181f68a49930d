"""Check before write, for every kind of action (issue 13): after an edit made outside Recount
Desk, each action that writes is refused, writes nothing, and ``verify`` still reports the
edit. The table must name every action that opens a transaction: a new action left out of
it fails ``test_every_action_that_writes_is_in_a_table``."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import case as case_actions
from recount_desk.actions import contests, retab, tally_sheets, whole_case
from recount_desk.actions import recount as rc
from recount_desk.actions import report as report_actions
from recount_desk.actions.case import Case, create_case, open_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.calendar import ClosedDay
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.people import Role
from recount_desk.core.recount import CostKind
from recount_desk.store import repo
from tests.actions.test_recount_actions import RACE, _declared, _started, make_case
from tests.actions.test_retab_actions import long_csv, small_case
from tests.store.outside import outside_edit

ACTIONS_DIR = Path(rc.__file__).parent
DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"
GRAND = DATA / "20181106__ut__general__grand__precinct.csv"
OTHERS = [DATA / "trimmed" / "2018" / f"20181106__ut__general__{c}__precinct.csv"
          for c in ("carbon", "duchesne", "emery")]


@dataclass(frozen=True)
class Row:
    """One action: the case it needs (built and set up by ``build``, which returns who acts),
    and the action itself (``act(case, folder)``)."""

    action: str  # the function's name in recount_desk/actions
    build: Callable[[Path], str]
    act: Callable[[Case, Path], object]


# --- the cases ---------------------------------------------------------------------------

def _recount(setup: Callable[[Case], None] | None = None) -> Callable[[Path], str]:
    def build(path: Path) -> str:
        with make_case(path) as c:
            if setup is not None:
                setup(c)
        return "tester"
    return build


def _retab(loaded: bool) -> Callable[[Path], str]:
    def build(path: Path) -> str:
        c, cid = small_case(path.parent)
        with c:
            if loaded:
                retab.load_retab(c, retab.preview_load(c, cid, _retab_file(path.parent)))
        (path.parent / "small.recount").rename(path)
        return "clerk"
    return build


def _retab_file(folder: Path) -> Path:
    from tests.actions.test_retab_actions import _rows

    return long_csv(folder, "retab.csv", _rows({"A1": ("10", "12"), "A2": ("7", "3"),
                                                "A3": ("5", "5")}))


def _grand(ordered: bool = False) -> Callable[[Path], str]:
    def build(path: Path) -> str:
        with create_case(path, Election("2018 General", date(2018, 11, 6),
                                        ElectionKind.GENERAL, "Grand County",
                                        datetime(2018, 11, 20, 10, 0), "Clerk"),
                         actor="clerk") as c:
            canvass_actions.import_canvass(c, canvass_actions.read_file(GRAND))
            if ordered:
                whole_case.record_recount_order(c, _hd69(c), ordered_at=datetime(2018, 11, 27),
                                                reference="Order 2018-1")
        return "clerk"
    return build


def _hd69(c: Case) -> int:
    return next(r.id for r in contests.overview(c)
                if r.check.totals.contest.key.district == "69")


def _witness(c: Case) -> None:
    _started(c)
    rc.add_witness(c, RACE, name="W. Watcher", designated_by="Ada", side="Ada")


def _cost(c: Case) -> None:
    rc.add_cost(c, RACE, kind=CostKind.MATERIALS, description="Seals", amount_cents=4200)


def _envelope_csv(folder: Path) -> Path:
    p = folder / "envelopes.csv"
    p.write_text("envelope id,precinct,original reason\nE7,P2,Late\n", encoding="utf-8")
    return p


ROWS = [
    Row("import_canvass", _recount(), lambda c, d: canvass_actions.import_canvass(
        c, canvass_actions.read_file(GRAND), replace=True)),
    Row("add_person", _recount(), lambda c, d: case_actions.add_person(c, "Newcomer",
                                                                       Role.DEPUTY)),
    Row("change_role", _recount(), lambda c, d: case_actions.change_role(c, "Dana",
                                                                         Role.SUPERVISOR)),
    Row("remove_person", _recount(), lambda c, d: case_actions.remove_person(c, "Marcus")),
    Row("set_closed_days", _recount(), lambda c, d: case_actions.set_closed_days(
        c, [ClosedDay(date(2024, 11, 26), "Snowstorm")])),
    Row("record_witness_attendance", _recount(_witness),
        lambda c, d: rc.record_witness_attendance(
            c, RACE, rc.witnesses(c, RACE)[0].id, attended_from=datetime(2024, 11, 21, 9),
            attended_to=datetime(2024, 11, 21, 17))),
    Row("import_envelopes_csv", _recount(_started),
        lambda c, d: rc.import_envelopes_csv(c, RACE, _envelope_csv(d))),
    Row("remove_cost", _recount(_cost),
        lambda c, d: rc.remove_cost(c, RACE, rc.costs(c, RACE)[0].id)),
    Row("make_report", _recount(_declared),
        lambda c, d: report_actions.make_report(c, RACE, d / "report.pdf")),
    Row("make_tally_sheets", _recount(_started),
        lambda c, d: tally_sheets.make_tally_sheets(c, RACE, d / "sheets.pdf")),
    Row("load_retab", _retab(loaded=False), lambda c, d: retab.load_retab(
        c, retab.preview_load(c, repo.contests(c.conn)[0].id, _retab_file(d)))),
    Row("hand_count_unit", _retab(loaded=True), lambda c, d: retab.hand_count_unit(
        c, repo.contests(c.conn)[0].id, "A2", note="Ballot bag damaged; counted by hand")),
    Row("enter_whole_race_totals", _grand(), lambda c, d: whole_case.enter_whole_race_totals(
        c, _hd69(c), {"Tim Glenn": 3320, "CHRISTINE F. WATKINS": 8589},
        source="State canvass")),
    Row("combine_counties", _grand(), lambda c, d: whole_case.combine_counties(c, OTHERS)),
    Row("record_recount_order", _grand(), lambda c, d: whole_case.record_recount_order(
        c, _hd69(c), ordered_at=datetime(2018, 11, 27), reference="Order 2018-1")),
    Row("record_transmittal", _grand(ordered=True), lambda c, d: whole_case.record_transmittal(
        c, _hd69(c), sent_at=datetime(2018, 12, 4, 9), how="By courier")),
]

# Covered by tests/store/test_check_before_write.py (the recount's actions and the others of
# its table), and the two that must not be refused: making a new case, and the way out of
# the refusal itself (tests/store/test_check_before_write.py, accepting the file as it is).
ELSEWHERE = {
    "start_recount", "enter_tally", "resolve_mismatch", "set_variance_note", "add_witness",
    "add_envelope", "record_envelope_checks", "decide_envelope", "confirm_no_envelopes",
    "declare", "add_cost", "set_board_members", "convene_board", "sign_report", "reopen",
    "update_election", "set_contest_settings", "record_request",
}
NOT_REFUSED = {"create_case", "accept_file_as_is"}


def _writing_actions() -> set[str]:
    """Every public function of recount_desk/actions that opens a transaction."""
    out = set()
    for path in ACTIONS_DIR.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and \
                    "transaction(" in (ast.get_source_segment(text, node) or ""):
                out.add(node.name)
    return out


def test_every_action_that_writes_is_in_a_table() -> None:
    tabled = {r.action for r in ROWS} | ELSEWHERE | NOT_REFUSED
    assert _writing_actions() - tabled == set()
    assert tabled - _writing_actions() == set()  # no stale names


@pytest.mark.parametrize("row", ROWS, ids=[r.action for r in ROWS])
def test_an_outside_edit_then_this_action_is_refused_and_verify_still_reports_it(
        tmp_path: Path, row: Row) -> None:
    path = tmp_path / "t.recount"
    actor = row.build(path)
    outside_edit(path, "UPDATE choice SET canvass_total = canvass_total + 5 WHERE id = 1")
    case = open_case(path, actor=actor)
    try:
        before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        with pytest.raises((store.CaseChangedOutside, report_actions.ReportNotReady)) as no:
            row.act(case, tmp_path)
        assert "changed outside" in str(no.value) or "does not match its audit log" in \
            str(no.value)
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == before
    finally:
        case.close()
    result = verify_case(path)
    assert not result.ok
    assert result.first_break == before
    assert any("changed outside Recount Desk after audit entry" in p for p in result.problems)
