"""core.recount.ContestRecount: every transition of a contest's recount as a change or a
refusal (enter, resolve, decide envelope, declare, convene, sign, reopen), without SQLite."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest

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
from recount_desk.core.people import Person, Role, Roster
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    ContestRecount,
    ConveneChange,
    Convening,
    DeclarationChange,
    EntryChange,
    EntryMode,
    EnvelopeCheck,
    EnvelopeDecision,
    EnvelopeOutcome,
    EnvelopeRecord,
    EnvelopeVotes,
    Lot,
    NoEnvelopesChange,
    RecountUnit,
    Refusal,
    RefusalKind,
    RejectionReason,
    ReopenChange,
    ResolutionChange,
    ResolutionKind,
    SheetLayout,
    SigningPlan,
    StartChange,
    TallyEntry,
    TallySheet,
    UnitKind,
    UnitRecord,
    UnitStatus,
    WitnessChange,
    return_rule,
)
from recount_desk.core.rules import Edition, Result

LAYOUT = SheetLayout(("Ada", "Ben"), 1, True)
ROSTER = Roster((Person(1, "Kim Nguyen", Role.DEPUTY), Person(2, "Raj Patel", Role.DEPUTY),
                 Person(3, "Sue Clerk", Role.ELECTION_OFFICER),
                 Person(4, "Tom Lee", Role.SUPERVISOR)))
RULE = return_rule(date(2024, 11, 5))
ALL_PASSED = dict.fromkeys(RULE.checks(), True)
CANVASS = ContestTotals(Contest(ContestKey("Mayor"), ContestKind.RACE, 1, Scope.COUNTY),
                        (ChoiceTotal(Choice("Ada", "", ChoiceKind.CANDIDATE), 12),
                         ChoiceTotal(Choice("Ben", "", ChoiceKind.CANDIDATE), 6)))
BOARD = tuple(BoardMember(n, "Commissioner") for n in ("Ann Ames", "Bo Birch", "Cy Cole"))
CONVENED = Convening(BoardKind.COUNTY, 3, datetime(2024, 11, 26, 10), "Council chambers")
TODAY = date(2024, 11, 25)


def sheet(ada: int | None = 6, ben: int | None = 3, under: int | None = 1) -> TallySheet:
    return TallySheet(10, {"Ada": ada, "Ben": ben}, 0, 0, under)


def entry(number: int, officer: str, s: TallySheet | None = None) -> TallyEntry:
    return TallyEntry(number, officer, s or sheet())


def unit(name: str, first: TallyEntry | None = None, second: TallyEntry | None = None
         ) -> UnitRecord:
    return UnitRecord(RecountUnit(name, (name,)), first, second)


def model(*records: UnitRecord, mode: EntryMode | None = EntryMode.DOUBLE, locked: str = "",
          envelopes: tuple[EnvelopeRecord, ...] | None = (), confirmed: bool = True,
          members: tuple[BoardMember, ...] = BOARD, convening: Convening | None = CONVENED,
          declared: bool = False, canvass: ContestTotals = CANVASS) -> ContestRecount:
    recs = records or (unit("P1", entry(1, "Kim Nguyen"), entry(2, "Raj Patel")),)
    return ContestRecount("Mayor", LAYOUT, mode, {r.unit.name: r for r in recs}, locked,
                          canvass=canvass, envelopes=envelopes,
                          no_envelopes_confirmed=confirmed, members=members,
                          convening=convening, declared=declared)


MISMATCH = unit("P1", entry(1, "Kim Nguyen"), entry(2, "Raj Patel", sheet(5, 4)))


# --- what refuses every write -------------------------------------------------------------

TRANSITIONS = {
    "enter": lambda m: m.enter(ROSTER, "P1", 1, "Kim Nguyen", sheet()),
    "resolve": lambda m: m.resolve(ROSTER, "P1", ResolutionKind.KEEP_FIRST, by="Tom Lee",
                                   corrected=None, note="Checked the tape", joint=False),
    "decide-envelope": lambda m: m.decide_envelope(
        "E1", EnvelopeOutcome.REJECTED, decided_by="Sue Clerk", rule=RULE,
        reason=RejectionReason.LATE),
    "declare": lambda m: m.declare(edition=Edition.Y2024, election_kind=ElectionKind.GENERAL,
                                   today=TODAY),
    "convene": lambda m: m.convene(kind=BoardKind.COUNTY, body_size=3,
                                   convened_at=datetime(2024, 11, 26, 10), place="Chambers"),
    "sign": lambda m: m.sign(["Ann Ames"], officer="Sue Clerk",
                             signed_at=datetime(2024, 11, 26, 11)),
    "start": lambda m: m.start(("P1",), None, has_entries=False),
    "designate-witness": lambda m: m.designate_witness("Ruth", "Ada", "Ada"),
    "confirm-no-envelopes": lambda m: m.confirm_no_envelopes(True, ""),
}


@pytest.mark.parametrize("name", list(TRANSITIONS), ids=list(TRANSITIONS))
def test_a_signed_contest_refuses_every_change_until_reopened(name: str) -> None:
    m = model(MISMATCH, locked="Mayor is locked: its report was signed.",
              envelopes=(EnvelopeRecord("E1", "P1", "Late"),), declared=True)
    got = TRANSITIONS[name](m)
    assert isinstance(got, Refusal)
    assert got.kind is RefusalKind.LOCKED
    assert got.text == "Mayor is locked: its report was signed."


@pytest.mark.parametrize("name", ["enter", "resolve", "declare", "confirm-no-envelopes"])
def test_tallies_and_the_declaration_need_a_started_recount(name: str) -> None:
    got = TRANSITIONS[name](model(MISMATCH, mode=None))
    assert isinstance(got, Refusal)
    assert got.kind is RefusalKind.NOT_STARTED
    assert "has not been started" in got.text


def test_a_model_of_some_units_cannot_declare_or_sign() -> None:
    m = model(envelopes=None)
    with pytest.raises(ValueError, match="some units only"):
        TRANSITIONS["declare"](m)
    with pytest.raises(ValueError, match="some units only"):
        TRANSITIONS["sign"](m)


# --- enter ------------------------------------------------------------------------------

@pytest.mark.parametrize(("records", "number", "officer", "s", "note", "want"), [
    ((unit("P1"),), 1, "kim nguyen", sheet(), "", UnitStatus.AWAITING_SECOND),
    ((unit("P1", entry(1, "Kim Nguyen")),), 2, "R. Patel", sheet(), "", UnitStatus.RECONCILED),
    ((unit("P1", entry(1, "Kim Nguyen")),), 2, "Raj Patel", sheet(5, 4), "",
     UnitStatus.MISMATCH),
    ((unit("P1"),), 1, "Kim Nguyen", sheet(ada=None), "", UnitStatus.FIRST_ENTRY),
    ((unit("P1", entry(1, "Kim Nguyen", sheet(under=2))),), 2, "Raj Patel", sheet(under=2),
     "Tape shows 2", UnitStatus.ACCEPTED_WITH_WARNING),
], ids=["first", "second-matches", "second-differs", "partial", "warning-with-note"])
def test_an_entry_is_a_change_with_the_state_after_it(
        records: tuple[UnitRecord, ...], number: int, officer: str, s: TallySheet, note: str,
        want: UnitStatus) -> None:
    got = model(*records).enter(ROSTER, "P1", number, officer, s, note)
    assert isinstance(got, EntryChange)
    assert got.state.status is want
    assert got.entry.officer in ("Kim Nguyen", "Raj Patel")  # the roster's spelling
    assert got.entry.number == number


@pytest.mark.parametrize(("records", "number", "officer", "s", "mode", "text"), [
    ((unit("P1", entry(1, "Kim Nguyen")),), 2, "K. Nguyen", sheet(), EntryMode.DOUBLE,
     "Kim Nguyen made the other entry"),
    ((unit("P1", entry(1, "Kim Nguyen")),), 2, "nguyen, kim", sheet(), EntryMode.DOUBLE,
     "Kim Nguyen made the other entry"),
    ((unit("P1"),), 1, "Mickey Mouse", sheet(), EntryMode.DOUBLE, "not on this case's roster"),
    ((unit("P1"),), 2, "Raj Patel", sheet(), EntryMode.SINGLE, "uses single entry"),
    ((unit("P1"),), 1, "Kim Nguyen", sheet(ada=-1), EntryMode.DOUBLE, "cannot be negative"),
    ((unit("P1"),), 1, "Kim Nguyen", sheet(under=2), EntryMode.DOUBLE,
     "Check the sheet, or accept it with a note"),
    ((unit("P2"),), 1, "Kim Nguyen", sheet(), EntryMode.DOUBLE, "no unit named 'P1'"),
    ((replace(unit("P1", entry(1, "re-tabulation")), loaded=True),), 1, "Kim Nguyen",
     sheet(), EntryMode.DOUBLE, "loaded from the re-tabulated statement"),
], ids=["same-person-initial", "same-person-last-first", "not-on-roster", "single-entry",
        "negative", "check-fails-without-note", "no-such-unit", "loaded-unit"])
def test_an_entry_refused_says_why_in_one_sentence(
        records: tuple[UnitRecord, ...], number: int, officer: str, s: TallySheet,
        mode: EntryMode, text: str) -> None:
    got = model(*records, mode=mode).enter(ROSTER, "P1", number, officer, s)
    assert isinstance(got, Refusal)
    assert text in got.text


def test_the_same_person_is_refused_before_any_figure_is_typed() -> None:
    m = model(unit("P1", entry(1, "Kim Nguyen")))
    assert m.who_enters(ROSTER, "P1", 2, "K Nguyen").person is None
    assert m.who_enters(ROSTER, "P1", 2, "Raj Patel").person == ROSTER.people[1]


def test_a_failed_check_is_a_refusal_a_note_settles() -> None:
    got = model(unit("P1")).enter(ROSTER, "P1", 1, "Kim Nguyen", sheet(under=2))
    assert isinstance(got, Refusal)
    assert got.kind is RefusalKind.NEEDS_NOTE and got.check is not None
    assert got.check.difference == 1


# --- resolve ----------------------------------------------------------------------------

@pytest.mark.parametrize(("by", "joint", "note", "kind", "corrected", "outcome"), [
    ("Tom Lee", False, "Tape checked", ResolutionKind.KEEP_FIRST, None, "Tom Lee"),
    ("", True, "Both rechecked the ballots", ResolutionKind.KEEP_SECOND, None,
     "Kim Nguyen and Raj Patel, jointly"),
    ("Sue Clerk", False, "Recounted", ResolutionKind.CORRECTED, sheet(6, 3), "Sue Clerk"),
    ("Kim Nguyen", False, "My own", ResolutionKind.KEEP_FIRST, None,
     "made one of the two entries"),
    ("K. Nguyen", False, "My own", ResolutionKind.KEEP_FIRST, None,
     "made one of the two entries"),
    ("Tom Lee", False, "", ResolutionKind.KEEP_FIRST, None, "Say in the note"),
    ("Tom Lee", False, "Tape", ResolutionKind.CORRECTED, None, "Give the corrected values."),
    ("Tom Lee", False, "Tape", ResolutionKind.CORRECTED, sheet(ada=None),
     "The corrected values are incomplete"),
], ids=["third-supervisor", "joint", "officer-corrects", "entrant-refused",
        "entrant-other-spelling", "no-note", "correction-without-values",
        "correction-incomplete"])
def test_a_difference_is_settled_by_a_third_supervisor_or_jointly(
        by: str, joint: bool, note: str, kind: ResolutionKind, corrected: TallySheet | None,
        outcome: str) -> None:
    got = model(MISMATCH).resolve(ROSTER, "P1", kind, by=by, corrected=corrected, note=note,
                                  joint=joint)
    if isinstance(got, ResolutionChange):
        assert got.resolution.by == outcome
        assert got.resolution.joint is joint
        assert got.state.status is UnitStatus.RECONCILED
        assert [d.label for d in got.diffs] == ["Ada", "Ben"]
    else:
        assert outcome in got.text


def test_nothing_to_resolve_when_the_entries_agree() -> None:
    got = TRANSITIONS["resolve"](model())
    assert isinstance(got, Refusal) and "no difference to resolve" in got.text


# --- decide envelope --------------------------------------------------------------------

ONE_BALLOT = EnvelopeVotes({"Ada": 1, "Ben": 0})


@pytest.mark.parametrize(("checks", "outcome", "reason", "text", "votes", "want"), [
    (ALL_PASSED, EnvelopeOutcome.ACCEPTED, None, "", ONE_BALLOT, EnvelopeOutcome.ACCEPTED),
    ({}, EnvelopeOutcome.REJECTED, RejectionReason.LATE, "", None, EnvelopeOutcome.REJECTED),
    ({}, EnvelopeOutcome.REJECTED, RejectionReason.OTHER, "Torn", None,
     EnvelopeOutcome.REJECTED),
    ({}, EnvelopeOutcome.PENDING, None, "", None, EnvelopeOutcome.PENDING),
    ({}, EnvelopeOutcome.ACCEPTED, None, "", ONE_BALLOT, "cannot be accepted: Still to check"),
    ({**ALL_PASSED, EnvelopeCheck.SIGNATURE: False}, EnvelopeOutcome.ACCEPTED, None, "",
     ONE_BALLOT, "cannot be accepted: Failed: Signature"),
    (ALL_PASSED, EnvelopeOutcome.ACCEPTED, None, "", None, "Enter the ballot's votes"),
    (ALL_PASSED, EnvelopeOutcome.ACCEPTED, None, "", EnvelopeVotes({"Ada": 1, "Ben": 1}),
     "vote position"),
    ({}, EnvelopeOutcome.REJECTED, None, "", None, "Give the reason the envelope stays"),
    ({}, EnvelopeOutcome.REJECTED, RejectionReason.OTHER, " ", None,
     "Describe the other reason."),
], ids=["accept", "reject", "reject-other", "take-back", "accept-unchecked",
        "accept-failed-check", "accept-without-votes", "accept-two-votes", "reject-no-reason",
        "other-without-text"])
def test_an_envelope_decision_is_a_change_or_a_refusal(
        checks: dict[EnvelopeCheck, bool | None], outcome: EnvelopeOutcome,
        reason: RejectionReason | None, text: str, votes: EnvelopeVotes | None,
        want: EnvelopeOutcome | str) -> None:
    m = model(envelopes=(EnvelopeRecord("E1", "P1", "Signature", checks),))
    got = m.decide_envelope("E1", outcome, decided_by=" Sue Clerk ", rule=RULE, reason=reason,
                            reason_text=text, votes=votes)
    if isinstance(want, EnvelopeOutcome):
        assert isinstance(got, EnvelopeDecision)
        assert (got.outcome, got.decided_by, got.before) == (want, "Sue Clerk",
                                                              EnvelopeOutcome.PENDING)
        assert (got.votes is not None) is (want is EnvelopeOutcome.ACCEPTED)
        assert (got.reason is not None) is (want is EnvelopeOutcome.REJECTED)
    else:
        assert isinstance(got, Refusal) and want in got.text


@pytest.mark.parametrize(("envelope", "by", "text"), [
    ("E9", "Sue Clerk", "Mayor has no envelope 'E9'."),
    ("E1", "  ", "Give who decided."),
], ids=["unknown-envelope", "nobody-decided"])
def test_an_envelope_decision_needs_the_envelope_and_who_decided(envelope: str, by: str,
                                                                  text: str) -> None:
    m = model(envelopes=(EnvelopeRecord("E1", "P1", "Signature"),))
    got = m.decide_envelope(envelope, EnvelopeOutcome.PENDING, decided_by=by, rule=RULE)
    assert isinstance(got, Refusal) and got.text == text


# --- declare ----------------------------------------------------------------------------

def _tied() -> ContestRecount:
    return model(unit("P1", entry(1, "Kim Nguyen", sheet(4, 5)),
                      entry(2, "Raj Patel", sheet(4, 5))),
                 unit("P2", entry(1, "Kim Nguyen", sheet(5, 4)),
                      entry(2, "Raj Patel", sheet(5, 4))))


LOT = Lot("Sue Clerk", datetime(2024, 11, 27, 10), "Council room", "Names from a hat",
          ("Witness One",), ("Ben",))


def test_a_complete_recount_declares_the_winner_on_its_totals() -> None:
    got = TRANSITIONS["declare"](model())
    assert isinstance(got, DeclarationChange)
    assert got.declaration.elected == ("Ada",)
    assert dict(got.totals) == {"Ada": 6, "Ben": 3}
    assert got.readiness.complete and got.override_reason is None


def test_an_accepted_envelope_joins_the_totals() -> None:
    env = EnvelopeRecord("E1", "P1", "Late", ALL_PASSED, EnvelopeOutcome.ACCEPTED,
                         votes=EnvelopeVotes({"Ben": 1, "Ada": 0}))
    got = TRANSITIONS["declare"](model(envelopes=(env,)))
    assert isinstance(got, DeclarationChange) and dict(got.totals) == {"Ada": 6, "Ben": 4}


def test_declaring_early_needs_the_override_reason() -> None:
    m = model(unit("P1", entry(1, "Kim Nguyen")), confirmed=False)
    got = TRANSITIONS["declare"](m)
    assert isinstance(got, Refusal) and got.kind is RefusalKind.NEEDS_OVERRIDE
    assert len(got.blockers) == 2 and "To declare now, give the reason" in got.text
    forced = m.declare(edition=Edition.Y2024, election_kind=ElectionKind.GENERAL, today=TODAY,
                       override_reason="  Court order ")
    assert isinstance(forced, DeclarationChange)
    assert forced.override_reason == "Court order" and not forced.readiness.complete


def test_a_tie_needs_the_lot_and_the_lot_completes_the_winners() -> None:
    m = _tied()
    got = TRANSITIONS["declare"](m)
    assert isinstance(got, Refusal) and got.kind is RefusalKind.NEEDS_LOT
    assert got.tied == ("Ada", "Ben") and got.lot_rule is not None
    done = m.declare(edition=Edition.Y2024, election_kind=ElectionKind.GENERAL, today=TODAY,
                     lot=LOT)
    assert isinstance(done, DeclarationChange)
    assert done.declaration.outcome.result is Result.TIE
    assert done.declaration.elected == ("Ben",)
    assert done.lot == LOT and done.lot_late is False  # convened Nov 26: due Dec 2


@pytest.mark.parametrize(("m", "lot", "text"), [
    (model(), LOT, "There is no tie at the cut-off: no lot is needed."),
    (_tied(), replace(LOT, chosen=("Ada", "Ben")), "The lot must choose 1"),
    (_tied(), replace(LOT, place=" "), "Give the place."),
], ids=["lot-without-tie", "lot-chooses-two", "lot-without-place"])
def test_a_lot_that_does_not_fit_is_refused(m: ContestRecount, lot: Lot, text: str) -> None:
    got = m.declare(edition=Edition.Y2024, election_kind=ElectionKind.GENERAL, today=TODAY,
                    lot=lot)
    assert isinstance(got, Refusal) and text in got.text


def test_a_lot_drawn_after_its_deadline_is_flagged_late() -> None:
    got = _tied().declare(edition=Edition.Y2024, election_kind=ElectionKind.GENERAL,
                          today=TODAY, lot=replace(LOT, drawn_at=datetime(2024, 12, 20, 9)))
    assert isinstance(got, DeclarationChange) and got.lot_late is True


# --- convene ----------------------------------------------------------------------------

@pytest.mark.parametrize(("present", "body", "place", "want"), [
    (3, 3, "Chambers", True),
    (2, 3, "Chambers", False),
    (3, 0, "Chambers", "Give the number of seats"),
    (3, 3, "  ", "Give where the board met."),
], ids=["quorum", "no-quorum-shown", "no-seats", "no-place"])
def test_convening_records_the_meeting_with_its_quorum(present: int, body: int, place: str,
                                                       want: bool | str) -> None:
    members = tuple(replace(m, present=i < present) for i, m in enumerate(BOARD))
    got = model(members=members, convening=None).convene(
        kind=BoardKind.COUNTY, body_size=body, convened_at=datetime(2024, 11, 26, 10),
        place=place)
    if isinstance(want, bool):
        assert isinstance(got, ConveneChange)
        assert got.quorum.ok is want and got.convening.place == place.strip()
    else:
        assert isinstance(got, Refusal) and want in got.text


# --- sign -------------------------------------------------------------------------------

@pytest.mark.parametrize(("names", "present", "declared", "convening", "text"), [
    (["Ann Ames", "Bo Birch", "Sue Clerk"], 3, True, CONVENED, None),
    (["Ann Ames", "Mickey Mouse"], 3, True, CONVENED, "Mickey Mouse is not a member"),
    (["Ann Ames", "Bo Birch"], 2, True, CONVENED, "the board had no quorum"),
    (["Ann Ames"], 3, False, CONVENED, "the result has not been declared"),
    (["Ann Ames"], 3, True, None, "the board of canvassers has not been convened"),
    (["Sue Clerk"], 3, True, CONVENED, "no member of the board signs"),
], ids=["members-and-officer", "not-a-member", "no-quorum", "not-declared", "not-convened",
        "officer-alone"])
def test_signing_by_a_non_member_or_without_quorum_is_refused(
        names: list[str], present: int, declared: bool, convening: Convening | None,
        text: str | None) -> None:
    members = tuple(replace(m, present=i < present) for i, m in enumerate(BOARD))
    m = model(members=members, declared=declared, convening=convening)
    got = m.sign(names, officer="Sue Clerk", signed_at=datetime(2024, 11, 26, 11))
    if text is None:
        assert isinstance(got, SigningPlan)
        assert got.signers == tuple(names) and got.place == "Council chambers"
        assert got.board_signers == 2
    else:
        assert isinstance(got, Refusal)
        assert got.text.startswith("Mayor cannot be signed: ") and text in got.text


# --- reopen -----------------------------------------------------------------------------

@pytest.mark.parametrize(("locked", "reason", "want"), [
    ("Mayor is locked.", " Typo in the place ", "Typo in the place"),
    ("", "Typo", "Mayor is not locked."),
    ("Mayor is locked.", "  ", "Give the reason for reopening a signed contest."),
], ids=["reopen", "not-locked", "no-reason"])
def test_reopening_needs_a_signed_contest_and_a_reason(locked: str, reason: str,
                                                       want: str) -> None:
    got = model(locked=locked).reopen(reason)
    if isinstance(got, ReopenChange):
        assert got.reason == want
    else:
        assert got.text == want


# --- start, witnesses, no envelopes ---------------------------------------------------------

@pytest.mark.parametrize(("mode", "batches", "has_entries", "want"), [
    (None, None, False, ("P1", "P2")),
    (None, (RecountUnit(" North ", ("P1", "P2")),), False, ("North",)),
    (EntryMode.DOUBLE, None, False, ("P1", "P2")),
    (EntryMode.DOUBLE, None, True, "already has tally entries"),
    (None, (RecountUnit("North", ("P1",)),), False, "Not covered by any unit"),
    (None, (RecountUnit("A", ("P1",)), RecountUnit("B", ("P1", "P2"))), False,
     "is in both 'A' and 'B'"),
], ids=["precincts", "batch", "start-again", "after-entries", "precinct-left-out",
        "precinct-twice"])
def test_starting_names_units_covering_every_precinct_once(
        mode: EntryMode | None, batches: tuple[RecountUnit, ...] | None, has_entries: bool,
        want: tuple[str, ...] | str) -> None:
    got = model(mode=mode).start(("P1", "P2"), batches, has_entries=has_entries)
    if isinstance(want, tuple):
        assert isinstance(got, StartChange)
        assert tuple(u.name for u in got.units) == want
        assert got.restarted is (mode is not None)
        assert got.kind is (UnitKind.BATCHES if batches else UnitKind.PRECINCTS)
    else:
        assert isinstance(got, Refusal) and want in got.text


PROPOSITION = ContestTotals(Contest(ContestKey("Prop 1"), ContestKind.PROPOSITION),
                            (ChoiceTotal(Choice("For", "", ChoiceKind.FOR), 5),
                             ChoiceTotal(Choice("Against", "", ChoiceKind.AGAINST), 4)))


@pytest.mark.parametrize(("canvass", "side", "want"), [
    (CANVASS, "Ada", "Ada"),
    (CANVASS, "Zed", "'Zed' is not a candidate in Mayor"),
    (PROPOSITION, "Proponents", "proponents"),
    (PROPOSITION, "Ada", "represents the proponents or the opponents (20A-4-401(2)(e))"),
    (CANVASS, " ", "Give the side or candidate the witness represents."),
], ids=["candidate", "not-a-candidate", "proponents", "proposition-candidate", "no-side"])
def test_a_witness_represents_a_candidate_or_a_side_of_a_proposition(
        canvass: ContestTotals, side: str, want: str) -> None:
    got = model(canvass=canvass).designate_witness(" Ruth K. ", "Ada", side)
    if isinstance(got, WitnessChange):
        assert (got.side, got.witness.name) == (want, "Ruth K.")
    else:
        assert want in got.text


def test_a_witness_cannot_leave_before_arriving() -> None:
    got = model().designate_witness("Ruth", "Ada", "Ada",
                                    attended_from=datetime(2024, 11, 21, 10),
                                    attended_to=datetime(2024, 11, 21, 9))
    assert isinstance(got, Refusal) and got.text == "The witness cannot leave before arriving."


@pytest.mark.parametrize(("envelopes", "confirmed", "want"), [
    ((), True, True),
    ((EnvelopeRecord("E1", "P1", "Late"),), True, "lists 1 envelope(s)"),
    ((EnvelopeRecord("E1", "P1", "Late"),), False, False),
], ids=["none-listed", "some-listed", "taken-back"])
def test_no_envelopes_is_confirmed_only_when_none_is_listed(
        envelopes: tuple[EnvelopeRecord, ...], confirmed: bool, want: bool | str) -> None:
    got = model(envelopes=envelopes).confirm_no_envelopes(confirmed, " none held ")
    if isinstance(want, bool):
        assert isinstance(got, NoEnvelopesChange)
        assert (got.confirmed, got.note) == (want, "none held")
    else:
        assert isinstance(got, Refusal) and want in got.text
