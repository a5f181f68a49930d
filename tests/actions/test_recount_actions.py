"""actions.recount: every step of a recount, each one audited transaction, on small cases."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recount_desk import cli, store
from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, add_person, create_case
from recount_desk.actions.contests import record_request
from recount_desk.actions.demo import build_demo_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    Election,
    ElectionKind,
    VoteColumn,
)
from recount_desk.core.people import Role
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    BoardRole,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeVotes,
    Lot,
    RecountMethod,
    RecountUnit,
    RejectionReason,
    ResolutionKind,
    Stage,
    TallySheet,
    UnitStatus,
)
from recount_desk.core.rules import Office, Requester
from recount_desk.store import repo

PRECINCTS = ["P1", "P2", "P3"]
# precinct → (Ada, Ben) canvass votes; Ada 30, Ben 29.
CANVASS = {"P1": (10, 9), "P2": (12, 12), "P3": (8, 8)}
RACE, PROP = 1, 2
ALL_PASS = {c: True for c in (EnvelopeCheck.AFFIDAVIT, EnvelopeCheck.SIGNATURE,
                              EnvelopeCheck.REGISTERED, EnvelopeCheck.NOT_VOTED,
                              EnvelopeCheck.IN_TIME)}


def make_case(path: Path, *, when: date = date(2024, 11, 5)) -> Case:
    """A county general election: a race (Ada v. Ben) and a proposition, three precincts."""
    e = Election("Test General", when, ElectionKind.GENERAL, "Test County",
                 datetime(when.year, 11, 19, 10, 0), "Test Clerk")
    case = create_case(path, e, actor="tester")
    for name, role in (("Dana", Role.DEPUTY), ("Marcus", Role.DEPUTY),
                       ("Sup", Role.SUPERVISOR)):
        add_person(case, name, role)
    race = ContestTotals(Contest(ContestKey("Mayor")),
                         (ChoiceTotal(Choice("Ada"), 30), ChoiceTotal(Choice("Ben"), 29)),
                         {}, 3)
    prop = ContestTotals(Contest(ContestKey("Prop 1"), ContestKind.PROPOSITION),
                         (ChoiceTotal(Choice("Yes", "", ChoiceKind.FOR), 31),
                          ChoiceTotal(Choice("No", "", ChoiceKind.AGAINST), 30)), {}, 3)
    prop_votes = {"P1": (10, 10), "P2": (11, 10), "P3": (10, 10)}
    columns = [VoteColumn(ci, k, range(1, len(PRECINCTS) + 1), [table[p][k] for p in PRECINCTS])
               for ci, table in ((0, CANVASS), (1, prop_votes)) for k in (0, 1)]
    with store.transaction(case.conn, case.actor, "import canvass") as payload:
        _, digest = repo.insert_canvass(
            payload, file="test.csv", sha256="0" * 64, family="test",
            imported_at=store.utc_now(), primary=False, precincts=PRECINCTS,
            totals=[race, prop], columns=columns, extras=[], issues=[])
        payload["canvass_digest"] = digest
    return case


@pytest.fixture
def case(tmp_path: Path) -> Case:
    c = make_case(tmp_path / "t.recount")
    yield c  # type: ignore[misc]
    c.close()


def audit_count(case: Case) -> int:
    return int(case.conn.execute("SELECT count(*) FROM audit").fetchone()[0])


def S(ada: int | None, ben: int | None, under: int | None = 0, over: int | None = 0,
      wi: int | None = 0, ballots: int | None = None) -> TallySheet:
    if ballots is None and None not in (ada, ben, under, over, wi):
        ballots = ada + ben + under + over + wi  # type: ignore[operator]
    return TallySheet(ballots, {"Ada": ada, "Ben": ben}, wi, over, under)


def enter_all(case: Case, sheets: dict[str, TallySheet], *, double: bool = True) -> None:
    for p, s in sheets.items():
        rc.enter_tally(case, RACE, p, entry=1, officer="Dana", sheet=s)
        if double:
            rc.enter_tally(case, RACE, p, entry=2, officer="Marcus", sheet=s)


MATCH = {p: S(a, b, 1) for p, (a, b) in CANVASS.items()}


def complete_race(case: Case, sheets: dict[str, TallySheet] | None = None) -> None:
    rc.start_recount(case, RACE, method=RecountMethod.RETABULATION)
    enter_all(case, sheets or MATCH)
    rc.confirm_no_envelopes(case, RACE, note="none held")


# -- one action, one audit entry -------------------------------------------------------

def _started(c: Case) -> None:
    rc.start_recount(c, RACE, method=RecountMethod.HAND_COUNT)


def _env(c: Case) -> None:
    _started(c)
    rc.add_envelope(c, RACE, envelope_id="E1", precinct="P1", original_reason="Signature")


def _checked(c: Case) -> None:
    _env(c)
    rc.record_envelope_checks(c, RACE, "E1", checks=ALL_PASS)


def _declared(c: Case) -> None:
    complete_race(c)
    rc.declare(c, RACE)


def _convened(c: Case) -> None:
    _declared(c)
    rc.set_board_members(c, RACE, [BoardMember(n, "Commissioner") for n in "ABC"])
    rc.convene_board(c, RACE, convened_at=datetime(2024, 11, 26, 10), place="Room 1",
                     body_size=3)


def _signed(c: Case) -> None:
    _convened(c)
    rc.sign_report(c, RACE, signed_at=datetime(2024, 11, 26, 11), signers=["A", "B", "C"],
                   confirmed=True)


def _mismatch(c: Case) -> None:
    _started(c)
    rc.enter_tally(c, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
    rc.enter_tally(c, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 8, 2))


Setup = Callable[[Case], None]
Act = Callable[[Case], object]

ACTIONS: list[tuple[str, Setup | None, Act]] = [
    ("start", None, _started),
    ("enter", _started, lambda c: rc.enter_tally(c, RACE, "P1", entry=1, officer="Dana",
                                                 sheet=S(10, 9))),
    ("resolve", _mismatch, lambda c: rc.resolve_mismatch(
        c, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, by="Sup", note="Tape re-read")),
    ("variance-note", _started, lambda c: rc.set_variance_note(c, RACE, "P1", "why")),
    ("witness", None, lambda c: rc.add_witness(c, RACE, name="W", designated_by="Ada",
                                               side="Ada")),
    ("add-envelope", _started, lambda c: rc.add_envelope(
        c, RACE, envelope_id="E9", precinct="P2", original_reason="Late")),
    ("check-envelope", _env, lambda c: rc.record_envelope_checks(c, RACE, "E1",
                                                                  checks=ALL_PASS)),
    ("decide-envelope", _checked, lambda c: rc.decide_envelope(
        c, RACE, "E1", outcome=EnvelopeOutcome.ACCEPTED, decided_by="Sup",
        votes=EnvelopeVotes({"Ada": 1}))),
    ("no-envelopes", _started, lambda c: rc.confirm_no_envelopes(c, RACE)),
    ("declare", complete_race, lambda c: rc.declare(c, RACE)),
    ("cost", None, lambda c: rc.add_cost(c, RACE, kind=CostKind.MATERIALS,
                                         description="Seals", amount_cents=100)),
    ("board", None, lambda c: rc.set_board_members(c, RACE, [BoardMember("A", "Chair")])),
    ("convene", None, lambda c: rc.convene_board(
        c, RACE, convened_at=datetime(2024, 11, 26, 10), place="Room", body_size=3)),
    ("sign", _convened, lambda c: rc.sign_report(
        c, RACE, signed_at=datetime(2024, 11, 26, 11), signers=["A", "B", "C"],
        confirmed=True)),
    ("reopen", _signed, lambda c: rc.reopen(c, RACE, reason="Typo in a tally")),
]


@pytest.mark.parametrize(("setup", "act"), [(s, a) for _, s, a in ACTIONS],
                         ids=[n for n, _, _ in ACTIONS])
def test_every_action_appends_exactly_one_audit_entry(case: Case, setup: Setup | None,
                                                      act: Act) -> None:
    if setup:
        setup(case)
    before = audit_count(case)
    act(case)
    assert audit_count(case) == before + 1
    assert verify_case(case.path).ok


REFUSED: list[tuple[str, Setup | None, Act, type[Exception], str]] = [
    ("enter-before-start", None, lambda c: rc.enter_tally(
        c, RACE, "P1", entry=1, officer="Dana", sheet=S(1, 1)), rc.RecountNotStarted, "not been"),
    ("warning-without-note", _started, lambda c: rc.enter_tally(
        c, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, ballots=25)),
     rc.WarningNeedsNote, "accept it with a note"),
    ("same-officer-twice", _started, lambda c: (
        rc.enter_tally(c, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9)),
        rc.enter_tally(c, RACE, "P1", entry=2, officer="dana", sheet=S(10, 9)))[-1],
     rc.RecountError, "second person"),
    ("negative", _started, lambda c: rc.enter_tally(
        c, RACE, "P1", entry=1, officer="Dana", sheet=S(-1, 9)), rc.RecountError, "negative"),
    ("unknown-unit", _started, lambda c: rc.enter_tally(
        c, RACE, "P9", entry=1, officer="Dana", sheet=S(1, 1)), rc.RecountError, "no unit"),
    ("declare-incomplete", _started, lambda c: rc.declare(c, RACE), rc.OverrideRequired,
     "override"),
    ("accept-unchecked", _env, lambda c: rc.decide_envelope(
        c, RACE, "E1", outcome=EnvelopeOutcome.ACCEPTED, decided_by="S",
        votes=EnvelopeVotes({"Ada": 1})), rc.RecountError, "cannot be accepted"),
    ("reject-without-reason", _env, lambda c: rc.decide_envelope(
        c, RACE, "E1", outcome=EnvelopeOutcome.REJECTED, decided_by="S"),
     rc.RecountError, "reason"),
    ("envelope-twice", _env, lambda c: rc.add_envelope(
        c, RACE, envelope_id="E1", precinct="P1", original_reason="x"), rc.RecountError,
     "already in this case"),
    ("sign-before-board", _declared, lambda c: rc.sign_report(
        c, RACE, signed_at=datetime(2024, 11, 26), signers=["A"]), rc.RecountError,
     "not been convened"),
    ("write-when-locked", _signed, lambda c: rc.add_cost(
        c, RACE, kind=CostKind.OTHER, description="x", amount_cents=1), rc.ContestLocked,
     "locked"),
    ("enter-when-locked", _signed, lambda c: rc.enter_tally(
        c, RACE, "P1", entry=1, officer="Dana", sheet=S(1, 1)), rc.ContestLocked, "Reopen"),
    ("reopen-without-reason", _signed, lambda c: rc.reopen(c, RACE, reason=" "),
     rc.RecountError, "reason"),
    ("restart-after-entries", _mismatch, _started, rc.RecountError, "no longer change"),
    ("witness-for-stranger", None, lambda c: rc.add_witness(
        c, RACE, name="W", designated_by="Zed", side="Zed"), rc.RecountError, "not a candidate"),
    ("proposition-witness-side", None, lambda c: rc.add_witness(
        c, PROP, name="W", designated_by="PAC", side="Ada"), rc.RecountError, "proponents"),
    ("staff-cost-needs-rate", None, lambda c: rc.add_cost(
        c, RACE, kind=CostKind.STAFF, description="x", hours_hundredths=100),
     rc.RecountError, "rate"),
    ("no-such-contest", None, lambda c: rc.start_recount(
        c, 99, method=RecountMethod.RETABULATION), rc.RecountError, "no contest"),
]


@pytest.mark.parametrize(("setup", "act", "exc", "words"),
                         [(s, a, e, w) for _, s, a, e, w in REFUSED],
                         ids=[r[0] for r in REFUSED])
def test_refused_actions_explain_and_change_nothing(case: Case, setup: Setup | None, act: Act,
                                                    exc: type[Exception], words: str) -> None:
    if setup:
        setup(case)
    before = audit_count(case)
    digest = store.state_digest(case.conn)
    with pytest.raises(exc, match=words):
        act(case)
    assert audit_count(case) - before <= 1  # "same-officer-twice" saved its first entry
    if audit_count(case) == before:
        assert store.state_digest(case.conn) == digest
    assert verify_case(case.path).ok


# -- tally entry, double entry, resolution ---------------------------------------------

def test_warning_is_accepted_with_a_note(case: Case) -> None:
    _started(case)
    res = rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana",
                         sheet=S(10, 9, 1, ballots=21), warning_note="One ballot torn, "
                         "remade; the tape shows 21.")
    assert res.check is not None
    assert not res.check.ok
    rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 9, 1, ballots=21),
                   warning_note="as first")
    row = rc.unit_list(case, RACE)[0]
    assert row.status is UnitStatus.ACCEPTED_WITH_WARNING
    assert "torn" in row.state.note


def test_partial_entry_is_saved_and_empty_is_not_zero(case: Case) -> None:
    _started(case)
    res = rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=S(10, None))
    assert res.state.status is UnitStatus.FIRST_ENTRY
    assert res.missing == ("Ballots counted", "Ben")
    got = rc.entry_of(case, RACE, "P1", 1)
    assert got is not None
    assert got.sheet.votes["Ben"] is None


@pytest.mark.parametrize(("kind", "corrected", "ben"), [
    (ResolutionKind.KEEP_FIRST, None, 9),
    (ResolutionKind.KEEP_SECOND, None, 8),
    (ResolutionKind.CORRECTED, S(10, 7, 3), 7),
], ids=["keep-first", "keep-second", "corrected"])
def test_mismatch_shows_fields_and_is_resolved(case: Case, kind: ResolutionKind,
                                               corrected: TallySheet | None, ben: int) -> None:
    _mismatch(case)
    row = rc.unit_list(case, RACE)[0]
    assert row.status is UnitStatus.MISMATCH
    assert [(d.label, d.first, d.second) for d in rc.differences(case, RACE, "P1")] == [
        ("Ben", 9, 8), ("Under-votes", 1, 2)]
    state = rc.resolve_mismatch(case, RACE, "P1", kind=kind, by="Sup", corrected=corrected,
                                note="Ballots looked at")
    assert state.status is UnitStatus.RECONCILED
    assert state.final is not None
    assert state.final.votes["Ben"] == ben
    # A new second entry makes the resolution stale: the unit must be settled again.
    rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 6, 4))
    assert rc.unit_list(case, RACE)[0].status is UnitStatus.MISMATCH


def test_single_entry_counts_after_one_entry(case: Case) -> None:
    rc.start_recount(case, RACE, method=RecountMethod.RETABULATION,
                     entry_mode=EntryMode.SINGLE)
    enter_all(case, MATCH, double=False)
    st_ = rc.recount_state(case, RACE)
    assert st_.readiness.units_counted == 3
    with pytest.raises(rc.RecountError, match="single entry"):
        rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(1, 1))


def test_batches_cover_precincts(case: Case) -> None:
    with pytest.raises(rc.RecountError, match="Not covered"):
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT,
                         batches=[RecountUnit("Batch A", ("P1", "P2"))])
    state = rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT, batches=[
        RecountUnit("Batch A", ("P1", "P2")), RecountUnit("Batch B", ("P3",))])
    assert [u.name for u in state.units] == ["Batch A", "Batch B"]
    rc.enter_tally(case, RACE, "Batch A", entry=1, officer="Dana", sheet=S(22, 21, 1))
    rc.enter_tally(case, RACE, "Batch A", entry=2, officer="Marcus", sheet=S(22, 21, 1))
    v = rc.variance(case, RACE)
    assert v.rows[0].canvass == {"Ada": 22, "Ben": 21}
    assert v.rows[0].change == {"Ada": 0, "Ben": 0}
    assert not v.complete


def test_variance_per_unit_and_total_with_notes(case: Case) -> None:
    sheets = dict(MATCH)
    sheets["P2"] = S(13, 12, 0)
    complete_race(case, sheets)
    rc.set_variance_note(case, RACE, "P2", "Faint mark read on recount")
    v = rc.variance(case, RACE)
    row = next(r for r in v.rows if r.unit == "P2")
    assert row.change == {"Ada": 1, "Ben": 0}
    assert row.note == "Faint mark read on recount"
    assert dict(v.change_total) == {"Ada": 1, "Ben": 0}
    assert v.complete


# -- envelopes -------------------------------------------------------------------------

def write_csv(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "envelopes.csv"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(("text", "problems"), [
    ("Envelope ID,Precinct,Original Reason\nE1,P1,Signature\nE1,P2,Late\n", ["listed twice"]),
    ("Envelope ID,Precinct,Original Reason\nE1,P7,Signature\n,P1,\n",
     ["not a precinct", "envelope id is empty", "Say why"]),
    ("id,precinct\nE1,P1\n", ["missing: original reason"]),
    ("", ["empty"]),
], ids=["duplicate", "bad-rows", "missing-column", "empty-file"])
def test_envelope_csv_errors_import_nothing(case: Case, tmp_path: Path, text: str,
                                            problems: list[str]) -> None:
    _started(case)
    before = audit_count(case)
    with pytest.raises(rc.EnvelopeImportRefused) as info:
        rc.import_envelopes_csv(case, RACE, write_csv(tmp_path, text))
    messages = " ".join(i.message for i in info.value.issues)
    for p in problems:
        assert p in messages
    assert all(i.row is not None for i in info.value.issues if "row" in str(i))
    assert audit_count(case) == before
    assert rc.envelope_list(case, RACE) == []


def test_envelope_csv_import_then_decide(case: Case, tmp_path: Path) -> None:
    complete_race(case)
    rc.confirm_no_envelopes(case, RACE, confirmed=False)
    got = rc.import_envelopes_csv(case, RACE, write_csv(
        tmp_path, "envelope_id;precinct;reason\nE1;p1;Signature mismatch\nE2;P3;Late\n"))
    assert got.added == 2
    with pytest.raises(rc.EnvelopeImportRefused, match="1 problem"):
        rc.import_envelopes_csv(case, RACE, write_csv(
            tmp_path, "envelope id,precinct,original reason\nE2,P3,again\n"))
    view = rc.record_envelope_checks(case, RACE, "E1", checks={
        c: True for c in ALL_PASS if c is not EnvelopeCheck.IN_TIME},
        postmarked=date(2024, 11, 4), received_at=datetime(2024, 11, 6, 9))
    assert view.record.checks[EnvelopeCheck.IN_TIME] is True
    assert view.assessment.may_accept
    rc.decide_envelope(case, RACE, "E1", outcome=EnvelopeOutcome.ACCEPTED, decided_by="Sup",
                       votes=EnvelopeVotes({"Ben": 1}))
    rc.record_envelope_checks(case, RACE, "E2", checks={EnvelopeCheck.IN_TIME: False})
    rc.decide_envelope(case, RACE, "E2", outcome=EnvelopeOutcome.REJECTED, decided_by="Sup",
                       reason=RejectionReason.LATE)
    summary = [(r.outcome, r.reason, r.count) for r in rc.envelope_summary_of(case, RACE)]
    assert summary == [(EnvelopeOutcome.ACCEPTED, "Accepted and counted", 1),
                       (EnvelopeOutcome.REJECTED, "Rejected as not returned in time", 1)]
    state = rc.recount_state(case, RACE)
    assert state.totals == {"Ada": 30, "Ben": 30}
    assert rc.variance(case, RACE).rows[0].change == {"Ada": 0, "Ben": 1}
    assert state.readiness.complete


# -- declaration, lot, override --------------------------------------------------------

def test_override_is_recorded(case: Case) -> None:
    _started(case)
    with pytest.raises(rc.OverrideRequired) as info:
        rc.declare(case, RACE)
    assert info.value.blockers
    d = rc.declare(case, RACE, override_reason="Court order to certify by noon")
    assert d.override_reason == "Court order to certify by noon"
    assert not d.complete
    cl = rc.recount_state(case, RACE).checklist
    assert next(s for s in cl.steps if s.stage is Stage.DECLARED).detail == \
        "Declared with an override"


def test_tie_requires_a_lot_and_records_it(case: Case) -> None:
    sheets = dict(MATCH)
    sheets["P1"] = S(9, 9, 2)  # Ada 29, Ben 29: a tie on the recount
    complete_race(case, sheets)
    with pytest.raises(rc.LotRequired) as info:
        rc.declare(case, RACE, on=date(2024, 11, 21))
    assert info.value.tied == ("Ada", "Ben")
    assert info.value.rule.who == "The election officer"
    assert info.value.rule.deadline == date(2024, 11, 25)
    lot = Lot("Test Clerk", datetime(2024, 11, 26, 10), "Council chambers",
              "Names drawn from a closed box", ("Ruth Kessler",), ("Ben",))
    d = rc.declare(case, RACE, lot=lot, on=date(2024, 11, 21))
    assert d.elected == ("Ben",)
    assert d.lot is not None
    assert d.lot.chosen == ("Ben",)
    assert d.lot_late  # drawn after Monday Nov 25


def test_declaration_is_withdrawn_when_the_count_changes(case: Case) -> None:
    _declared(case)
    assert rc.recount_state(case, RACE).declaration is not None
    rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(11, 9, 0))
    st_ = rc.recount_state(case, RACE)
    assert st_.declaration is None
    assert st_.checklist.stage is Stage.UNDER_WAY


def test_proposition_recount_declares_passed(case: Case) -> None:
    rc.start_recount(case, PROP, method=RecountMethod.RETABULATION)
    for p, (y, n) in {"P1": (10, 10), "P2": (11, 10), "P3": (10, 10)}.items():
        s = TallySheet(y + n, {"Yes": y, "No": n}, None, 0, 0)
        rc.enter_tally(case, PROP, p, entry=1, officer="Dana", sheet=s)
        rc.enter_tally(case, PROP, p, entry=2, officer="Marcus", sheet=s)
    rc.confirm_no_envelopes(case, PROP)
    rc.add_witness(case, PROP, name="P. Rep", designated_by="Yes on 1", side="Proponents")
    d = rc.declare(case, PROP)
    assert d.result == "passed"
    assert rc.witnesses(case, PROP)[0].side == "proponents"


# -- board, signing, locking -----------------------------------------------------------

@pytest.mark.parametrize(("present", "body", "ok"), [(3, 3, True), (2, 3, False),
                                                     (4, 7, True), (3, 7, False)],
                         ids=["3-of-3", "2-of-3", "4-of-7", "3-of-7"])
def test_board_quorum_gates_signing(case: Case, present: int, body: int, ok: bool) -> None:
    _declared(case)
    members = [BoardMember(f"Member {i}", "Council Member", present=i < present)
               for i in range(body)]
    members.append(BoardMember("Clerk", "County Clerk", BoardRole.CLERK))
    rc.set_board_members(case, RACE, members)
    view = rc.convene_board(case, RACE, convened_at=datetime(2024, 11, 26, 10),
                            place="Chambers", body_size=body)
    assert view.quorum is not None
    assert view.quorum.ok is ok
    names = [m.name for m in members if m.present]
    if ok:
        rc.sign_report(case, RACE, signed_at=datetime(2024, 11, 26, 11), signers=names,
                       confirmed=True)
    else:
        with pytest.raises(rc.RecountError, match="no quorum"):
            rc.sign_report(case, RACE, signed_at=datetime(2024, 11, 26, 11), signers=names,
                           confirmed=True)


def _board_of_five(c: Case) -> None:
    """Five council seats, four members present, the clerk of the board; convened."""
    _declared(c)
    rc.set_board_members(c, RACE, [
        BoardMember("Evelyn Marsh", "Chair"), BoardMember("Priya Castillo", "Member"),
        BoardMember("Jonah Redd", "Member"), BoardMember("Lila Sorensen", "Member"),
        BoardMember("Omar Haddad", "Member", present=False),
        BoardMember("Nora Ashby", "County Clerk", BoardRole.CLERK)])
    rc.convene_board(c, RACE, convened_at=datetime(2024, 11, 26, 10), place="Chambers",
                     body_size=5)


AT = datetime(2024, 11, 26, 11)
BOARD3 = ["Evelyn Marsh", "Priya Castillo", "Jonah Redd"]


@pytest.mark.parametrize(("signers", "at", "place", "refusal"), [
    ([*BOARD3, "Mickey Mouse"], AT, None, "Mickey Mouse is not a member of the board"),
    ([*BOARD3, "Omar Haddad"], AT, None, "Omar Haddad is recorded absent"),
    ([*BOARD3, "evelyn  marsh"], AT, None, "named twice"),
    (BOARD3, datetime(2024, 11, 25, 16), None, "cannot come before the board convened"),
    (BOARD3, AT, " ", "give the place"),
    (["Nora Ashby"], AT, None, "no member of the board signs"),
], ids=["mickey-mouse", "absent-member", "twice", "before-convening",
        "no-place", "clerk-alone"])
def test_signing_refused_names_why_and_writes_nothing(case: Case, signers: list[str],
                                                      at: datetime, place: str | None,
                                                      refusal: str) -> None:
    _board_of_five(case)
    before = audit_count(case)
    with pytest.raises(rc.RecountError) as got:
        rc.sign_report(case, RACE, signed_at=at, signers=signers, place=place,
                       confirmed=True)
    assert refusal in str(got.value)
    assert not isinstance(got.value, rc.SigningNeedsConfirmation)
    assert audit_count(case) == before
    assert not rc.recount_state(case, RACE).locked


def test_signing_asks_for_confirmation_then_records_time_place_and_the_board(
        case: Case) -> None:
    _board_of_five(case)
    before = audit_count(case)
    names = ["evelyn marsh", "Priya Castillo", "Jonah Redd", "Nora Ashby", "tester"]
    with pytest.raises(rc.SigningNeedsConfirmation) as ask:
        rc.sign_report(case, RACE, signed_at=AT, signers=names)
    assert audit_count(case) == before  # nothing written before the confirmation
    text = str(ask.value)
    assert "locks the contest" in text and "at Chambers" in text
    assert "3 of the 4 member(s) present sign" in text and "quorum present" in text
    got = rc.sign_report(case, RACE, signed_at=AT, signers=names, place="Room 2",
                         confirmed=True)
    # the board step's spelling is recorded; the clerk of the board and the election
    # officer (the roster's) sign beside the members
    assert got.signers == ("Evelyn Marsh", "Priya Castillo", "Jonah Redd", "Nora Ashby",
                           "tester")
    assert got.place == "Room 2" and got.signed_at == AT
    payload = json.loads(case.conn.execute(
        "SELECT payload FROM audit ORDER BY seq DESC LIMIT 1").fetchone()[0])["data"]
    assert payload["place"] == "Room 2" and payload["board_signers"] == 3


def test_cli_sign_prints_the_question_and_records_only_with_yes(case: Case,
                                                                 capsys: pytest.CaptureFixture[str]
                                                                 ) -> None:
    _board_of_five(case)
    path = str(case.path)
    case.close()
    args = ["--as", "tester", "sign", path, "--contest", str(RACE), "--signed-at",
            "2024-11-26T11:00"] + [a for n in BOARD3 for a in ("--signer", n)]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "locks the contest" in out and "Nothing was written" in out
    assert cli.main([*args, "--signer", "Mickey Mouse", "--yes"]) == 1
    assert "Mickey Mouse is not a member" in capsys.readouterr().err
    assert cli.main([*args, "--yes"]) == 0
    assert "the contest is locked" in capsys.readouterr().out


def test_sign_locks_and_reopen_unlocks_with_reason(case: Case) -> None:
    _signed(case)
    st_ = rc.recount_state(case, RACE)
    assert st_.locked
    assert st_.checklist.stage is Stage.SIGNED
    with pytest.raises(rc.ContestLocked):
        rc.set_variance_note(case, RACE, "P1", "x")
    rc.reopen(case, RACE, reason="The board found a transposed figure in P2")
    st_ = rc.recount_state(case, RACE)
    assert not st_.locked
    assert st_.reopens[0].reason.startswith("The board found")
    rc.set_variance_note(case, RACE, "P1", "x")
    # Other contests were never locked.
    rc.start_recount(case, PROP, method=RecountMethod.RETABULATION)


def test_cost_statement(case: Case) -> None:
    rc.add_cost(case, RACE, kind=CostKind.STAFF, description="2 deputies",
                hours_hundredths=1300, rate_cents=2450)
    cid = rc.add_cost(case, RACE, kind=CostKind.MATERIALS, description="Seals",
                      amount_cents=4200)
    rc.add_cost(case, RACE, kind=CostKind.OTHER, description="Courier", amount_cents=3500)
    rc.remove_cost(case, RACE, cid)
    stmt = rc.cost_statement_of(case, RACE)
    assert stmt.total_cents == 31850 + 3500
    assert stmt.payer.startswith("The political subdivision")
    assert len(rc.costs(case, RACE)) == 2


# -- property: any order of entries gives units + envelopes ----------------------------

small = st.integers(min_value=0, max_value=40)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(small, small, small), min_size=3, max_size=3),
       st.lists(st.tuples(small, small, small), min_size=3, max_size=3),
       st.permutations([(u, e) for u in range(3) for e in (1, 2)]),
       st.lists(st.sampled_from(["Ada", "Ben", None]), max_size=3))
def test_totals_equal_units_plus_accepted_envelopes_in_any_order(
        final: list[tuple[int, int, int]], noise: list[tuple[int, int, int]],
        order: list[tuple[int, int]], envelopes: list[str | None]) -> None:
    with tempfile.TemporaryDirectory() as d:
        c = make_case(Path(d) / "p.recount")
        try:
            rc.start_recount(c, RACE, method=RecountMethod.RETABULATION)
            seen: set[tuple[int, int]] = set()
            for u, e in order:
                who = "Dana" if e == 1 else "Marcus"
                if (u, e) not in seen and u % 2 == 0:
                    # a first attempt with other numbers, replaced by the right sheet
                    a, b, un = noise[u]
                    rc.enter_tally(c, RACE, PRECINCTS[u], entry=e, officer=who,
                                   sheet=S(a, b, un))
                seen.add((u, e))
                a, b, un = final[u]
                rc.enter_tally(c, RACE, PRECINCTS[u], entry=e, officer=who, sheet=S(a, b, un))
            for i, who in enumerate(envelopes):
                rc.add_envelope(c, RACE, envelope_id=f"E{i}", precinct=PRECINCTS[i % 3],
                                original_reason="Signature")
                rc.record_envelope_checks(c, RACE, f"E{i}", checks=ALL_PASS)
                if who is None:
                    rc.decide_envelope(c, RACE, f"E{i}", outcome=EnvelopeOutcome.REJECTED,
                                       decided_by="S", reason=RejectionReason.DEFECTIVE)
                else:
                    rc.decide_envelope(c, RACE, f"E{i}", outcome=EnvelopeOutcome.ACCEPTED,
                                       decided_by="S", votes=EnvelopeVotes({who: 1}))
            state = rc.recount_state(c, RACE)
            assert state.readiness.units_counted == 3
            want = {"Ada": sum(f[0] for f in final) + envelopes.count("Ada"),
                    "Ben": sum(f[1] for f in final) + envelopes.count("Ben")}
            assert dict(state.totals) == want
            assert dict(rc.variance(c, RACE).recount_total) == want
        finally:
            c.close()


# -- status command and the demo -------------------------------------------------------

def test_status_command_prints_each_contest(case: Case,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    record_request(case, RACE, requester=Requester.CANDIDATE, candidate="Ben", voters=[],
                   filed_at=datetime(2024, 11, 20, 9), filed_with=Office.COUNTY_CLERK)
    _mismatch(case)
    path = case.path
    case.close()
    assert cli.main(["status", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("[1] Mayor — recount under way; 0 of 3 units reconciled; 0 envelopes "
                      "reexamined")
    assert out[1] == "[2] Prop 1 — not requested"
    assert cli.main(["status", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["stage"] == "under_way"
    assert data[0]["steps"][2]["blocker"]


def test_demo_has_a_declared_recount(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The demo: Salt Lake County 2016, State House 32, loaded from the county's recount
    statement (issue 20 item 5)."""
    from recount_desk.actions import retab

    case = build_demo_case(tmp_path / "demo.recount")
    try:
        rows = {r.title: r for r in rc.status(case)}
        sh = rows["State House — District 32"]
        assert sh.line == ("State House — District 32 — board convened; 39 of 39 units "
                           "reconciled; 2 envelopes reexamined")
        state = rc.recount_state(case, sh.contest_id)
        assert state.settings is not None
        assert state.settings.method is RecountMethod.RETABULATION
        assert dict(state.totals) == {"Suzanne Harrison": 8536, "Lavar Christensen": 8541}
        assert state.declaration is not None
        assert state.declaration.elected == ("Lavar Christensen",)
        assert not state.locked
        loads = retab.loads(case, sh.contest_id)
        assert [(ld.file, ld.sha256[:12], ld.units) for ld in loads] == [
            ("SOVC - Salt Lake Recount.xlsx", "e1512f36d032", 39)]
        assert [e.record.outcome for e in rc.envelope_list(case, sh.contest_id)] == [
            EnvelopeOutcome.REJECTED, EnvelopeOutcome.REJECTED]
        assert state.board.quorum is not None
        assert state.board.quorum.ok
    finally:
        case.close()
    assert verify_case(tmp_path / "demo.recount").ok
    assert cli.main(["status", "--demo"]) == 0
    assert "State House — District 32 — board convened" in capsys.readouterr().out


