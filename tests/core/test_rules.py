"""The statute as code: margin test, outcome, editions, filing office, deadlines."""

from __future__ import annotations

from datetime import date, datetime
from fractions import Fraction

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
    PassRule,
    Scope,
    VotingMethod,
)
from recount_desk.core.rules import (
    Edition,
    Office,
    Requester,
    Result,
    Verdict,
    decide,
    edition_for,
    evaluate_request,
    filing_office,
    lot_meeting_deadline,
    outcome,
    request_deadline,
    threshold_votes,
    who_pays,
    within_recount_margin,
)


def race(*votes: int, seats: int = 1, method: VotingMethod = VotingMethod.PLURALITY,
         write_in: int | None = None) -> ContestTotals:
    names = "ABCDEFGHIJ"
    choices = [ChoiceTotal(Choice(names[i]), v) for i, v in enumerate(votes)]
    if write_in is not None:
        choices.append(ChoiceTotal(Choice("Write-in", kind=ChoiceKind.WRITE_IN), write_in))
    return ContestTotals(Contest(ContestKey("Race"), seats=seats, voting_method=method),
                         tuple(choices))


def prop(yes: int, no: int, rule: PassRule = PassRule.MAJORITY) -> ContestTotals:
    return ContestTotals(
        Contest(ContestKey("Prop 1"), ContestKind.PROPOSITION, pass_rule=rule),
        (ChoiceTotal(Choice("For", kind=ChoiceKind.FOR), yes),
         ChoiceTotal(Choice("Against", kind=ChoiceKind.AGAINST), no)))


@pytest.mark.parametrize(
    ("difference", "total", "expected"),
    [
        (1, 400, True), (2, 400, False), (0, 400, True),
        (1, 401, True), (2, 401, False),
        (1, 300, True), (2, 300, False), (1, 1, True),
        (29, 11_600, True), (30, 11_600, False),
        (28, 11_599, True), (29, 11_599, False),
        (29, 11_601, True), (30, 11_601, False),
        (42, 16_800, True), (43, 17_077, False), (42, 17_077, True),
        (5, 17_077, True), (2, 799, False), (1, 799, True), (2, 800, True),
    ],
    ids=lambda v: str(v),
)
def test_margin_test_at_the_edges(difference: int, total: int, expected: bool) -> None:
    assert within_recount_margin(difference, total) is expected


@given(st.integers(0, 10**7), st.integers(0, 10**9))
def test_margin_test_agrees_with_exact_fraction(difference: int, total: int) -> None:
    by_fraction = Fraction(difference) <= Fraction(25, 10000) * total
    one_vote = total <= 400 and difference == 1
    assert within_recount_margin(difference, total) is (by_fraction or one_vote)


@pytest.mark.parametrize(("total", "threshold"),
                         [(0, 1), (400, 1), (401, 1), (799, 1), (800, 2), (11_600, 29),
                          (17_077, 42)], ids=str)
def test_threshold_in_votes(total: int, threshold: int) -> None:
    assert threshold_votes(total) == threshold


def test_one_vote_difference_qualifies_when_400_or_fewer_votes() -> None:
    d = decide(race(200, 199), Edition.Y2019)
    assert d.verdict is Verdict.WITHIN_MARGIN
    assert d.basis == "20A-4-401(1)(c)"
    assert d.closest_loser == "B"


def test_two_vote_difference_fails_when_400_or_fewer_votes() -> None:
    d = decide(race(200, 198), Edition.Y2019)
    assert d.verdict is Verdict.NOT_ELIGIBLE
    assert "one vote" in d.explanation


def test_salt_lake_house_32_example_explains_itself() -> None:
    d = decide(ContestTotals(Contest(ContestKey("State House", "32")),
                             (ChoiceTotal(Choice("Christensen"), 8541),
                              ChoiceTotal(Choice("Harrison"), 8536))), Edition.Y2019)
    assert (d.total, d.margin, d.threshold) == (17_077, 5, 42)
    assert d.explanation.startswith("Harrison may request a recount: the difference of 5 votes")
    assert "within 42 votes, 0.25 % of the 17,077 votes cast" in d.explanation
    assert d.explanation.endswith("Utah Code 20A-4-401(1)(b).")


def test_write_ins_count_in_total_and_are_flagged_as_assumption() -> None:
    d = decide(race(5000, 4990, write_in=800), Edition.Y2019)
    assert d.total == 10_790
    assert d.threshold == 26
    assert d.within_margin
    assert any("Write-in" in a for a in d.assumptions)


