"""The disagreements of issue #12, each as a table whose ids name the subsection applied."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.core.calendar import ClosedDay, add_days_utah, holiday_name
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
    VotingMethod,
    is_aggregate_write_in,
)
from recount_desk.core.rules import (
    Edition,
    Office,
    Requester,
    Result,
    Verdict,
    decide,
    evaluate_request,
    filing_office,
    outcome,
    proposition_scope,
    request_deadline,
)


def race(*votes: int, seats: int = 1, names: str = "ABCDEFGHIJ", lump: int | None = None,
         method: VotingMethod = VotingMethod.PLURALITY) -> ContestTotals:
    choices = [ChoiceTotal(Choice(names[i]), v) for i, v in enumerate(votes)]
    if lump is not None:
        choices.append(ChoiceTotal(Choice("Write-ins", kind=ChoiceKind.WRITE_IN), lump))
    return ContestTotals(Contest(ContestKey("Council"), seats=seats, voting_method=method),
                         tuple(choices))


def prop(yes: int, no: int) -> ContestTotals:
    return ContestTotals(
        Contest(ContestKey("Bond"), ContestKind.PROPOSITION),
        (ChoiceTotal(Choice("For", kind=ChoiceKind.FOR), yes),
         ChoiceTotal(Choice("Against", kind=ChoiceKind.AGAINST), no)))


def ask(totals: ContestTotals, who: str, edition: Edition = Edition.Y2019,
        kind: ElectionKind = ElectionKind.GENERAL):
    d = decide(totals, edition, kind=kind)
    return d, evaluate_request(d, kind, date(2023, 11, 7), date(2023, 11, 16),
                               Requester.CANDIDATE, who, 0, datetime(2023, 11, 20, 10),
                               Office.COUNTY_CLERK)


# --- 3. Pre-2024 ties: every tied candidate may ask ------------------------------------

@pytest.mark.parametrize(
    ("votes", "seats", "who", "basis"),
    [
        ((500, 500), 1, "A", "20A-4-401(1)(b)"),
        ((500, 500), 1, "B", "20A-4-401(1)(b)"),
        ((150, 150), 1, "A", "20A-4-401(1)(c)"),
        ((150, 150), 1, "B", "20A-4-401(1)(c)"),
        ((900, 700, 700), 2, "B", "20A-4-401(1)(b)"),
        ((900, 700, 700), 2, "C", "20A-4-401(1)(b)"),
    ],
    ids=["(1)(b) tie, first listed may ask", "(1)(b) tie, second listed may ask",
         "(1)(c) small tie, first listed may ask", "(1)(c) small tie, second listed may ask",
         "(1)(b) last at-large seat tie, first", "(1)(b) last at-large seat tie, second"],
)
def test_each_tied_candidate_may_ask_before_2024(votes: tuple[int, ...], seats: int, who: str,
                                                 basis: str) -> None:
    d, ev = ask(race(*votes, seats=seats), who)
    assert d.verdict is Verdict.WITHIN_MARGIN
    assert d.basis == basis
    assert ev.eligible.ok, ev.eligible.text
    assert ev.eligible.basis == basis
    tied = {t.name for t in d.losers if t.difference == 0}
    assert who in tied
    assert "each tied candidate may request" in d.explanation
    assert d.who_may_request.endswith(f"({basis})")


def test_tie_in_small_race_says_the_statute_speaks_of_one_vote() -> None:
    d = decide(race(150, 150), Edition.Y2019)
    assert any("(1)(c) speaks of a difference of one vote" in a and "NOT CONFIRMED" in a
               for a in d.assumptions)


def test_winner_above_a_tie_for_the_last_seat_may_not_ask() -> None:
    _, ev = ask(race(900, 700, 700, seats=2), "A")
    assert not ev.eligible.ok
    assert "elected" in ev.eligible.text


# --- 5. The aggregate write-in line is never a candidate ---------------------------------

@pytest.mark.parametrize(
    ("name", "kind", "aggregate"),
    [("Write-ins", ChoiceKind.WRITE_IN, True), ("Write-In Totals", ChoiceKind.WRITE_IN, True),
     ("WRITE-IN", ChoiceKind.CANDIDATE, True), ("Write in votes", ChoiceKind.WRITE_IN, True),
     ("Write-in: Jane Doe", ChoiceKind.WRITE_IN, False),
     ("Jane Doe (Write-in)", ChoiceKind.WRITE_IN, False),
     ("Jane Doe", ChoiceKind.CANDIDATE, False)],
    ids=["(1)(b) 'Write-ins'", "(1)(b) 'Write-In Totals'", "(1)(b) 'WRITE-IN' as candidate",
         "(1)(b) 'Write in votes'", "(1)(b) named write-in is a candidate",
         "(1)(b) suffixed write-in is a candidate", "(1)(b) plain candidate"],
)
def test_which_write_in_lines_are_the_aggregate(name: str, kind: ChoiceKind,
                                                aggregate: bool) -> None:
    assert is_aggregate_write_in(Choice(name, kind=kind)) is aggregate


@pytest.mark.parametrize(
    ("votes", "lump", "edition", "verdict", "winners"),
    [
        ((500,), 499, Edition.Y2019, Verdict.UNCONTESTED, ("A",)),
        ((500,), 500, Edition.Y2024, Verdict.UNCONTESTED, ("A",)),
        ((500, 499), 600, Edition.Y2024, Verdict.WITHIN_MARGIN, ("A",)),
        ((5000, 4990), 10, Edition.Y2019, Verdict.WITHIN_MARGIN, ("A",)),
    ],
    ids=["(1)(b) lump one behind is not a losing candidate",
         "(2) 2024 lump tied with A is no automatic recount",
         "(1)(e)(iv) lump above both never wins",
         "(1)(b) lump counted in the total"],
)
def test_the_write_in_line_never_wins_ties_or_asks(votes: tuple[int, ...], lump: int,
                                                   edition: Edition, verdict: Verdict,
                                                   winners: tuple[str, ...]) -> None:
    totals = race(*votes, lump=lump)
    d = decide(totals, edition)
    assert d.verdict is verdict
    assert d.outcome.winners == winners
    assert d.total == sum(votes) + lump
    assert "Write-ins" not in d.who_may_request
    assert all(t.name != "Write-ins" for t in d.losers)
    assert any("not a candidate" in a for a in d.assumptions)


def test_write_in_line_cannot_request() -> None:
    d, ev = ask(race(5000, 4990, lump=4995), "Write-ins")
    assert not ev.eligible.ok
    assert "not a candidate" in ev.eligible.text
    assert any("a single write-in candidate could have won" in a for a in d.assumptions)


# --- 7. A race with no votes at all --------------------------------------------------------

@pytest.mark.parametrize(
    ("totals", "edition", "basis"),
    [(race(0, 0), Edition.Y2019, "20A-4-401(1)(c)"),
     (race(0, 0), Edition.Y2024, "20A-4-401(1)(c)"),
     (race(0, 0, 0, seats=2), Edition.Y2024, "20A-4-401(1)(c)"),
     (prop(0, 0), Edition.Y2019, "20A-4-401(2)(b)")],
    ids=["(1)(c) all-zero race 2019", "(2) all-zero race 2024 is no automatic recount",
         "(2) all-zero two-seat race 2024", "(2)(b) all-zero proposition"],
)
def test_all_zero_contest_is_no_result_and_a_likely_data_error(totals: ContestTotals,
                                                               edition: Edition,
                                                               basis: str) -> None:
    d = decide(totals, edition)
    assert d.verdict is Verdict.NO_RESULT
    assert not d.within_margin and not d.automatic_recount
    assert d.basis == basis
    assert "data error" in d.explanation
    assert d.who_may_request.startswith("Nobody")
    _, ev = ask(totals, "B", edition)
    assert not ev.eligible.ok


# --- 8. Citations, wording, proclaimed holidays, IRV sunset --------------------------------

@pytest.mark.parametrize(
    ("totals", "basis"),
    [(race(200, 199), "20A-4-401(1)(c)"), (race(5000, 4990), "20A-4-401(1)(b)"),
     (race(200, 150), "20A-4-401(1)(c)"), (prop(151, 150), "20A-4-401(2)(b)"),
     (prop(5000, 4990), "20A-4-401(2)(a)"), (prop(300, 100), "20A-4-401(2)(b)")],
    ids=["(1)(c) who may request cites (1)(c)", "(1)(b) who may request cites (1)(b)",
         "(1)(c) nobody cites (1)(c)", "(2)(b) voters cite (2)(b)", "(2)(a) voters cite (2)(a)",
         "(2)(b) nobody cites (2)(b)"],
)
def test_who_may_request_cites_the_subsection_applied(totals: ContestTotals,
                                                      basis: str) -> None:
    d = decide(totals, Edition.Y2019)
    assert d.basis == basis
    assert d.who_may_request.endswith(f"({basis})")


@pytest.mark.parametrize(
    "totals", [race(200, 199), race(200, 150), prop(151, 150)],
    ids=["(1)(c) within", "(1)(c) not eligible", "(2)(b) within"])
def test_small_contest_rule_is_worded_as_the_statute(totals: ContestTotals) -> None:
    d = decide(totals, Edition.Y2019)
    assert "one vote or less" not in d.explanation
    assert "a difference of one vote" in d.explanation


MOURNING = ClosedDay(date(2026, 11, 24), "Day of mourning")


@pytest.mark.parametrize(
    ("kind", "canvass", "closed", "due"),
    [(ElectionKind.GENERAL, date(2026, 11, 17), (), date(2026, 11, 24)),
     (ElectionKind.GENERAL, date(2026, 11, 17), (MOURNING,), date(2026, 11, 25)),
     # Nov 24 closed, Nov 26 Thanksgiving: +3 from Nov 20 lands on the 23rd (open).
     (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 11, 20), (MOURNING,), date(2026, 11, 23)),
     (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 11, 21), (MOURNING,), date(2026, 11, 25))],
    ids=["(1)(d)(ii) no proclaimed day", "(1)(d)(ii) proclaimed day moves the deadline",
         "(1)(d)(i) proclaimed day after the deadline", "(1)(d)(i) proclaimed day moves it"],
)
def test_proclaimed_holidays_move_every_deadline(kind: ElectionKind, canvass: date,
                                                 closed: tuple[ClosedDay, ...],
                                                 due: date) -> None:
    assert request_deadline(kind, canvass, closed=closed).due.date() == due


def test_a_proclaimed_day_explains_itself() -> None:
    dl = add_days_utah(date(2026, 11, 17), 7, "20A-4-401(1)(d)(ii)", (MOURNING,))
    assert "proclaimed by the governor, 63G-1-301" in dl.explain()
    assert holiday_name(date(2026, 11, 24), (MOURNING,)) == MOURNING.label
    assert holiday_name(date(2026, 11, 24)) is None


def test_request_evaluation_counts_proclaimed_days() -> None:
    d = decide(race(5000, 4990), Edition.Y2024)
    late = datetime(2026, 11, 25, 10)
    args = (d, ElectionKind.GENERAL, date(2026, 11, 3), date(2026, 11, 17),
            Requester.CANDIDATE, "B", 0, late, Office.COUNTY_CLERK)
    assert not evaluate_request(*args).timely.ok
    assert evaluate_request(*args, closed=(MOURNING,)).timely.ok


@pytest.mark.parametrize(
    ("method", "when", "shown"),
    [(VotingMethod.PLURALITY, date(2026, 11, 3), False),
     (VotingMethod.PLURALITY, date(2019, 11, 5), False),
     (VotingMethod.IRV, date(2019, 11, 5), False),
     (VotingMethod.IRV, date(2025, 11, 4), True),
     (VotingMethod.IRV, date(2026, 11, 3), True),
     (VotingMethod.IRV, None, True)],
    ids=["(1)(a) plurality race 2026: no IRV note", "(1)(a) plurality race 2019: no IRV note",
         "(1)(a) IRV 2019: pilot in force", "(1)(a) IRV 2025: H.B. 290 not confirmed",
         "(1)(a) IRV 2026: sunset not confirmed", "(1)(a) IRV, date unknown"],
)
def test_irv_sunset_assumption_only_where_it_applies(method: VotingMethod, when: date | None,
                                                     shown: bool) -> None:
    d = decide(race(500, 499, method=method), Edition.Y2024, election_date=when)
    noted = any("instant-runoff pilot" in a for a in d.assumptions)
    assert noted is shown
    assert (d.verdict is Verdict.EXCLUDED_IRV) is (method is VotingMethod.IRV)


# --- 6. Filing office by kind and the proposition's jurisdiction ---------------------------

@pytest.mark.parametrize(
    ("kind", "scope", "office", "basis", "assumed"),
    [(ElectionKind.SPECIAL, Scope.MUNICIPAL, Office.MUNICIPAL_CLERK, "20A-4-401(2)(c)(i)",
      True),
     (ElectionKind.SPECIAL, Scope.SPECIAL_DISTRICT, Office.DISTRICT_CLERK,
      "20A-4-401(2)(c)(ii)", True),
     (ElectionKind.SPECIAL, Scope.COUNTY, Office.COUNTY_CLERK, "20A-4-401(2)(c)(iii)", False),
     (ElectionKind.GENERAL, Scope.MUNICIPAL, Office.COUNTY_CLERK, "20A-4-401(2)(c)(iii)",
      False),
     (ElectionKind.MUNICIPAL_GENERAL, Scope.MUNICIPAL, Office.MUNICIPAL_CLERK,
      "20A-4-401(2)(c)(i)", False)],
    ids=["(2)(c)(i) city bond at a special election", "(2)(c)(ii) district bond at a special "
         "election", "(2)(c)(iii) county bond at a special election",
         "(2)(c)(iii) city bond at the general election", "(2)(c)(i) municipal election"],
)
def test_proposition_office_follows_its_jurisdiction(kind: ElectionKind, scope: Scope,
                                                     office: Office, basis: str,
                                                     assumed: bool) -> None:
    got = filing_office(kind, scope, ContestKind.PROPOSITION, date(2025, 11, 4))
    assert (got.office, got.basis) == (office, basis)
    assert (got.assumption is not None) is assumed
    if assumed:
        assert "NOT CONFIRMED" in got.assumption


@pytest.mark.parametrize(
    ("title", "scope"),
    [("Salt Lake City Streets Bond", Scope.MUNICIPAL), ("Town of Alta Proposition 1",
                                                        Scope.MUNICIPAL),
     ("Harrisville City Bond", Scope.MUNICIPAL),
     ("Snyderville Basin Special Recreation District Bond", Scope.SPECIAL_DISTRICT),
     ("Weber Fire District Bond", Scope.SPECIAL_DISTRICT),
     ("Jordan School District Bond", None), ("Proposition 4", None),
     ("Constitutional Amendment A", None)],
    ids=["(2)(c)(i) city bond", "(2)(c)(i) town proposition", "(2)(c)(i) Harrisville",
         "(2)(c)(ii) recreation district", "(2)(c)(ii) fire district",
         "(2)(c)(iii) school district is not a special district",
         "(2)(c)(iii) statewide-looking", "(2)(c)(iv) amendment"],
)
def test_proposition_scope_from_its_title(title: str, scope: Scope | None) -> None:
    assert proposition_scope(title) is scope


# --- 1. A municipal primary nominates twice the seats ---------------------------------------

@pytest.mark.parametrize(
    ("votes", "seats", "who", "ok", "why"),
    [((500, 480, 478), 1, "B", False, "nominated"),
     ((500, 480, 478), 1, "C", True, "trails by 2"),
     ((900, 800, 700, 600, 598), 2, "D", False, "nominated"),
     ((900, 800, 700, 600, 598), 2, "E", True, "trails by 2")],
    ids=["(1)(d)(i) second place is nominated, not a loser",
         "(1)(d)(i) third place measured against the second",
         "(1)(d)(i) two seats: fourth is nominated",
         "(1)(d)(i) two seats: fifth against the fourth"],
)
def test_municipal_primary_nominates_twice_the_seats(votes: tuple[int, ...], seats: int,
                                                     who: str, ok: bool, why: str) -> None:
    d, ev = ask(race(*votes, seats=seats), who, kind=ElectionKind.MUNICIPAL_PRIMARY)
    assert ev.eligible.ok is ok
    assert why in ev.eligible.text
    assert len(d.outcome.winners) == 2 * seats
    assert any("twice the number" in a and "NOT CONFIRMED" in a for a in d.assumptions)


def test_outcome_places_override() -> None:
    o = outcome(race(500, 480, 478), places=2)
    assert o.result is Result.ELECTED and o.winners == ("A", "B")


# --- 2. Hidden counts: a verdict only when every value they could hold agrees --------------

def hidden(totals: ContestTotals, cells: int, most: dict[str, int | None],
           official: bool = False) -> ContestTotals:
    return ContestTotals(totals.contest, totals.choices, official=official,
                         hidden_cells=cells, hidden_max=most)


@pytest.mark.parametrize(
    ("totals", "verdict"),
    [(hidden(race(5000, 1000), 3, {"B": None}), Verdict.UNDECIDABLE),
     (hidden(race(5000, 1000), 3, {"B": 30}), Verdict.NOT_ELIGIBLE),
     (hidden(race(5000, 4990), 1, {"A": 5}), Verdict.WITHIN_MARGIN),
     (hidden(race(5000, 4990), 1, {"A": 100}), Verdict.UNDECIDABLE),
     (hidden(race(5000, 4980), 2, {"B": 30}), Verdict.UNDECIDABLE),
     (hidden(race(5000, 4990), 3, {"A": None}, official=True), Verdict.WITHIN_MARGIN),
     (hidden(race(0, 0), 2, {"A": None, "B": None}), Verdict.UNDECIDABLE),
     (hidden(prop(5000, 1000), 2, {"Against": 40}), Verdict.NOT_ELIGIBLE),
     (hidden(prop(5000, 4995), 2, {"For": 5}), Verdict.WITHIN_MARGIN),
     (hidden(prop(5000, 4995), 2, {"Against": 10}), Verdict.UNDECIDABLE)],
    ids=["(1)(b) unbounded hidden cells: cannot be decided",
         "(1)(b) bounded cells cannot close the gap: not eligible",
         "(1)(b) bounded cells cannot widen past the margin: within",
         "(1)(b) bounded cells could widen past the margin: cannot be decided",
         "(1)(b) bounded cells could change the winner: cannot be decided",
         "(1)(b) official totals: hidden cells do not matter",
         "(1)(c) all zero but hidden: cannot be decided, not no-result",
         "(2)(a) proposition cannot close: not eligible",
         "(2)(a) proposition cannot widen: within",
         "(2)(a) proposition could flip: cannot be decided"],
)
def test_hidden_counts_give_a_verdict_only_when_every_bound_agrees(
        totals: ContestTotals, verdict: Verdict) -> None:
    d = decide(totals, Edition.Y2019)
    assert d.verdict is verdict
    if verdict is Verdict.UNDECIDABLE:
        assert not d.decided and not d.within_margin
        assert d.explanation.startswith("Cannot be decided from this file")
        assert d.who_may_request.startswith("Cannot be decided")
    elif totals.incomplete:
        assert any("whatever the hidden cells hold" in a for a in d.assumptions)


def test_undecidable_request_is_not_eligible_until_the_official_totals() -> None:
    d = decide(hidden(race(5000, 4990), 3, {"B": None}), Edition.Y2019)
    ev = evaluate_request(d, ElectionKind.GENERAL, date(2018, 11, 6), date(2018, 11, 20),
                          Requester.CANDIDATE, "B", 0, datetime(2018, 11, 21, 9),
                          Office.COUNTY_CLERK)
    assert not ev.eligible.ok
    assert "cannot be decided" in ev.eligible.text


@given(st.lists(st.integers(0, 600), min_size=2, max_size=4),
       st.lists(st.integers(0, 8), min_size=4, max_size=4),
       st.integers(1, 2), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_a_verdict_on_hidden_counts_holds_for_every_value_they_could_hold(
        votes: list[int], most: list[int], seats: int, rnd: Any) -> None:
    totals = race(*votes, seats=seats)
    bounds = {c.choice.name: most[i] for i, c in enumerate(totals.choices) if most[i]}
    d = decide(hidden(totals, max(1, len(bounds)), dict(bounds)), Edition.Y2019)
    if d.verdict is Verdict.UNDECIDABLE or not bounds:
        return
    for _ in range(20):
        filled = ContestTotals(totals.contest, tuple(
            ChoiceTotal(c.choice, c.votes + rnd.randint(0, bounds.get(c.choice.name, 0)))
            for c in totals.choices))
        other = decide(filled, Edition.Y2019)
        assert other.verdict is d.verdict
        assert set(other.outcome.winners) == set(d.outcome.winners)
        assert {t.name for t in other.losers if t.eligible} == \
            {t.name for t in d.losers if t.eligible}


def unreconciled(totals: ContestTotals, sums: dict[str, int], cells: int = 0) -> ContestTotals:
    return ContestTotals(totals.contest, totals.choices, official=True, hidden_cells=cells,
                         hidden_max={n: None for n in sums} if cells else {},
                         precinct_sums=sums)


@pytest.mark.parametrize(
    ("totals", "verdict"),
    [(unreconciled(race(15, 61), {"B": 16}), Verdict.UNDECIDABLE),
     (unreconciled(race(5000, 1000), {"B": 990}), Verdict.NOT_ELIGIBLE),
     (unreconciled(race(5000, 4990), {"B": 4980}, cells=3), Verdict.WITHIN_MARGIN),
     (unreconciled(race(5000, 4990), {"B": 5100}, cells=3), Verdict.UNDECIDABLE)],
    ids=["(1)(c) totals row and precincts give different verdicts",
         "(1)(b) totals row and precincts agree on the verdict",
         "(1)(b) hidden cells explain the shortfall: official totals",
         "(1)(b) precincts above the official totals: not explained"],
)
def test_official_totals_that_the_precincts_contradict(totals: ContestTotals,
                                                       verdict: Verdict) -> None:
    d = decide(totals, Edition.Y2019)
    assert d.verdict is verdict
    if verdict is not Verdict.UNDECIDABLE and not totals.hidden_cells:
        assert any("its precincts give the same one" in a for a in d.assumptions)
