"""The demo's finished recount: State House District 69, built through the recount actions.

Everything here goes through the same functions the window calls, so the demo shows real
records: a request, double entry with one mismatch resolved, two envelopes reexamined (one
accepted), a declaration, witnesses, costs and the board convened; the report is not signed
yet so a new user can still make it. The people are invented; the canvass is real (Grand
County 2018), the recount numbers are illustrative.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

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
    RecountMethod,
    RejectionReason,
    ResolutionKind,
    TallySheet,
)
from recount_desk.core.rules import Office, Requester
from recount_desk.store import repo

from . import recount as rc
from .case import Case, add_person
from .contests import record_request

DEMO_TITLE = "State House"
DEMO_DISTRICT = "69"
WATKINS, GLENN = "Christine Watkins", "Tim Glenn"
FIRST_OFFICER, SECOND_OFFICER = "Dana Whitlock", "Marcus Ortega"
SUPERVISOR = "Helen Strand"

# precinct: (Watkins, Glenn, write-ins, over, under, ballots) as recounted. Canvass differs
# by one vote in Castle Valley 8 (Watkins 90 → 91) and Moab 9 (Glenn 43 → 44).
RECOUNT: dict[str, tuple[int, int, int, int, int, int]] = {
    "02 Moab 2:69": (397, 436, 0, 1, 27, 861),
    "05 Moab 4:69": (0, 0, 0, 0, 0, 0),
    "07 Moab 5:69": (0, 0, 0, 0, 0, 0),
    "09 Thompson 6:69": (22, 6, 0, 0, 2, 30),
    "11 Green River 7:69": (10, 1, 0, 0, 1, 12),
    "13 Castle Valley 8:69": (91, 163, 1, 0, 8, 263),
    "14 Moab 9:69": (68, 44, 0, 0, 4, 116),
    "17 Moab 11:69": (254, 194, 0, 1, 15, 464),
}
MISMATCH_UNIT = "17 Moab 11:69"


def _sheet(row: tuple[int, int, int, int, int, int]) -> TallySheet:
    w, g, wi, over, under, ballots = row
    return TallySheet(ballots, {WATKINS: w, GLENN: g}, wi, over, under)


def demo_contest_id(case: Case) -> int:
    for c in repo.contests(case.conn):
        key = c.totals.contest.key
        if key.title == DEMO_TITLE and key.district == DEMO_DISTRICT:
            return c.id
    raise LookupError("The demo canvass has no State House District 69 race.")


# Grand holds only its part of State House 69 (Carbon, Duchesne, Emery, Grand): the program
# rightly refuses a request judged on Grand's figures. The demo records it with this reason
# until the demo moves to a race within one county (Salt Lake 2016 State House 32).
DEMO_OVERRIDE = (
    "Demo only: Grand County's figures are its portion of the multicounty State House 69 "
    "race; on the whole race (Watkins 8,589, Glenn 3,320) no recount could be requested. "
    "The request is recorded to show the recount steps.")


def complete_demo_recount(case: Case, *,
                          set_clock: Callable[[datetime], None] | None = None) -> int:
    """Run the whole recount of State House District 69 in the demo case; returns its id."""
    cid = demo_contest_id(case)

    def at(when: datetime) -> None:  # the local time the next records are made
        if set_clock is not None:
            set_clock(when)

    at(datetime(2018, 11, 21, 9, 0))
    # The office's roster: two deputies enter the tallies, a supervisor settles differences.
    for name, role in ((FIRST_OFFICER, Role.DEPUTY), (SECOND_OFFICER, Role.DEPUTY),
                       (SUPERVISOR, Role.SUPERVISOR)):
        if case.roster.who(name).person is None:
            add_person(case, name, role)
    at(datetime(2018, 11, 21, 14, 35))
    record_request(case, cid, requester=Requester.CANDIDATE, candidate=WATKINS, voters=[],
                   filed_at=datetime(2018, 11, 21, 14, 30),
                   filed_with=Office.LIEUTENANT_GOVERNOR, override_reason=DEMO_OVERRIDE)
    at(datetime(2018, 11, 26, 8, 30))
    rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                     entry_mode=EntryMode.DOUBLE)
    rc.add_witness(case, cid, name="Ruth Kessler", designated_by=WATKINS, side=WATKINS,
                   designated_at=datetime(2018, 11, 23, 9, 0),
                   attended_from=datetime(2018, 11, 26, 8, 30),
                   attended_to=datetime(2018, 11, 27, 16, 45))
    rc.add_witness(case, cid, name="Alan Pryce", designated_by=GLENN, side=GLENN,
                   designated_at=datetime(2018, 11, 23, 11, 15),
                   attended_from=datetime(2018, 11, 26, 8, 30),
                   attended_to=datetime(2018, 11, 27, 16, 45))

    for unit, row in RECOUNT.items():
        rc.enter_tally(case, cid, unit, entry=1, officer=FIRST_OFFICER, sheet=_sheet(row))
    at(datetime(2018, 11, 26, 13, 0))
    for unit, row in RECOUNT.items():
        sheet = _sheet(row)
        if unit == MISMATCH_UNIT:
            # The second officer read the over-vote line as an under-vote.
            sheet = TallySheet(464, {WATKINS: 254, GLENN: 194}, 0, 0, 16)
        rc.enter_tally(case, cid, unit, entry=2, officer=SECOND_OFFICER, sheet=sheet)
    rc.resolve_mismatch(case, cid, MISMATCH_UNIT, kind=ResolutionKind.KEEP_FIRST,
                        by=SUPERVISOR,
                        note="Both officers re-read the tabulator tape together: one "
                             "over-vote, 15 under-votes, as in the first entry.")
    rc.set_variance_note(case, cid, "13 Castle Valley 8:69",
                         "One ballot with a light mark for Watkins, read by the tabulator "
                         "on the recount; the canvass counted it as an under-vote.")
    rc.set_variance_note(case, cid, "14 Moab 9:69",
                         "Tabulator count of the recount batch is one higher for Glenn; "
                         "batch sheet re-checked, no further explanation found.")

    at(datetime(2018, 11, 27, 9, 0))
    rc.add_envelope(case, cid, envelope_id="GR-2018-0417", precinct="02 Moab 2:69",
                    original_reason="Signature did not appear to match the registration "
                                    "record")
    rc.add_envelope(case, cid, envelope_id="GR-2018-0522", precinct="17 Moab 11:69",
                    original_reason="Postmarked on election day")
    all_pass = {c: True for c in (EnvelopeCheck.AFFIDAVIT, EnvelopeCheck.SIGNATURE,
                                  EnvelopeCheck.REGISTERED, EnvelopeCheck.NOT_VOTED)}
    rc.record_envelope_checks(
        case, cid, "GR-2018-0417", checks=all_pass, postmarked=date(2018, 11, 5),
        received_at=datetime(2018, 11, 8, 10, 12), checked_by=SUPERVISOR,
        note="Compared with the 2016 registration signature on file: consistent.")
    rc.decide_envelope(case, cid, "GR-2018-0417", outcome=EnvelopeOutcome.ACCEPTED,
                       decided_by=SUPERVISOR, votes=EnvelopeVotes({WATKINS: 1, GLENN: 0}))
    rc.record_envelope_checks(
        case, cid, "GR-2018-0522", checks=all_pass, postmarked=date(2018, 11, 6),
        received_at=datetime(2018, 11, 9, 11, 40), checked_by=SUPERVISOR)
    rc.decide_envelope(case, cid, "GR-2018-0522", outcome=EnvelopeOutcome.REJECTED,
                       decided_by=SUPERVISOR, reason=RejectionReason.LATE)

    at(datetime(2018, 11, 28, 15, 0))
    rc.add_cost(case, cid, kind=CostKind.STAFF,
                description="Tally entry and double entry, 2 deputies × 6.5 h",
                hours_hundredths=1300, rate_cents=2450)
    rc.add_cost(case, cid, kind=CostKind.STAFF, description="Tabulator operator, 4 h",
                hours_hundredths=400, rate_cents=3100)
    rc.add_cost(case, cid, kind=CostKind.MATERIALS,
                description="Test deck, ballot bags and tamper-evident seals",
                amount_cents=4200)
    rc.add_cost(case, cid, kind=CostKind.OTHER,
                description="Courier of the report to the lieutenant governor",
                amount_cents=3500)

    at(datetime(2018, 11, 29, 10, 0))
    rc.declare(case, cid, on=date(2018, 11, 29))
    at(datetime(2018, 11, 30, 9, 30))
    rc.set_board_members(case, cid, [
        BoardMember("Evelyn Marsh", "Council Chair"),
        BoardMember("Priya Castillo", "Council Vice Chair"),
        BoardMember("Jonah Redd", "Council Member"),
        BoardMember("Walter Benning", "Council Member"),
        BoardMember("Lila Sorensen", "Council Member"),
        BoardMember("Hank Delgado", "Council Member", present=False),
        BoardMember("Rosa Whitfield", "Council Member", present=False),
        BoardMember("Nora Ashby", "County Clerk/Auditor, clerk of the board",
                    BoardRole.CLERK),
    ])
    rc.convene_board(case, cid, convened_at=datetime(2018, 11, 30, 10, 0),
                     place="Grand County Council Chambers, Moab", body_size=7,
                     board_kind=BoardKind.COUNTY)
    return cid