def test_the_report_names_roster_people_not_logins(case: Case) -> None:
    """Who entered and who resolved each unit, and who acted in the log, are people of the
    roster (as the roster spells them); the workstation's login is kept beside them."""
    from recount_desk.actions import report as report_actions

    _started(case)
    case.act_as("dana")  # the deputy at the keyboard says who she is
    rc.enter_tally(case, RACE, "P1", entry=1, officer="dana", sheet=S(10, 9, 1))
    rc.enter_tally(case, RACE, "P1", entry=2, officer="marcus", sheet=S(10, 8, 2))
    case.act_as("Sup")
    rc.resolve_mismatch(case, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, by="sup",
                        note="Tape re-read")
    case.act_as("tester")
    for p, s in MATCH.items():
        if p != "P1":
            rc.enter_tally(case, RACE, p, entry=1, officer="Dana", sheet=s)
            rc.enter_tally(case, RACE, p, entry=2, officer="Marcus", sheet=s)
    rc.confirm_no_envelopes(case, RACE)
    rc.declare(case, RACE)
    _board_of_five_members(case)
    data = report_actions.build_report_data(case, RACE)
    p1 = next(u for u in data.units if u.name == "P1")
    assert p1.entered_by == ("Dana", "Marcus")
    assert "by Sup" in p1.resolution
    rows = case.conn.execute("SELECT actor, payload FROM audit WHERE action IN "
                             "('enter tally', 'resolve tally mismatch') ORDER BY seq").fetchall()
    assert [a for a, _ in rows[:3]] == ["Dana", "Dana", "Sup"]
    assert all(json.loads(p)["login"] == case.login for _, p in rows)


