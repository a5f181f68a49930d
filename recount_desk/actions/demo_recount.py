"""The demo's finished recount: Salt Lake County 2016, State House District 32, built through
the recount actions.

The race lay wholly within Salt Lake County, so the request went to the county clerk and
the county's board of canvassers declares the result (20A-4-401(1)(d)(ii)(C), (4)). The
recount was a re-tabulation: the county's recount statement of votes (December 5, 2016) is
loaded through the re-tabulation import, as an officer would load it, so the demo shows
real records: a request, the load with its file and SHA-256, two envelopes reexamined (both
stay rejected, so the totals are the statement's), witnesses, costs, the declaration and
the board convened; the report is not signed yet so a new user can still make it. The
figures are real; the people, the times of day, the envelopes and the costs are
illustrative (resources/demo/SOURCES.md).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from recount_desk.core.people import Role
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    BoardRole,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    RecountMethod,
    RejectionReason,
)
from recount_desk.core.rules import Office, Requester
from recount_desk.store import repo

from . import recount as rc
from . import retab
from .case import Case, add_person
from .contests import record_request

DEMO_TITLE = "State House"
DEMO_DISTRICT = "32"
HARRISON, CHRISTENSEN = "Suzanne Harrison", "Lavar Christensen"
SUPERVISOR = "Helen Strand"
OPERATOR = "Dana Whitlock"


def demo_contest_id(case: Case) -> int:
    for c in repo.contests(case.conn):
        key = c.totals.contest.key
        if key.title == DEMO_TITLE and key.district == DEMO_DISTRICT:
            return c.id
    raise LookupError("The demo canvass has no State House District 32 race.")


def complete_demo_recount(case: Case, *, set_clock: Callable[[datetime], None] | None = None,
                          recount_file: Path | None = None) -> int:
    """Run the whole recount of State House District 32 in the demo case; returns its id."""
    cid = demo_contest_id(case)
    if recount_file is None:
        from .demo import demo_spec

        recount_file = demo_spec().recount
    if recount_file is None:
        raise LookupError("The demo has no recount statement to load.")

    def at(when: datetime) -> None:  # the local time the next records are made
        if set_clock is not None:
            set_clock(when)

    at(datetime(2016, 11, 29, 9, 0))
    # The office's roster: a deputy runs the tabulators, a supervisor checks the envelopes.
    for name, role in ((OPERATOR, Role.DEPUTY), (SUPERVISOR, Role.SUPERVISOR)):
        if case.roster.who(name).person is None:
            add_person(case, name, role)
    at(datetime(2016, 11, 29, 10, 20))
    record_request(case, cid, requester=Requester.CANDIDATE, candidate=HARRISON, voters=[],
                   filed_at=datetime(2016, 11, 29, 10, 15), filed_with=Office.COUNTY_CLERK)
    at(datetime(2016, 12, 5, 8, 30))
    rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                     entry_mode=EntryMode.DOUBLE)
    rc.add_witness(case, cid, name="Ruth Kessler", designated_by=HARRISON, side=HARRISON,
                   designated_at=datetime(2016, 12, 1, 9, 0),
                   attended_from=datetime(2016, 12, 5, 8, 30),
                   attended_to=datetime(2016, 12, 5, 15, 45))
    rc.add_witness(case, cid, name="Alan Pryce", designated_by=CHRISTENSEN, side=CHRISTENSEN,
                   designated_at=datetime(2016, 12, 1, 11, 15),
                   attended_from=datetime(2016, 12, 5, 8, 30),
                   attended_to=datetime(2016, 12, 5, 15, 45))

    # The ballots were run through the tabulators again; the election system printed the
    # recount statement, which is loaded as the recount's tallies in one action.
    at(datetime(2016, 12, 5, 13, 10))
    clerk = case.person
    case.act_as(OPERATOR)  # the deputy who ran the tabulators loads their statement
    retab.load_retab(case, retab.preview_load(case, cid, recount_file))
    if clerk is not None:
        case.act_as(clerk.name)

    at(datetime(2016, 12, 5, 13, 40))
    rc.add_envelope(case, cid, envelope_id="SL-2016-104417", precinct="SAN071",
                    original_reason="Received after noon on the canvass day")
    rc.add_envelope(case, cid, envelope_id="SL-2016-108230", precinct="DRP019",
                    original_reason="Affidavit not signed")
    rc.record_envelope_checks(
        case, cid, "SL-2016-104417",
        checks={EnvelopeCheck.AFFIDAVIT: True, EnvelopeCheck.SIGNATURE: True,
                EnvelopeCheck.REGISTERED: True, EnvelopeCheck.NOT_VOTED: True},
        postmarked=date(2016, 11, 7), received_at=datetime(2016, 11, 22, 14, 5),
        checked_by=SUPERVISOR, note="Date stamp of the mail room checked.")
    rc.decide_envelope(case, cid, "SL-2016-104417", outcome=EnvelopeOutcome.REJECTED,
                       decided_by=SUPERVISOR, reason=RejectionReason.LATE)
    rc.record_envelope_checks(
        case, cid, "SL-2016-108230", checks={EnvelopeCheck.AFFIDAVIT: False},
        postmarked=date(2016, 11, 4), received_at=datetime(2016, 11, 9, 10, 30),
        checked_by=SUPERVISOR, note="The affidavit's signature line is blank.")
    rc.decide_envelope(case, cid, "SL-2016-108230", outcome=EnvelopeOutcome.REJECTED,
                       decided_by=SUPERVISOR, reason=RejectionReason.DEFECTIVE)

    at(datetime(2016, 12, 5, 15, 0))
    rc.add_cost(case, cid, kind=CostKind.STAFF,
                description=f"Tabulator operator ({OPERATOR}), 4.5 h",
                hours_hundredths=450, rate_cents=3100)
    rc.add_cost(case, cid, kind=CostKind.STAFF,
                description="Ballot retrieval and resealing, 2 deputies × 3 h",
                hours_hundredths=600, rate_cents=2450)
    rc.add_cost(case, cid, kind=CostKind.MATERIALS,
                description="Test deck, ballot bags and tamper-evident seals",
                amount_cents=4200)

    at(datetime(2016, 12, 5, 16, 0))
    rc.declare(case, cid, on=date(2016, 12, 5))
    at(datetime(2016, 12, 6, 9, 30))
    rc.set_board_members(case, cid, [
        BoardMember("Evelyn Marsh", "Council Chair"),
        BoardMember("Priya Castillo", "Council Vice Chair"),
        BoardMember("Jonah Redd", "Council Member"),
        BoardMember("Walter Benning", "Council Member"),
        BoardMember("Lila Sorensen", "Council Member"),
        BoardMember("Hank Delgado", "Council Member"),
        BoardMember("Rosa Whitfield", "Council Member", present=False),
        BoardMember("Omar Haddad", "Council Member", present=False),
        BoardMember("June Talbot", "Council Member", present=False),
        BoardMember("Nora Ashby", "County Clerk, clerk of the board", BoardRole.CLERK),
    ])
    rc.convene_board(case, cid, convened_at=datetime(2016, 12, 6, 10, 0),
                     place="Salt Lake County Government Center, Council Chambers",
                     body_size=9, board_kind=BoardKind.COUNTY)
    return cid
