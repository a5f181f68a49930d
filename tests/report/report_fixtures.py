"""Named fixture recounts for the report tests: Grand County, State House District 69."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

from recount_desk.core.model import ContestKind, ElectionKind, Scope
from recount_desk.core.report_model import (
    AbsenteeSummary,
    Board,
    BoardMember,
    CostItem,
    CostStatement,
    Declaration,
    Declared,
    Lot,
    Officer,
    RecountMethod,
    RecountReport,
    RecountRequestInfo,
    RejectedReason,
    ReportChoice,
    ReportContest,
    ReportElection,
    Unit,
    Witness,
)
from recount_desk.core.rules import Edition

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


def house_69(**changes: object) -> RecountReport:
    """A finished recount of State House District 69 in Grand County (2018 general)."""
    report = RecountReport(
        election=ReportElection("2018 General Election", date(2018, 11, 6),
                                ElectionKind.GENERAL, "Grand County"),
        board=Board(
            "Board of Grand County Canvassers",
            (BoardMember("Mary McGann", "Commission Chair"),
             BoardMember("Jaylyn Hawks", "Commissioner"),
             BoardMember("Evan Clapper", "Commissioner"),
             BoardMember("Curtis Wells", "Commissioner", present=False),
             BoardMember("Rory Paxman", "Commissioner"),
             BoardMember("Greg Halliday", "Commissioner", present=False),
             BoardMember("Terry Morse", "Commissioner")),
            body_size=7, convened_at=datetime(2018, 12, 4, 10, 0),
            place="Grand County Council Chambers, 125 E. Center St., Moab"),
        contest=ReportContest("State House", ContestKind.RACE, Scope.MULTICOUNTY, 1, "69"),
        edition=Edition.Y2019,
        choices=(ReportChoice("Christine Watkins", "Rep"), ReportChoice("Tim Glenn", "Dem")),
        units=tuple(Unit(n, (a, b), (c, d)) for n, a, b, c, d in HOUSE_69_UNITS),
        method=RecountMethod.RETABULATION,
        double_entry=True,
        started=date(2018, 11, 28),
        completed=date(2018, 11, 30),
        declaration=Declaration(Declared.ELECTED, ("Tim Glenn",), "20A-4-401(1)(e)(iv)",
                                datetime(2018, 11, 30, 16, 0)),
        officer=Officer("Diana Carroll", "Grand County Clerk/Auditor"),
        requests=(RecountRequestInfo(
            "Christine Watkins", datetime(2018, 11, 26, 14, 30),
            "the lieutenant governor",
            "A losing candidate; the difference of 9 votes from the winner is within .25% "
            "of the 8,116 votes cast district-wide (20A-4-401(1)(b))"),),
        ballots_rejected=14,
        absentee=AbsenteeSummary(5, 2, (RejectedReason("Rejected as defective", 2),
                                        RejectedReason("Rejected as not a registered voter",
                                                       1))),
        witnesses=(Witness("Sam Ortega", "Christine Watkins"),
                   Witness("Ann Lee", "Tim Glenn")),
    )
    return dataclasses.replace(report, **changes)


def proposition(edition: Edition = Edition.Y2019, scope: Scope = Scope.COUNTY,
                requested: bool = True) -> RecountReport:
    """A county proposition recount requested by ten voters."""
    base = house_69()
    voters = tuple(f"Voter {i}" for i in range(1, 11))
    req = (RecountRequestInfo("Ten voters of Grand County", datetime(2018, 11, 26, 9, 0),
                              "the county clerk", "20A-4-401(2)(a)", voters),)
    return dataclasses.replace(
        base,
        contest=ReportContest("Proposition 1: Moab Pool Bond", ContestKind.PROPOSITION, scope),
        edition=edition,
        choices=(ReportChoice("For"), ReportChoice("Against")),
        units=(Unit("01 Moab 1:70", (300, 301), (301, 301)),
               Unit("02 Moab 2:69", (250, 249), (250, 249))),
        declaration=Declaration(Declared.PASSED, (), "20A-4-304(1)(c)"),
        requests=req if requested else (),
        automatic_basis="" if requested else "Tie vote (20A-4-401(2), 2024 H.B. 515)",
        costs=CostStatement((CostItem("Staff: 12 hours × $25.00", 30000),
                             CostItem("Tabulator programming", 12550)),
                            "The voters who requested the recount", "20A-4-401(2)(f)"),
    )


def tie_with_lot() -> RecountReport:
    return house_69(declaration=Declaration(
        Declared.ELECTED, ("Tim Glenn",), "20A-4-304(1)(b); 20A-1-304",
        datetime(2018, 12, 7, 11, 0),
        Lot("a name drawn from a covered box", "Diana Carroll, county clerk",
            datetime(2018, 12, 7, 11, 0), "Grand County Council Chambers",
            "Tim Glenn's name was drawn; Tim Glenn is elected",
            ("Christine Watkins", "Tim Glenn"))))