def _board_of_five_members(c: Case) -> None:
    rc.set_board_members(c, RACE, [BoardMember(n, "Member") for n in "ABCDE"])
    rc.convene_board(c, RACE, convened_at=datetime(2024, 11, 26, 10), place="Chambers",
                     body_size=5)


@pytest.mark.parametrize(("kind", "present", "body", "ok"), [
    (BoardKind.STATE, 2, 3, False), (BoardKind.STATE, 3, 3, True),
    (BoardKind.COUNTY, 2, 3, False), (BoardKind.COUNTY, 3, 5, True),
    (BoardKind.MUNICIPAL, 2, 3, True), (BoardKind.MUNICIPAL, 2, 5, False),
], ids=["state-2-of-3", "state-3-of-3", "county-2-of-3", "county-3-of-5",
        "municipal-2-of-3", "municipal-2-of-5"])
def test_the_checklist_and_the_report_agree_on_the_quorum(case: Case, kind: BoardKind,
                                                          present: int, body: int,
                                                          ok: bool) -> None:
    from recount_desk.actions import report as report_actions
    from recount_desk.core.report_model import quorum_statement

    _declared(case)
    rc.set_board_members(case, RACE, [BoardMember(f"M{i}", "Member", present=i < present)
                                      for i in range(body)])
    rc.convene_board(case, RACE, convened_at=datetime(2024, 11, 26, 10), place="Office",
                     body_size=body, board_kind=kind)
    step = next(s for s in rc.recount_state(case, RACE).checklist.steps
                if s.stage is Stage.BOARD_CONVENED)
    board = report_actions.build_report_data(case, RACE).board
    assert (step.done, board.quorum_met) == (ok, ok)
    assert quorum_statement(board).startswith("A quorum is present" if ok else "NO QUORUM")
