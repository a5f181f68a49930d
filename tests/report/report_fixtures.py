"""Named fixture recounts for the report tests, one per report variant.

- ``county_race``: a single-seat county race, requested late and accepted by override, with
  double entry, a resolution, variance notes, envelopes, witnesses and costs.
- ``house_69``: Grand County's portion of the multicounty State House District 69 race.
- ``two_seats_with_lot``: a two-seat race tied at the last seat, decided by lot (2024 text).
- ``proposition``: a county proposition recount requested by ten voters (they pay, 2019).
- ``large_board``: the county race before a fifteen-member board.
- ``wide``: many precincts and choices (1,500 × 7 in the tests).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta

from recount_desk.core.model import ContestKind, ElectionKind, Scope
from recount_desk.core.recount import (
    BoardMember,
    CostItem,
    CostKind,
    CostStatement,
    DeclarationRecord,
    Lot,
    RecountMethod,
    Signer,
    Signing,
    Witness,
)
from recount_desk.core.report_model import (
    AbsenteeSummary,
    Ballots,
    Board,
    EnvelopeLine,
    Officer,
    Printing,
    RecountReport,
    RecountRequestInfo,
    RejectedReason,
    ReportChoice,
    ReportContest,
    ReportElection,
    RequestCheck,
    Unit,
)
from recount_desk.core.rules import Edition, Result

# (precinct, canvass Watkins, canvass Glenn, recount Watkins, recount Glenn)
HOUSE_69_UNITS = (
    ("02 Moab 2:69", 397, 436, 397, 437),
    ("05 Moab 4:69", 0, 0, 0, 0),
    ("07 Moab 5:69", 0, 0, 0, 0),
    ("09 Thompson 6:69", 22, 6, 22, 6),
    ("11 Green River 7:69", 10, 1, 11, 1),
    ("13 Castle Valley 8:69", 90, 163, 90, 162),
    ("14 Moab 9:69", 68, 43, 68, 43),
    ("17 Moab 11:69", 254, 194, 254, 194),
)
NOTES = {
    "02 Moab 2:69": "One ballot with a light mark for Glenn, read on the recount.",
    "13 Castle Valley 8:69": "A ballot counted twice on election night was found and removed.",
}
RESOLVED = {"17 Moab 11:69": "Kept the first entry — by Helen Strand, November 29, 2018, "
                             "1:10 p.m.: both officers re-read the tape together"}


def _ballots(a: int, b: int, over: int, under: int, wi: int | None) -> Ballots:
    return Ballots(a + b + over + under + (wi or 0), wi, over, under)


def _units(rows: tuple[tuple[str, int, int, int, int], ...]) -> tuple[Unit, ...]:
    out = []
    for i, (n, a, b, c, d) in enumerate(rows):
        green = n == "11 Green River 7:69"
        out.append(Unit(
            n, (a, b), (c, d), (),
            Ballots(None, None, i % 3, 5 + i), _ballots(c, d, i % 3, 5 + i, 0),
            NOTES.get(n, ""), ("Dana Whitlock", "Marcus Ortega"), RESOLVED.get(n, ""),
            1 if green else 0))
    return tuple(out)


BOARD = Board(
    "Board of Grand County Canvassers",
    (BoardMember("Mary McGann", "Commission Chair"),
     BoardMember("Jaylyn Hawks", "Commissioner"),
     BoardMember("Evan Clapper", "Commissioner"),
     BoardMember("Curtis Wells", "Commissioner", present=False),
     BoardMember("Rory Paxman", "Commissioner"),
     BoardMember("Greg Halliday", "Commissioner", present=False),
     BoardMember("Terry Morse", "Commissioner")),
    body_size=7, convened_at=datetime(2018, 12, 4, 10, 0),
    place="Grand County Council Chambers, 125 E. Center St., Moab")

ENVELOPES = AbsenteeSummary(3, 1, (RejectedReason("Rejected as defective", 1),
                                   RejectedReason("Rejected as not returned in time", 1)), (
    EnvelopeLine("GR-0417", "11 Green River 7:69", "Signature did not appear to match",
                 (("Affidavit complete and signed", True),
                  ("Signature consistent with the record", True)),
                 "Accepted and counted", "Helen Strand", datetime(2018, 11, 29, 10, 5),
                 "11 Green River 7:69"),
    EnvelopeLine("GR-0522", "17 Moab 11:69", "Postmarked on election day",
                 (("Returned in time", False),),
                 "Rejected as not returned in time; stays unopened", "Helen Strand",
                 datetime(2018, 11, 29, 10, 20)),
    EnvelopeLine("GR-0601", "02 Moab 2:69", "No signature on the affidavit",
                 (("Affidavit complete and signed", False),),
                 "Rejected as defective; stays unopened", "Helen Strand",
                 datetime(2018, 11, 29, 10, 40)),
))

LATE_REQUEST = RecountRequestInfo(
    "Christine Watkins, candidate", datetime(2018, 11, 28, 16, 30), "the county clerk",
    "A losing candidate within .25% (20A-4-401(1)(b))", (),
    (RequestCheck(True, "A losing candidate; the difference of 1 vote is within .25% of "
                        "the 1,685 votes cast", "20A-4-401(1)(b)"),
     RequestCheck(False, "Filed after the deadline, 5:00 p.m. on November 27, 2018",
                  "20A-4-401(1)(d)(ii)"),
     RequestCheck(True, "Filed with the right office, the county clerk",
                  "20A-4-401(1)(d)(ii)(C)")),
    "The clerk's office was closed on November 27 by a snowstorm; the request was filed at "
    "the first opening.")

COSTS = CostStatement((CostItem(CostKind.STAFF, "Staff: 12 hours × $25.00", 30000, 1200, 2500),
                       CostItem(CostKind.OTHER, "Tabulator programming", 12550)),
                      "Grand County (not the candidate who asked)",
                      "20A-4-401(3) (2013 text)",
                      ("Who pays is NOT CONFIRMED for this edition and contest.",))


def county_race(**changes: object) -> RecountReport:
    """A finished recount of a single-seat county race in Grand County (2018 general)."""
    report = RecountReport(
        election=ReportElection("2018 General Election", date(2018, 11, 6),
                                ElectionKind.GENERAL, "Grand County"),
        board=BOARD,
        contest=ReportContest("County Commission Seat A", ContestKind.RACE, Scope.COUNTY, 1),
        edition=Edition.Y2019,
        choices=(ReportChoice("Christine Watkins", "Rep"), ReportChoice("Tim Glenn", "Dem")),
        units=_units(HOUSE_69_UNITS),
        method=RecountMethod.RETABULATION,
        double_entry=True,
        started=date(2018, 11, 29),
        completed=date(2018, 11, 30),
        declaration=DeclarationRecord(Result.ELECTED, ("Tim Glenn",), "20A-4-401(1)(e)(iv)",
                                datetime(2018, 11, 30, 16, 0), None, "Diana Carroll"),
        officer=Officer("Diana Carroll", "Grand County Clerk/Auditor"),
        requests=(LATE_REQUEST,),
        absentee=ENVELOPES,
        witnesses=(Witness("Sam Ortega", "Christine Watkins", datetime(2018, 11, 28, 17, 0),
                           datetime(2018, 11, 29, 9, 0), datetime(2018, 11, 30, 15, 0)),
                   Witness("Ann Lee", "Tim Glenn", datetime(2018, 11, 28, 17, 30))),
        costs=COSTS,
        canvass_completed=date(2018, 11, 20),
        started_at=datetime(2018, 11, 29, 8, 30),
        completed_at=datetime(2018, 11, 30, 14, 0),
    )
    return dataclasses.replace(report, **changes)


def signed(report: RecountReport, reprint: int = 0,
           at: datetime | None = None) -> RecountReport:
    """The same report as recorded signed by every member present and the officer (an
    hour after the report's date unless ``at`` says when)."""
    at = at or report.report_date() + timedelta(hours=1)
    signers = tuple(Signer(m.name, m.title) for m in report.board.present)
    signers += (Signer(report.officer.name, report.officer.title),)
    gen = datetime(2019, 1, 3, 15, 5) if reprint else at
    return dataclasses.replace(report, printing=Printing(
        reprint, gen, None, Signing(at, "Moab", signers)))


def house_69(**changes: object) -> RecountReport:
    """Grand County's portion of the multicounty State House District 69 race (2018)."""
    r = county_race(
        contest=ReportContest("State House", ContestKind.RACE, Scope.MULTICOUNTY, 1, "69"),
        requests=(RecountRequestInfo(
            "Christine Watkins, candidate", datetime(2018, 11, 26, 14, 30),
            "the lieutenant governor",
            "A losing candidate within .25% (20A-4-401(1)(b))", (),
            (RequestCheck(True, "The difference of 9 votes is within .25% of the 8,116 votes "
                                "cast district-wide", "20A-4-401(1)(b)"),
             RequestCheck(True, "Filed in time", "20A-4-401(1)(d)(ii)")), ""),),
        declaration=DeclarationRecord(Result.ELECTED))
    return dataclasses.replace(r, **changes)


def proposition(edition: Edition = Edition.Y2019, scope: Scope = Scope.COUNTY,
                requested: bool = True) -> RecountReport:
    """A county proposition recount requested by ten voters."""
    base = county_race()
    voters = tuple(f"Voter {i}" for i in range(1, 11))
    req = (RecountRequestInfo("Ten voters of Grand County", datetime(2018, 11, 26, 9, 0),
                              "the county clerk", "20A-4-401(2)(a)", voters,
                              (RequestCheck(True, "Ten voters who voted in the election",
                                            "20A-4-401(2)(a)"),)),)
    return dataclasses.replace(
        base,
        contest=ReportContest("Proposition 1: Moab Pool Bond", ContestKind.PROPOSITION, scope),
        edition=edition,
        choices=(ReportChoice("For"), ReportChoice("Against")),
        units=(Unit("01 Moab 1:70", (300, 301), (301, 301), (), Ballots(None, None, 0, 4),
                    Ballots(606, None, 0, 4), "One ballot found in the transfer case.",
                    envelopes=1),
               Unit("02 Moab 2:69", (250, 249), (250, 249), (), Ballots(None, None, 1, 2),
                    Ballots(502, None, 1, 2))),
        declaration=DeclarationRecord(Result.PASSED, (), "20A-4-401(2)(d)(iv)",
                                datetime(2018, 11, 30, 16, 0), None, "Diana Carroll"),
        requests=req if requested else (),
        automatic_basis="" if requested else "Tie vote (20A-4-401(2), 2024 H.B. 515)",
        write_in_line=False,
        absentee=AbsenteeSummary(1, 1, (), (EnvelopeLine(
            "GR-0710", "01 Moab 1:70", "Signature did not appear to match",
            (("Signature consistent with the record", True),), "Accepted and counted",
            "Helen Strand", datetime(2018, 11, 29, 10, 5), "01 Moab 1:70"),)),
        costs=CostStatement((CostItem(CostKind.STAFF, "Staff: 12 hours × $25.00", 30000, 1200, 2500),
                             CostItem(CostKind.OTHER, "Tabulator programming", 12550)),
                            "The voters who requested the recount", "20A-4-401(2)(f)"),
    )


def two_seats_with_lot() -> RecountReport:
    """Two seats; Lee and Ortiz tie for the second on the recount; the lot is drawn at a
    public meeting after the recount canvass (2024 H.B. 515)."""
    names = ("Avery Brooks", "Dana Lee", "Marco Ortiz", "Quinn Park")
    canvass = ((120, 88, 87, 40), (95, 70, 71, 33))
    recount = ((120, 88, 88, 40), (95, 70, 70, 33))
    units = tuple(Unit(f"Precinct {i + 1}", c, r, (), Ballots(None, None, 0, 6),
                       Ballots(None, 0, 0, 6), "A ballot misread on election night."
                       if c != r else "", ("Dana Whitlock",))
                  for i, (c, r) in enumerate(zip(canvass, recount, strict=True)))
    lot = Lot("Diana Carroll, county clerk", datetime(2024, 11, 29, 11, 0),
              "Grand County Council Chambers", "a name drawn from a covered box",
              ("Sam Ortega", "Ann Lee"), ("Marco Ortiz",))
    return county_race(
        election=ReportElection("2024 General Election", date(2024, 11, 5),
                                ElectionKind.GENERAL, "Grand County"),
        edition=Edition.Y2024,
        contest=ReportContest("School Board At Large", ContestKind.RACE, Scope.COUNTY, 2),
        choices=tuple(ReportChoice(n) for n in names),
        units=units,
        requests=(),
        automatic_basis="Dana Lee and Marco Ortiz are tied for the last seat on the canvass "
                        "(20A-4-401(2), 2024 H.B. 515)",
        started=date(2024, 11, 21), completed=date(2024, 11, 22),
        started_at=datetime(2024, 11, 21, 9, 0), completed_at=datetime(2024, 11, 22, 12, 0),
        canvass_completed=date(2024, 11, 19),
        board=dataclasses.replace(BOARD, convened_at=datetime(2024, 11, 25, 10, 0)),
        declaration=DeclarationRecord(
            Result.ELECTED, ("Avery Brooks", "Marco Ortiz"), "20A-4-304(1)(b); 20A-1-304",
            datetime(2024, 11, 29, 11, 30), lot, "Diana Carroll", ("Dana Lee", "Marco Ortiz"),
            "The election officer decide(s) the tie by lot at a public meeting, in a manner "
            "the officer chooses (20A-1-304 (as amended by 2024 H.B. 515))",
            "Both tied candidates told by telephone and e-mail on November 26, 2024",
            date(2024, 12, 2), False),
        absentee=None, witnesses=(),
        costs=CostStatement((), "Grand County", "2024 H.B. 515"))


def tie_with_lot() -> RecountReport:
    return two_seats_with_lot()


def large_board() -> RecountReport:
    members = tuple(BoardMember(f"Member {chr(65 + i)} Constantinopoulos-Wright",
                                "Council Member", present=i != 3) for i in range(15))
    return county_race(board=dataclasses.replace(BOARD, title="Board of Salt Lake County "
                                                 "Canvassers", members=members, body_size=15))


def wide(units: int, choices: int) -> RecountReport:
    r = county_race()
    names = tuple(ReportChoice(f"Candidate {chr(65 + i)} Constantinopoulos", "Party") for i in
                  range(choices))
    us = tuple(Unit(f"Precinct {i:04d}", tuple((i * 7 + j) % 500 for j in range(choices)),
                    tuple((i * 7 + j) % 500 + (1 if (i + j) % 97 == 0 else 0)
                          for j in range(choices)), (), Ballots(None, None, i % 4, i % 9),
                    Ballots(None, i % 3, i % 4, i % 9),
                    "Re-tabulated batch differs by one ballot." if i % 97 == 0 else "",
                    ("Dana Whitlock", "Marcus Ortega")) for i in range(units))
    return dataclasses.replace(r, choices=names, units=us)