def test_multi_seat_race_compares_each_loser_with_lowest_winner() -> None:
    d = decide(race(3000, 2500, 2400, 2397, 2360, seats=3), Edition.Y2019)
    assert d.outcome.winners == ("A", "B", "C")
    assert d.lowest_winner == "C"
    assert [(t.name, t.difference, t.eligible) for t in d.losers] == [
        ("D", 3, True), ("E", 40, False)]
    assert d.who_may_request.startswith("The losing candidate D")


def test_tie_at_cutoff_is_a_tie_not_an_order() -> None:
    o = outcome(race(100, 80, 80, seats=2))
    assert o.result is Result.TIE
    assert o.winners == ("A",)
    assert o.tied == ("B", "C")


def test_tie_before_2024_may_be_requested() -> None:
    d = decide(race(46, 46), Edition.Y2019)
    assert d.verdict is Verdict.WITHIN_MARGIN
    assert d.tie
    assert not d.automatic_recount
    assert "lot" in d.explanation


def test_tie_under_2024_edition_is_an_automatic_recount() -> None:
    d = decide(race(46, 46), Edition.Y2024)
    assert d.verdict is Verdict.AUTOMATIC
    assert d.automatic_recount
    assert d.within_margin
    assert "H.B. 515" in d.explanation


def test_tie_for_last_at_large_seat_is_automatic_in_2024() -> None:
    d = decide(race(500, 300, 300, seats=2), Edition.Y2024)
    assert d.verdict is Verdict.AUTOMATIC


def test_irv_race_is_excluded() -> None:
    d = decide(race(500, 499, method=VotingMethod.IRV), Edition.Y2019)
    assert d.verdict is Verdict.EXCLUDED_IRV
    assert d.basis == "20A-4-401(1)(a)"
    assert not d.within_margin


def test_uncontested_race() -> None:
    assert decide(race(500), Edition.Y2019).verdict is Verdict.UNCONTESTED


@pytest.mark.parametrize(
    ("yes", "no", "result", "verdict", "basis"),
    [
        (5000, 4990, Result.PASSED, Verdict.WITHIN_MARGIN, "20A-4-401(2)(a)"),
        (4990, 5000, Result.FAILED, Verdict.WITHIN_MARGIN, "20A-4-401(2)(a)"),
        (5000, 4900, Result.PASSED, Verdict.NOT_ELIGIBLE, "20A-4-401(2)(a)"),
        (150, 150, Result.FAILED, Verdict.WITHIN_MARGIN, "20A-4-401(2)(b)"),
        (151, 150, Result.PASSED, Verdict.WITHIN_MARGIN, "20A-4-401(2)(b)"),
        (152, 150, Result.PASSED, Verdict.NOT_ELIGIBLE, "20A-4-401(2)(b)"),
    ],
    ids=["pass-close", "fail-close", "pass-wide", "tie-fails", "one-vote-small", "two-small"],
)
def test_proposition(yes: int, no: int, result: Result, verdict: Verdict, basis: str) -> None:
    d = decide(prop(yes, no), Edition.Y2019)
    assert d.outcome.result is result
    assert d.verdict is verdict
    assert d.basis == basis
    if verdict is Verdict.WITHIN_MARGIN:
        assert "any 10 voters" in d.explanation


def test_two_thirds_proposition_says_statute_margin_is_for_minus_against() -> None:
    d = decide(prop(6000, 3000, PassRule.TWO_THIRDS), Edition.Y2019)
    assert d.outcome.result is Result.PASSED  # 6000 / 9000 = 2/3 exactly
    assert d.margin == 3000
    assert any("two-thirds" in a for a in d.assumptions)
    assert outcome(prop(5999, 3001, PassRule.TWO_THIRDS)).result is Result.FAILED


@pytest.mark.parametrize(
    ("when", "edition"),
    [(date(2018, 11, 6), Edition.Y2019), (date(2024, 4, 30), Edition.Y2019),
     (date(2024, 5, 1), Edition.Y2024), (date(2026, 11, 3), Edition.Y2024)], ids=str)
def test_edition_from_election_date(when: date, edition: Edition) -> None:
    assert edition_for(when) is edition


