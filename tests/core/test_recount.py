"""core.recount: tally sheets, double entry, envelopes, declaration and lot, costs, quorum."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    ElectionKind,
    Scope,
)
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    BoardRole,
    ChecklistInput,
    CostItem,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeRecord,
    EnvelopeVotes,
    Lot,
    RecountUnit,
    RejectionReason,
    Resolution,
    ResolutionKind,
    SheetLayout,
    Stage,
    TallyEntry,
    TallySheet,
    UnitStatus,
    assess_envelope,
    check_units,
    checklist,
    compare,
    consistency,
    cost_statement,
    declaration,
    envelope_summary,
    format_cents,
    lot_problems,
    lot_rule,
    parse_cents,
    parse_hours,
    quorum,
    readiness,
    recount_totals,
    return_rule,
    returned_in_time,
    signing_plan,
    staff_cost,
    status_line,
    unit_state,
    units_from_precincts,
    variance_table,
)
from recount_desk.core.rules import Edition, Result

LAYOUT = SheetLayout(("Ada", "Ben"), 1, True)
UNIT = RecountUnit("P1", ("P1",))


def sheet(ballots: int | None = 10, ada: int | None = 6, ben: int | None = 3,
          wi: int | None = 0, over: int | None = 0, under: int | None = 1) -> TallySheet:
    return TallySheet(ballots, {"Ada": ada, "Ben": ben}, wi, over, under)


@pytest.mark.parametrize(("s", "layout", "ok"), [
    (sheet(), LAYOUT, True),
    (sheet(under=2), LAYOUT, False),
    (sheet(ballots=None), LAYOUT, None),
    (sheet(ada=None), LAYOUT, None),
    (TallySheet(10, {"Ada": 9, "Ben": 8}, 1, 0, 2), SheetLayout(("Ada", "Ben"), 2), True),
    (TallySheet(10, {"Ada": 9, "Ben": 8}, 1, 0, 1), SheetLayout(("Ada", "Ben"), 2), False),
    (TallySheet(5, {"Yes": 3, "No": 2}, 0, 0, 0), SheetLayout(("Yes", "No"), 1, False), True),
], ids=["balanced", "one-off", "ballots-missing", "choice-missing", "two-seats-balanced",
        "two-seats-off", "proposition"])
def test_consistency_check_is_a_value_and_none_while_incomplete(
        s: TallySheet, layout: SheetLayout, ok: bool | None) -> None:
    check = consistency(s, layout)
    if ok is None:
        assert check is None
    else:
        assert check is not None
        assert check.ok is ok
        assert check.expected == s.ballots * layout.seats  # type: ignore[operator]


def test_empty_is_not_zero() -> None:
    assert sheet(ada=None).missing(LAYOUT) == ("votes:Ada",)
    assert sheet(ada=0).missing(LAYOUT) == ()


def test_compare_lists_fields_that_differ() -> None:
    diffs = compare(sheet(), sheet(ben=4, under=0), LAYOUT)
    assert [(d.label, d.first, d.second) for d in diffs] == [("Ben", 3, 4),
                                                              ("Under-votes", 1, 0)]


def E(n: int, s: TallySheet, note: str = "", who: str | None = None) -> TallyEntry:
    return TallyEntry(n, who or f"officer{n}", s, note)


@pytest.mark.parametrize(("mode", "first", "second", "res", "status"), [
    (EntryMode.DOUBLE, None, None, None, UnitStatus.NOT_STARTED),
    (EntryMode.DOUBLE, E(1, sheet(ben=None)), None, None, UnitStatus.FIRST_ENTRY),
    (EntryMode.DOUBLE, E(1, sheet()), None, None, UnitStatus.AWAITING_SECOND),
    (EntryMode.DOUBLE, E(1, sheet()), E(2, sheet(ben=None)), None, UnitStatus.AWAITING_SECOND),
    (EntryMode.DOUBLE, E(1, sheet()), E(2, sheet()), None, UnitStatus.RECONCILED),
    (EntryMode.DOUBLE, E(1, sheet()), E(2, sheet(ben=4, under=0)), None, UnitStatus.MISMATCH),
    (EntryMode.DOUBLE, E(1, sheet()), E(2, sheet(ben=4, under=0)),
     Resolution(ResolutionKind.KEEP_SECOND, sheet(ben=4, under=0), "sup"),
     UnitStatus.RECONCILED),
    (EntryMode.SINGLE, E(1, sheet()), None, None, UnitStatus.RECONCILED),
    (EntryMode.SINGLE, E(1, sheet(under=5), "tape torn"), None, None,
     UnitStatus.ACCEPTED_WITH_WARNING),
    (EntryMode.SINGLE, E(1, sheet(under=5)), None, None, UnitStatus.WARNING_NEEDS_NOTE),
], ids=["nothing", "partial-first", "awaiting-second", "partial-second", "match", "mismatch",
        "resolved", "single", "single-warning-noted", "single-warning-no-note"])
def test_unit_status(mode: EntryMode, first: TallyEntry | None, second: TallyEntry | None,
                     res: Resolution | None, status: UnitStatus) -> None:
    state = unit_state(UNIT, LAYOUT, mode, first, second, res)
    assert state.status is status
    assert (state.final is not None) is status.counts
    assert bool(state.todo) is not status.counts


@pytest.mark.parametrize(("units", "fragment"), [
    ((RecountUnit("A", ("P1", "P2")),), "Not covered"),
    ((RecountUnit("A", ("P1", "P2")), RecountUnit("B", ("P2", "P3"))), "in both"),
    ((RecountUnit("A", ("P1", "P2", "P3", "P9")),), "no votes"),
    ((RecountUnit("A", ("P1",)), RecountUnit("A", ("P2", "P3"))), "Two units"),
    ((), "at least one"),
], ids=["missing", "twice", "unknown", "duplicate-name", "none"])
def test_units_must_cover_every_precinct_once(units: tuple[RecountUnit, ...],
                                               fragment: str) -> None:
    problems = check_units(units, ["P1", "P2", "P3"])
    assert any(fragment in p for p in problems)


def test_units_from_precincts_cover_all() -> None:
    assert check_units(units_from_precincts(["P1", "P2"]), ["P1", "P2"]) == ()


ELECTION_2018 = date(2018, 11, 6)


@pytest.mark.parametrize(("when", "canvass", "postmark", "received", "ok"), [
    (ELECTION_2018, date(2018, 11, 20), date(2018, 11, 5), datetime(2018, 11, 8, 9), True),
    (ELECTION_2018, date(2018, 11, 20), date(2018, 11, 6), datetime(2018, 11, 8, 9), False),
    (ELECTION_2018, date(2018, 11, 20), date(2018, 11, 5), datetime(2018, 11, 20, 12, 0),
     False),
    (ELECTION_2018, date(2018, 11, 20), date(2018, 11, 5), datetime(2018, 11, 20, 11, 59),
     True),
    (ELECTION_2018, None, date(2018, 11, 5), datetime(2018, 11, 8, 9), None),
    (ELECTION_2018, date(2018, 11, 20), None, datetime(2018, 11, 8, 9), None),
    (date(2025, 11, 4), None, None, datetime(2025, 11, 4, 20, 0), True),
    (date(2025, 11, 4), None, date(2025, 11, 3), datetime(2025, 11, 5, 9, 0), False),
], ids=["2018-in-time", "2018-postmarked-election-day", "2018-noon-canvass-day",
        "2018-just-before-noon", "2018-no-canvass-date", "2018-no-postmark", "2025-by-8pm",
        "2025-next-day"])
def test_returned_in_time_follows_the_rule_of_the_date(
        when: date, canvass: date | None, postmark: date | None, received: datetime,
        ok: bool | None) -> None:
    rule = return_rule(when)
    assert returned_in_time(rule, when, canvass, postmark, received).ok is ok


@pytest.mark.parametrize(("when", "id_digits", "unconfirmed"), [
    (date(2016, 11, 8), False, False),
    (date(2022, 11, 8), False, True),
    (date(2025, 11, 4), False, True),
    (date(2026, 11, 3), True, True),
], ids=["2016", "2022-secondary", "2025-hb300", "2026-id-digits"])
def test_return_rule_shows_its_assumptions(when: date, id_digits: bool,
                                           unconfirmed: bool) -> None:
    rule = return_rule(when)
    assert rule.id_digits_required is id_digits
    assert (EnvelopeCheck.ID_DIGITS in rule.checks()) is id_digits
    assert bool(rule.assumptions) is unconfirmed


@pytest.mark.parametrize(("checks", "may", "reason"), [
    ({c: True for c in EnvelopeCheck}, True, None),
    ({EnvelopeCheck.AFFIDAVIT: True}, False, None),
    ({**{c: True for c in EnvelopeCheck}, EnvelopeCheck.REGISTERED: False}, False,
     RejectionReason.NOT_REGISTERED),
    ({**{c: True for c in EnvelopeCheck}, EnvelopeCheck.SIGNATURE: False}, False,
     RejectionReason.DEFECTIVE),
    ({**{c: True for c in EnvelopeCheck}, EnvelopeCheck.IN_TIME: False}, False,
     RejectionReason.LATE),
], ids=["all-pass", "unchecked", "not-registered", "signature", "late"])
def test_envelope_assessment(checks: dict[EnvelopeCheck, bool], may: bool,
                             reason: RejectionReason | None) -> None:
    a = assess_envelope(checks, return_rule(ELECTION_2018))
    assert a.may_accept is may
    assert a.suggested_reason is reason


@pytest.mark.parametrize(("votes", "layout", "ok"), [
    (EnvelopeVotes({"Ada": 1}), LAYOUT, True),
    (EnvelopeVotes({}, under=1), LAYOUT, True),
    (EnvelopeVotes({"Ada": 1, "Ben": 1}), LAYOUT, False),
    (EnvelopeVotes({"Ada": 1, "Ben": 1}), SheetLayout(("Ada", "Ben"), 2), True),
    (EnvelopeVotes({"Zed": 1}), LAYOUT, False),
    (EnvelopeVotes({"Ada": 2}), SheetLayout(("Ada", "Ben"), 2), False),
], ids=["one-vote", "undervote", "two-votes-one-seat", "two-seats", "unknown", "double-vote"])
def test_an_envelope_holds_one_ballot(votes: EnvelopeVotes, layout: SheetLayout,
                                      ok: bool) -> None:
    assert (not votes.problems(layout)) is ok


def test_envelope_summary_by_outcome_and_reason() -> None:
    envs = [EnvelopeRecord("1", "P1", "sig", outcome=EnvelopeOutcome.ACCEPTED),
            EnvelopeRecord("2", "P1", "sig", outcome=EnvelopeOutcome.REJECTED,
                           reason=RejectionReason.DEFECTIVE),
            EnvelopeRecord("3", "P1", "sig", outcome=EnvelopeOutcome.REJECTED,
                           reason=RejectionReason.DEFECTIVE),
            EnvelopeRecord("4", "P1", "sig")]
    rows = [(r.outcome, r.reason, r.count) for r in envelope_summary(envs)]
    assert rows == [(EnvelopeOutcome.PENDING, "Not yet reexamined", 1),
                    (EnvelopeOutcome.ACCEPTED, "Accepted and counted", 1),
                    (EnvelopeOutcome.REJECTED, "Rejected as defective", 2)]


def totals(votes: dict[str, int], seats: int = 1, kind: ContestKind = ContestKind.RACE,
           scope: Scope = Scope.COUNTY) -> ContestTotals:
    ck = ChoiceKind.CANDIDATE
    choices = []
    for n, v in votes.items():
        if kind is ContestKind.PROPOSITION:
            ck = ChoiceKind.FOR if n == "Yes" else ChoiceKind.AGAINST
        choices.append(ChoiceTotal(Choice(n, "", ck), v))
    return ContestTotals(Contest(ContestKey("Mayor"), kind, seats, scope), tuple(choices))


@pytest.mark.parametrize(("recount", "seats", "result", "needs_lot"), [
    ({"Ada": 10, "Ben": 9, "Cy": 1}, 1, Result.ELECTED, False),
    ({"Ada": 10, "Ben": 10, "Cy": 1}, 1, Result.TIE, True),
    ({"Ada": 11, "Ben": 10, "Cy": 10}, 2, Result.TIE, True),
    ({"Ada": 11, "Ben": 10, "Cy": 9}, 2, Result.ELECTED, False),
], ids=["clear", "tie-for-first", "tie-for-last-seat", "two-seats"])
def test_declaration_asks_for_a_lot_on_a_tie_at_the_cutoff(
        recount: dict[str, int], seats: int, result: Result, needs_lot: bool) -> None:
    canvass = totals(dict.fromkeys(recount, 0), seats)
    d = declaration(canvass, recount, Edition.Y2024, ElectionKind.GENERAL, date(2024, 11, 20))
    assert d.outcome.result is result
    assert d.needs_lot is needs_lot
    assert (d.lot_rule is not None) is needs_lot


def test_declaration_with_lot_elects_the_chosen() -> None:
    canvass = totals({"Ada": 0, "Ben": 0})
    lot = Lot("Clerk", datetime(2024, 11, 22, 10), "Council room", "Names drawn from a hat",
              ("W1",), ("Ben",))
    d = declaration(canvass, {"Ada": 5, "Ben": 5}, Edition.Y2024, ElectionKind.GENERAL,
                    date(2024, 11, 20), lot)
    assert d.elected == ("Ben",)
    assert lot_problems(lot, d.outcome, 1, d.lot_rule) == ()  # type: ignore[arg-type]
    bad = Lot("Clerk", lot.drawn_at, "Room", "Hat", (), ("Ada", "Ben"))
    assert lot_problems(bad, d.outcome, 1, d.lot_rule)  # type: ignore[arg-type]


def test_proposition_declared_passed_or_failed() -> None:
    canvass = totals({"Yes": 0, "No": 0}, kind=ContestKind.PROPOSITION)
    assert declaration(canvass, {"Yes": 5, "No": 5}, Edition.Y2024, ElectionKind.GENERAL,
                       None).outcome.result is Result.FAILED
    assert declaration(canvass, {"Yes": 6, "No": 5}, Edition.Y2024, ElectionKind.GENERAL,
                       None).outcome.result is Result.PASSED


@pytest.mark.parametrize(("edition", "kind", "scope", "who", "deadline"), [
    (Edition.Y2024, ElectionKind.GENERAL, Scope.COUNTY, "The election officer",
     date(2024, 11, 25)),
    (Edition.Y2024, ElectionKind.PRIMARY, Scope.STATEWIDE, "The governor",
     date(2024, 11, 25)),
    (Edition.Y2024, ElectionKind.PRIMARY, Scope.MULTICOUNTY, "The governor",
     date(2024, 11, 25)),
    (Edition.Y2024, ElectionKind.PRIMARY, Scope.COUNTY, "The district court judges",
     date(2024, 11, 25)),
    (Edition.Y2024, ElectionKind.MUNICIPAL_PRIMARY, Scope.MUNICIPAL, "The election officer",
     date(2024, 11, 25)),
    (Edition.Y2019, ElectionKind.GENERAL, Scope.COUNTY, "The election officer",
     date(2018, 12, 20)),
    (Edition.Y2019, ElectionKind.MUNICIPAL_PRIMARY, Scope.MUNICIPAL, "The election officer",
     date(2018, 11, 26)),
], ids=["2024-general", "2024-statewide-primary", "2024-multicounty-primary",
        "2024-county-primary", "2024-municipal-primary", "2019-30-days", "2019-5-days"])
def test_lot_rule_by_edition_and_race(edition: Edition, kind: ElectionKind, scope: Scope,
                                      who: str, deadline: date) -> None:
    # 2024-11-21 is a Thursday: +3 days is Sunday the 24th -> Monday the 25th.
    completed = date(2024, 11, 21) if edition is Edition.Y2024 else date(2018, 11, 20)
    rule = lot_rule(edition, kind, scope, completed)
    assert rule.who.startswith(who)
    assert rule.deadline == deadline
    assert rule.basis.startswith("20A-1-304")
    assert bool(rule.assumptions) is (edition is Edition.Y2019)


@pytest.mark.parametrize(("kind", "present", "body", "ok", "needed"), [
    (BoardKind.COUNTY, 3, 3, True, 3),
    (BoardKind.COUNTY, 2, 3, False, 3),
    (BoardKind.COUNTY, 4, 7, True, 4),
    (BoardKind.COUNTY, 3, 7, False, 4),
    (BoardKind.COUNTY, 3, 5, True, 3),
    (BoardKind.MUNICIPAL, 3, 5, True, 3),
    (BoardKind.MUNICIPAL, 2, 3, True, 2),
    (BoardKind.STATE, 2, 3, False, 3),
], ids=["county-3-of-3", "county-2-of-3", "county-4-of-7", "county-3-of-7", "county-3-of-5",
        "municipal-3-of-5", "municipal-2-of-3-no-minimum", "state-needs-all-three"])
def test_quorum(kind: BoardKind, present: int, body: int, ok: bool, needed: int) -> None:
    members = [BoardMember(f"M{i}", "Member") for i in range(present)]
    members += [BoardMember("Absent", "Member", present=False),
                BoardMember("Clerk", "Clerk", BoardRole.CLERK)]
    q = quorum(kind, members, body)
    assert (q.ok, q.needed, q.present) == (ok, needed, present)


def test_substitutes_count_toward_the_quorum() -> None:
    members = [BoardMember("A", "Commissioner"), BoardMember("B", "Commissioner"),
               BoardMember("T", "County Treasurer", BoardRole.SUBSTITUTE)]
    assert quorum(BoardKind.COUNTY, members, 3).ok


@pytest.mark.parametrize(("hours", "rate", "cents"), [
    (100, 2500, 2500), (250, 2450, 6125), (33, 1001, 330), (1, 50, 1), (0, 9999, 0),
], ids=["one-hour", "two-and-half", "rounds-down", "rounds-half-up", "zero"])
def test_staff_cost_in_exact_cents(hours: int, rate: int, cents: int) -> None:
    assert staff_cost(hours, rate) == cents


@pytest.mark.parametrize(("text", "value"), [
    ("2.5", 250), ("2", 200), ("0.25", 25), ("2:30", 250), ("1:20", 133), (".5", 50),
], ids=["decimal", "whole", "quarter", "clock", "clock-thirds", "leading-dot"])
def test_parse_hours(text: str, value: int) -> None:
    assert parse_hours(text) == value


@pytest.mark.parametrize("text", ["", "abc", "2.555", "-1", "2:75"],
                         ids=["empty", "letters", "three-decimals", "negative", "bad-minutes"])
def test_parse_hours_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        parse_hours(text)


@pytest.mark.parametrize(("text", "cents"), [("$1,234.50", 123450), ("42", 4200),
                                             ("0.05", 5)], ids=["dollars", "whole", "cents"])
def test_parse_and_format_cents(text: str, cents: int) -> None:
    assert parse_cents(text) == cents
    assert parse_cents(format_cents(cents)) == cents


@pytest.mark.parametrize(("edition", "kind", "payer", "confirmed"), [
    (Edition.Y2019, ContestKind.PROPOSITION, "The voters who requested", True),
    (Edition.Y2019, ContestKind.RACE, "Not the candidate", False),
    (Edition.Y2024, ContestKind.RACE, "The political subdivision", True),
    (Edition.Y2024, ContestKind.PROPOSITION, "The political subdivision", False),
], ids=["2019-proposition", "2019-race", "2024-race", "2024-proposition"])
def test_cost_statement_total_and_payer(edition: Edition, kind: ContestKind, payer: str,
                                        confirmed: bool) -> None:
    items = [CostItem(CostKind.STAFF, "Deputies", staff_cost(650, 2450), 650, 2450),
             CostItem(CostKind.MATERIALS, "Seals", 4200)]
    stmt = cost_statement(items, edition, kind)
    assert stmt.total_cents == 15925 + 4200
    assert stmt.by_kind[CostKind.STAFF] == 15925
    assert stmt.payer.startswith(payer)
    assert (not stmt.assumptions) is confirmed


def test_readiness_needs_every_unit_and_envelope() -> None:
    done = unit_state(UNIT, LAYOUT, EntryMode.SINGLE, E(1, sheet()), None)
    todo = unit_state(RecountUnit("P2", ("P2",)), LAYOUT, EntryMode.SINGLE, None, None)
    pending = EnvelopeRecord("1", "P1", "sig")
    assert not readiness([done, todo], [], True).complete
    assert not readiness([done], [pending]).complete
    assert not readiness([done], []).complete
    assert readiness([done], [], no_envelopes_confirmed=True).complete


def test_checklist_and_status_line() -> None:
    done = unit_state(UNIT, LAYOUT, EntryMode.SINGLE, E(1, sheet()), None)
    env = EnvelopeRecord("1", "P1", "sig", outcome=EnvelopeOutcome.ACCEPTED,
                         votes=EnvelopeVotes({"Ada": 1}))
    r = readiness([done], [env])
    cl = checklist(ChecklistInput(ContestKind.RACE, True, False, True, r, True, False, True,
                                  True, False))
    assert cl.stage is Stage.BOARD_CONVENED
    assert cl.next_step is not None
    assert cl.next_step.stage is Stage.SIGNED
    assert all(s.basis.startswith("20A-") for s in cl.steps)
    assert status_line("Mayor", cl, r) == ("Mayor — board convened; 1 of 1 units reconciled; "
                                           "1 envelope reexamined")
    blank = checklist(ChecklistInput(ContestKind.RACE, False, False, False, readiness([], []),
                                     False, False, False, False, False))
    assert blank.stage is None
    assert all(s.blocker for s in blank.steps)


# -- property: totals = counted units + accepted envelopes ------------------------------

counts = st.integers(min_value=0, max_value=500)
unit_sheets = st.lists(st.tuples(counts, counts, counts), min_size=1, max_size=8)


@given(unit_sheets, st.lists(st.tuples(st.integers(0, 7), st.sampled_from(["Ada", "Ben"]),
                                       st.booleans()), max_size=6),
       st.randoms(use_true_random=False))
def test_totals_are_the_units_plus_accepted_envelopes(
        values: list[tuple[int, int, int]], envs: list[tuple[int, str, bool]],
        rnd: object) -> None:
    units = [RecountUnit(f"U{i}", (f"P{i}",)) for i in range(len(values))]
    sheets = [TallySheet(a + b + u, {"Ada": a, "Ben": b}, 0, 0, u) for a, b, u in values]
    states = [unit_state(un, LAYOUT, EntryMode.DOUBLE, E(1, s), E(2, s))
              for un, s in zip(units, sheets, strict=True)]
    records = [EnvelopeRecord(str(k), f"P{i % len(values)}", "sig",
                              outcome=EnvelopeOutcome.ACCEPTED if acc else
                              EnvelopeOutcome.REJECTED,
                              votes=EnvelopeVotes({who: 1}) if acc else None)
               for k, (i, who, acc) in enumerate(envs)]
    order = list(range(len(states)))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    shuffled = [states[i] for i in order]
    got = recount_totals(LAYOUT, shuffled, records)
    for c in ("Ada", "Ben"):
        want = sum(s.votes[c] or 0 for s in sheets) + sum(
            1 for (_, who, acc) in envs if acc and who == c)
        assert got[c] == want
    table = variance_table(LAYOUT, shuffled, {}, records)
    assert dict(table.recount_total) == got
    assert table.complete


STATE_BOARD = [BoardMember("Auditor", "State Auditor"),
               BoardMember("Treasurer", "State Treasurer"),
               BoardMember("AG", "Attorney General", present=False)]


@pytest.mark.parametrize(("kind", "members", "body", "names", "refusal"), [
    (BoardKind.STATE, STATE_BOARD, 3, ["Auditor", "Treasurer"], "no quorum"),
    (BoardKind.STATE, [*STATE_BOARD[:2], BoardMember("AG", "Attorney General")], 3,
     ["Auditor", "Treasurer", "AG"], None),
    (BoardKind.COUNTY, [BoardMember(n, "Commissioner") for n in "ABC"], 3,
     ["A", "B", "Mickey Mouse"], "Mickey Mouse is not a member"),
    (BoardKind.COUNTY, [BoardMember(n, "Commissioner") for n in "ABC"], 3, ["Officer"],
     "no member of the board signs"),
    (BoardKind.MUNICIPAL, [BoardMember(n, "Council") for n in "ABCDE"], 5,
     ["A", "B", "C", "Officer"], None),
], ids=["state-2-of-3", "state-3-of-3", "not-on-board", "officer-alone", "municipal-3-of-5"])
def test_signing_plan_takes_the_board_step_and_one_quorum_rule(
        kind: BoardKind, members: list[BoardMember], body: int, names: list[str],
        refusal: str | None) -> None:
    plan = signing_plan(names, members=members, kind=kind, body_size=body,
                        convened_at=datetime(2024, 11, 26, 10), declared=True,
                        officer="Officer", signed_at=datetime(2024, 11, 26, 11),
                        place="Chambers")
    if refusal is None:
        assert plan.ok and plan.signers == tuple(names)
        assert plan.quorum is not None and plan.quorum.ok
    else:
        assert not plan.ok and any(refusal in r for r in plan.refusals)