@pytest.mark.parametrize(
    ("kind", "scope", "contest_kind", "office", "basis"),
    [
        (ElectionKind.MUNICIPAL_PRIMARY, Scope.MUNICIPAL, ContestKind.RACE,
         Office.MUNICIPAL_CLERK, "20A-4-401(1)(d)(i)"),
        (ElectionKind.MUNICIPAL_GENERAL, Scope.MUNICIPAL, ContestKind.RACE,
         Office.MUNICIPAL_CLERK, "20A-4-401(1)(d)(ii)(A)"),
        (ElectionKind.SPECIAL_DISTRICT, Scope.SPECIAL_DISTRICT, ContestKind.RACE,
         Office.DISTRICT_CLERK, "20A-4-401(1)(d)(ii)(B)"),
        (ElectionKind.GENERAL, Scope.COUNTY, ContestKind.RACE,
         Office.COUNTY_CLERK, "20A-4-401(1)(d)(ii)(C)"),
        (ElectionKind.GENERAL, Scope.MUNICIPAL, ContestKind.RACE,
         Office.COUNTY_CLERK, "20A-4-401(1)(d)(ii)(C)"),
        (ElectionKind.PRIMARY, Scope.COUNTY, ContestKind.RACE,
         Office.COUNTY_CLERK, "20A-4-401(1)(d)(ii)(C)"),
        (ElectionKind.GENERAL, Scope.MULTICOUNTY, ContestKind.RACE,
         Office.LIEUTENANT_GOVERNOR, "20A-4-401(1)(d)(ii)(D)"),
        (ElectionKind.SPECIAL, Scope.STATEWIDE, ContestKind.RACE,
         Office.LIEUTENANT_GOVERNOR, "20A-4-401(1)(d)(ii)(D)"),
        (ElectionKind.MUNICIPAL_GENERAL, Scope.MUNICIPAL, ContestKind.PROPOSITION,
         Office.MUNICIPAL_CLERK, "20A-4-401(2)(c)(i)"),
        (ElectionKind.MUNICIPAL_PRIMARY, Scope.MUNICIPAL, ContestKind.PROPOSITION,
         Office.MUNICIPAL_CLERK, "20A-4-401(2)(c)(i)"),
        (ElectionKind.SPECIAL_DISTRICT, Scope.SPECIAL_DISTRICT, ContestKind.PROPOSITION,
         Office.DISTRICT_CLERK, "20A-4-401(2)(c)(ii)"),
        (ElectionKind.GENERAL, Scope.COUNTY, ContestKind.PROPOSITION,
         Office.COUNTY_CLERK, "20A-4-401(2)(c)(iii)"),
        (ElectionKind.GENERAL, Scope.STATEWIDE, ContestKind.PROPOSITION,
         Office.LIEUTENANT_GOVERNOR, "20A-4-401(2)(c)(iv)"),
        (ElectionKind.SPECIAL, Scope.MULTICOUNTY, ContestKind.PROPOSITION,
         Office.LIEUTENANT_GOVERNOR, "20A-4-401(2)(c)(iv)"),
    ],
    ids=lambda v: getattr(v, "value", v),
)
def test_filing_office(kind: ElectionKind, scope: Scope, contest_kind: ContestKind,
                       office: Office, basis: str) -> None:
    got = filing_office(kind, scope, contest_kind, date(2026, 11, 3))
    assert (got.office, got.basis) == (office, basis)


def test_district_clerk_is_named_for_the_edition() -> None:
    old = filing_office(ElectionKind.SPECIAL_DISTRICT, Scope.SPECIAL_DISTRICT,
                        ContestKind.RACE, date(2021, 11, 2))
    new = filing_office(ElectionKind.SPECIAL_DISTRICT, Scope.SPECIAL_DISTRICT,
                        ContestKind.RACE, date(2025, 11, 4))
    assert old.name == "the local district clerk"
    assert new.name == "the special district clerk"


@pytest.mark.parametrize(
    ("kind", "canvass", "due"),
    [
        # The worked examples of utah-law-notes §4c.
        (ElectionKind.GENERAL, date(2026, 11, 17), date(2026, 11, 24)),
        (ElectionKind.MUNICIPAL_GENERAL, date(2023, 11, 16), date(2023, 11, 24)),
        (ElectionKind.GENERAL, date(2022, 11, 17), date(2022, 11, 25)),
        (ElectionKind.MUNICIPAL_PRIMARY, date(2025, 8, 22), date(2025, 8, 25)),
        # Weekend: +7 on a Saturday runs to Monday.
        (ElectionKind.GENERAL, date(2026, 11, 14), date(2026, 11, 23)),
        # +3 on a Sunday runs to Monday.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 8, 20), date(2026, 8, 24)),
        # Pioneer Day 2026 is a Friday.
        (ElectionKind.PRIMARY, date(2026, 7, 17), date(2026, 7, 27)),
        # Independence Day 2026 is a Saturday: Friday Jul 3 is the holiday, so Jul 3 moves
        # over the weekend to Monday Jul 6.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 6, 30), date(2026, 7, 6)),
        # Juneteenth 2026 (a Friday) makes Monday Jun 15 the holiday; Jun 19 is a workday.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 6, 12), date(2026, 6, 16)),
        (ElectionKind.MUNICIPAL_PRIMARY, date(2026, 6, 16), date(2026, 6, 19)),
        # Before 2022 there was no Juneteenth holiday.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2021, 6, 18), date(2021, 6, 21)),
        # Veterans Day 2023 on a Saturday: Friday Nov 10 is the holiday.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2023, 11, 7), date(2023, 11, 13)),
        # Christmas on a Sunday (2022) moves to Monday Dec 26.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2022, 12, 23), date(2022, 12, 27)),
        # Columbus Day and Labor Day.
        (ElectionKind.GENERAL, date(2026, 10, 5), date(2026, 10, 13)),
        (ElectionKind.GENERAL, date(2026, 8, 31), date(2026, 9, 8)),
        # New Year's Day 2022 (Saturday) is observed on Friday Dec 31, 2021.
        (ElectionKind.MUNICIPAL_PRIMARY, date(2021, 12, 28), date(2022, 1, 3)),
    ],
    ids=lambda v: str(v),
)
def test_request_deadline(kind: ElectionKind, canvass: date, due: date) -> None:
    dl = request_deadline(kind, canvass)
    assert dl.due == datetime.combine(due, datetime.min.time()).replace(hour=17)


def test_proposition_deadline_is_seven_days_even_in_municipal_primary() -> None:
    dl = request_deadline(ElectionKind.MUNICIPAL_PRIMARY, date(2025, 8, 22),
                          ContestKind.PROPOSITION)
    assert dl.due.date() == date(2025, 8, 29)


def test_lot_meeting_deadline_is_first_business_day_three_days_after() -> None:
    assert lot_meeting_deadline(date(2026, 11, 20)) == date(2026, 11, 23)  # Fri -> Mon
    assert lot_meeting_deadline(date(2026, 11, 23)) == date(2026, 11, 27)  # Thanksgiving


def test_who_pays() -> None:
    assert who_pays(Edition.Y2019, ContestKind.PROPOSITION)[0].startswith("The voters")
    payer, _, confirmed = who_pays(Edition.Y2024, ContestKind.PROPOSITION)
    assert "political subdivision" in payer
    assert not confirmed


def _eval(decision_totals: ContestTotals, *, filed: datetime, with_: Office,
          requester: Requester = Requester.CANDIDATE, candidate: str | None = "B",
          voters: int = 0, kind: ElectionKind = ElectionKind.GENERAL):
    d = decide(decision_totals, Edition.Y2024)
    return evaluate_request(d, kind, date(2026, 11, 3), date(2026, 11, 17), requester,
                            candidate, voters, filed, with_)


def test_timely_request_from_losing_candidate_with_county_clerk() -> None:
    ev = _eval(race(5000, 4990), filed=datetime(2026, 11, 24, 16, 59),
               with_=Office.COUNTY_CLERK)
    assert ev.ok
    assert "20A-4-401(1)(d)(ii)(C)" in ev.right_office.basis


def test_request_at_five_pm_is_late() -> None:
    ev = _eval(race(5000, 4990), filed=datetime(2026, 11, 24, 17, 0),
               with_=Office.COUNTY_CLERK)
    assert not ev.timely.ok
    assert "Late" in ev.timely.text


def test_request_from_winner_or_wrong_office_fails() -> None:
    ev = _eval(race(5000, 4990), filed=datetime(2026, 11, 20, 10), with_=Office.LIEUTENANT_GOVERNOR,
               candidate="A")
    assert not ev.eligible.ok
    assert not ev.right_office.ok


def test_proposition_request_needs_ten_confirmed_voters() -> None:
    ev = _eval(prop(5000, 4990), filed=datetime(2026, 11, 20, 10), with_=Office.COUNTY_CLERK,
               requester=Requester.VOTERS, candidate=None, voters=9)
    assert not ev.eligible.ok
    assert "10 are required" in ev.eligible.text
    ev = _eval(prop(5000, 4990), filed=datetime(2026, 11, 20, 10), with_=Office.COUNTY_CLERK,
               requester=Requester.VOTERS, candidate=None, voters=10)
    assert ev.ok
