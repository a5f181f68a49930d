"""The district table and scope inference, checked against the public canvass files kept in
tests/data (the 2016 and 2018 state canvasses, the 29 counties' 2018 and 2022 files)."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from recount_desk.core.districts import (
    COUNTIES,
    DistrictOffice,
    MapCycle,
    counties_of,
    county_name,
    cycle_for,
    district_office,
    districts_of_county,
)
from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    Scope,
)
from recount_desk.core.rules import Edition
from recount_desk.core.scope import check_label, decide_scoped, infer_scope

ROOT = Path(__file__).resolve().parents[2]
E2018, E2022 = date(2018, 11, 6), date(2022, 11, 8)


def test_the_table_is_what_the_data_gives() -> None:
    script = ROOT / "tests" / "data" / "districts" / "make_table.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    # The three mislabelled 2018 files are corrected, and said so.
    assert "grand" in done.stdout and "kane" in done.stdout and "morgan" in done.stdout


@pytest.mark.parametrize(("office", "number", "when", "counties"), [
    (DistrictOffice.STATE_HOUSE, 69, E2018, ("Carbon", "Duchesne", "Emery", "Grand")),
    (DistrictOffice.STATE_HOUSE, 32, E2018, ("Salt Lake",)),
    (DistrictOffice.STATE_HOUSE, 73, E2018,
     ("Beaver", "Garfield", "Kane", "Piute", "San Juan", "Sevier", "Wayne")),
    (DistrictOffice.STATE_HOUSE, 58, E2018, ("Juab", "Sanpete")),  # Juab's file lacks it
    (DistrictOffice.STATE_HOUSE, 69, E2022,
     ("Emery", "Garfield", "Grand", "Kane", "San Juan", "Wayne")),
    (DistrictOffice.US_HOUSE, 3, E2018,
     ("Carbon", "Emery", "Grand", "Salt Lake", "San Juan", "Utah", "Wasatch")),
    (DistrictOffice.STATE_SENATE, 27, date(2016, 11, 8),
     ("Carbon", "Emery", "Grand", "San Juan", "Utah", "Wasatch")),
    (DistrictOffice.JUDICIAL, 7, E2022, ("Carbon", "Emery", "Grand", "San Juan")),
], ids=["hd69-2018", "hd32", "hd73", "hd58-juab", "hd69-2022", "ush3", "sd27", "judicial7"])
def test_district_counties(office: DistrictOffice, number: int, when: date,
                           counties: tuple[str, ...]) -> None:
    assert counties_of(office, number, when) == counties


def test_every_district_of_the_2012_maps_is_known_and_every_county_in_a_us_house_district(
) -> None:
    for office in (DistrictOffice.US_HOUSE, DistrictOffice.STATE_SENATE,
                   DistrictOffice.STATE_HOUSE):
        for n in range(1, office.seats + 1):
            assert counties_of(office, n, E2018), (office, n)
    for county in COUNTIES:
        assert districts_of_county(DistrictOffice.US_HOUSE, county, E2018)
        assert districts_of_county(DistrictOffice.US_HOUSE, county, E2022)
        assert districts_of_county(DistrictOffice.STATE_HOUSE, county, E2022)
    # Grand lies in U.S. House 3 alone (its 2018 file says 1).
    assert districts_of_county(DistrictOffice.US_HOUSE, "Grand", E2018) == (3,)


def test_cycles_and_names() -> None:
    assert cycle_for(date(2021, 11, 2)) is MapCycle.MAPS_2012
    assert cycle_for(date(2022, 6, 28)) is MapCycle.MAPS_2022
    assert cycle_for(date(2010, 11, 2)) is None
    assert counties_of(DistrictOffice.STATE_HOUSE, 69, date(2010, 11, 2)) is None
    assert county_name("GRAND") == county_name("Grand County") == "Grand"
    assert county_name("San Pete") == "Sanpete"
    assert county_name("salt_lake") == "Salt Lake"
    assert county_name("Atlantis") is None
    assert district_office("U S House", "") == (DistrictOffice.US_HOUSE, None)
    assert district_office("State House District 70") == (DistrictOffice.STATE_HOUSE, 70)
    assert district_office("STATE SCHOOL BOARD DISTRICT #11") == (
        DistrictOffice.STATE_SCHOOL_BOARD, 11)
    assert district_office("County Sheriff") is None


def race(title: str, district: str = "", kind: ContestKind = ContestKind.RACE) -> Contest:
    return Contest(ContestKey(title, district), kind)


P = ContestKind.PROPOSITION


@pytest.mark.parametrize(("contest", "county", "when", "scope"), [
    (race("U.S. Senate"), "Grand", E2018, Scope.STATEWIDE),
    (race("U S Senate"), "Morgan", E2018, Scope.STATEWIDE),
    (race("State Treasurer"), "Beaver", E2022, Scope.STATEWIDE),
    (race("President"), "Grand", date(2016, 11, 8), Scope.STATEWIDE),
    (race("Governor"), None, date(2020, 11, 3), Scope.STATEWIDE),
    (race("Constitutional Amendment A", kind=P), "Grand", E2022, Scope.STATEWIDE),
    (race("Constitutionel Amendment A", kind=P), "Piute", E2022, Scope.STATEWIDE),
    (race("PROPOSITION NUMBER 3", kind=P), "Salt Lake", E2018, Scope.STATEWIDE),
    (race("Supreme Court Petersen", kind=P), "Weber", E2022, Scope.STATEWIDE),
    (race("PAIGE PETERSEN Judicial Retention", kind=P), "Grand", E2022, Scope.MULTICOUNTY),
    (race("Second District Court Edwards", kind=P), "Weber", E2022, Scope.MULTICOUNTY),
    (race("CONSTANDINOS (DENO) HIMONAS", kind=P), "Salt Lake", E2018, Scope.MULTICOUNTY),
    (race("South Ogden Justice Court Memmott", kind=P), "Weber", E2022, Scope.COUNTY),
    (race("U.S. House", "1"), "Grand", E2018, Scope.MULTICOUNTY),
    (race("State House", "69"), "Grand", E2018, Scope.MULTICOUNTY),
    (race("State House", "32"), "Salt Lake", E2018, Scope.COUNTY),
    (race("State House District 70"), "Sevier", E2022, Scope.MULTICOUNTY),
    (race("State Senate", "8"), "Salt Lake", E2022, Scope.MULTICOUNTY),  # not in the table
    (race("Multi-County Water Board (Multi-County)"), "Utah", E2022, Scope.MULTICOUNTY),
    (race("Grand County Sheriff"), "Grand", E2022, Scope.COUNTY),
    (race("COUNTY COUNCIL DISTRICT #1"), "Salt Lake", E2018, Scope.COUNTY),
    (race("Moab Valley Fire District"), "Grand", E2022, Scope.SPECIAL_DISTRICT),
    (race("Lake Point City Council 1 yr"), "Tooele", E2022, Scope.MUNICIPAL),
], ids=lambda v: str(v)[:40] if isinstance(v, Contest) else None)
def test_scope_from_the_office_and_the_table(contest: Contest, county: str | None,
                                             when: date, scope: Scope) -> None:
    assert infer_scope(contest, county=county, election_date=when).scope is scope


# Titles as Utah's county files write them (the corpus's Juab 2022, Box Elder 2018 general
# and primary, Davis 2016-2020, Garfield 2020, Grand 2016, Weber 2020 workbooks), each once
# taken for a county's own contest and decided on the county's figures alone.
@pytest.mark.parametrize(("title", "county", "when", "scope"), [
    ("UT State Treasurer", "Juab", E2022, Scope.STATEWIDE),
    ("UT Senate Dist 28", "Juab", E2022, Scope.MULTICOUNTY),
    ("UT House Dist 29", "Juab", E2022, Scope.MULTICOUNTY),
    ("U.S. REP CONGRESSIONAL DISTRICT 1", "Box Elder", E2018, Scope.MULTICOUNTY),
    ("UT SENATE 17", "Box Elder", E2018, Scope.MULTICOUNTY),
    ("ST BOE DIST 1", "Box Elder", E2018, Scope.MULTICOUNTY),
    ("REP US SENATE", "Box Elder", E2018, Scope.STATEWIDE),
    ("DEM US HOUSE DIST 1", "Box Elder", E2018, Scope.MULTICOUNTY),
    ("Utah Governor", "Davis", date(2016, 6, 28), Scope.STATEWIDE),
    ("SBOE 4", "Davis", date(2016, 6, 28), Scope.MULTICOUNTY),
    ("United States President/Vice President", "Davis", date(2020, 11, 3), Scope.STATEWIDE),
    ("Republican for Governor and Lieutenant Governor", "Davis", date(2020, 6, 30),
     Scope.STATEWIDE),
    ("GOVENOR & LT. GOVERNOR", "Garfield", date(2020, 11, 3), Scope.STATEWIDE),
    ("US President & Vice President", "Garfield", date(2020, 11, 3), Scope.STATEWIDE),
    ("STATE REP D69", "Grand", date(2016, 11, 8), Scope.MULTICOUNTY),
    ("APPELATE COURT MICHELE M. CHRISTIANSEN FORSTER", "Weber", date(2020, 11, 3),
     Scope.STATEWIDE),
    ("Second Juvenile District JEFFREY J. NOLAND", "Davis", date(2020, 11, 3),
     Scope.MULTICOUNTY),
    ("Rep 20", "Davis", date(2016, 6, 28), Scope.COUNTY),  # State House 20: Davis only
    ("Utah County Commission Seat A", "Utah", E2022, Scope.COUNTY),
])
def test_a_county_file_s_titles_for_offices_voted_beyond_the_county(
        title: str, county: str, when: date, scope: Scope) -> None:
    found = infer_scope(race(title), county=county, election_date=when)
    assert found.scope is scope, found
    assert "names no office" not in found.reason


def test_a_title_the_program_cannot_place_is_taken_as_the_county_s_and_said_so() -> None:
    found = infer_scope(race("GAS TAX QUESTION", kind=P), county="Beaver", election_date=E2022)
    assert found.scope is Scope.COUNTY and found.assumed
    totals = ContestTotals(race("GAS TAX QUESTION", kind=P),
                           (ChoiceTotal(Choice("Yes", "", ChoiceKind.FOR), 201),
                            ChoiceTotal(Choice("No", "", ChoiceKind.AGAINST), 201)))
    d = decide_scoped(totals, Edition.Y2024, found, None, "Beaver")
    assert d.assumptions[0].startswith("SCOPE: The title names no office")
    named = infer_scope(race("Beaver County Sheriff"), county="Beaver", election_date=E2022)
    assert named.scope is Scope.COUNTY and not named.assumed
    plain = decide_scoped(ContestTotals(race("Beaver County Sheriff"),
                                        (ChoiceTotal(Choice("A"), 5),
                                         ChoiceTotal(Choice("B"), 4))),
                          Edition.Y2024, named, None, "Beaver")
    assert not any(a.startswith("SCOPE") for a in plain.assumptions)


def test_a_district_not_in_the_table_is_said_to_be_assumed() -> None:
    f = infer_scope(race("State Senate", "8"), county="Salt Lake", election_date=E2022)
    assert f.assumed and "not in the program's district table" in f.reason


def test_labels_checked_against_the_table() -> None:
    grand = check_label(ContestKey("U.S. House", "1"), "Grand", E2018)
    assert grand is not None and grand.key == ContestKey("U.S. House", "3")
    kane = check_label(ContestKey("U.S. House", "73"), "Kane", E2018)
    assert kane is not None and kane.key == ContestKey("State House", "73")
    assert check_label(ContestKey("State House", "69"), "Grand", E2018) is None
    assert check_label(ContestKey("U.S. House", "2"), "Salt Lake", E2018) is None


def test_the_officer_s_setting_that_agrees_with_the_office_names_the_office_first() -> None:
    from recount_desk.core.model import Scope
    from recount_desk.core.scope import ScopeFinding, officer_finding, stored_finding

    office = ScopeFinding(Scope.STATEWIDE, "A federal or statewide office, voted in every "
                          "county.", "20A-4-401(1)(d)(ii)(D)")
    agreed = officer_finding(Scope.STATEWIDE, office)
    assert agreed.reason.startswith("A federal or statewide office")
    assert "The election officer's setting agrees." in agreed.reason
    assert agreed.overridden
    differs = officer_finding(Scope.COUNTY, office)
    assert differs.reason.startswith("Set by the election officer: within one county.")
    assert "it would be statewide" in differs.reason
    assert differs.basis == "20A-4-401(1)(d)(ii)(C)"
    stored = stored_finding(Scope.MULTICOUNTY, office)
    assert "Set by the election officer" not in stored.reason
    assert stored.reason.startswith("Stored as multicounty when the canvass was imported")


def test_a_primary_s_two_parties_stay_two_races_when_only_the_title_names_the_party() -> None:
    from recount_desk.core.whole import CountyPart, combine

    def part(title: str, a: str, b: str) -> CountyPart:
        return CountyPart(("Davis",), "davis.xlsx", ContestTotals(
            race(title), (ChoiceTotal(Choice(a), 10), ChoiceTotal(Choice(b), 7))))

    races = combine([part("REP HOUSE 11", "Ann", "Bo"), part("DEM HOUSE 11", "Cy", "Di")],
                    date(2018, 6, 26))
    assert len(races) == 2
    assert sorted(r.key.party for r in races) == ["DEM", "REP"]


def test_without_the_election_date_no_district_map_is_taken_for_granted() -> None:
    # Wayne's 2016 statement (corpus: "SOVC - Wayne.txt") says no date: House 73 covered
    # seven counties under the 2012-2021 maps and lies in Washington County under the 2022
    # ones. Taking today's map made it Washington's own race, decided on Wayne's figures.
    found = infer_scope(race("STATE REP D73"), county="Wayne", election_date=None)
    assert found.scope is Scope.MULTICOUNTY and found.assumed
    assert "election date is not known" in found.reason
    assert "Beaver" in found.reason and "Washington" in found.reason
    both = infer_scope(race("State House", "32"), county="Salt Lake", election_date=None)
    assert both.scope is Scope.COUNTY and "under both" in both.reason
    spans = infer_scope(race("State House", "70"), county="Sevier", election_date=None)
    assert spans.scope is Scope.MULTICOUNTY and not spans.assumed
    assert check_label(ContestKey("State House", "73"), "Wayne", None) is None


def test_the_year_a_file_s_names_give() -> None:
    from recount_desk.core.districts import year_named
    assert year_named(("2020 General Election Utah Precinct Level Results",)) == (
        2020, "2020 General Election Utah Precinct Level Results")
    assert year_named((None, "Utah UT 2020GeneralSOVC")) == (2020, "Utah UT 2020GeneralSOVC")
    assert year_named(("SOVC - Wayne",)) is None
    assert year_named(("2022 General", "2018 results")) is None
    assert year_named(("precinct 120345",)) is None


def test_cities_across_a_county_line_by_the_public_files() -> None:
    # Park City: Summit and Wasatch (Wasatch's 2022 precinct "330 Park City"); Draper:
    # Salt Lake and Utah (Utah County's DR301/DR302), said to be an assumption; Bluffdale:
    # Salt Lake's alone (Utah County's 2022 file has no Bluffdale contest).
    from datetime import date

    from recount_desk.core.model import Contest, ContestKey, ContestKind, Scope
    from recount_desk.core.scope import Coverage, infer_scope, is_portion

    def find(title: str, county: str):  # type: ignore[no-untyped-def]
        return infer_scope(Contest(ContestKey(title), ContestKind.RACE), county=county,
                           election_date=date(2023, 11, 7))

    park = find("Park City Council", "Summit")
    assert park.scope is Scope.MUNICIPAL and park.counties == ("Summit", "Wasatch")
    assert not park.assumed
    assert is_portion(park, Coverage(("Summit",), False, "county file"))
    assert not is_portion(park, Coverage(("Summit", "Wasatch"), True, "combined"))
    draper = find("DRAPER CITY COUNCIL", "Salt Lake")
    assert draper.counties == ("Salt Lake", "Utah") and draper.assumed
    bluffdale = find("BLUFFDALE CITY COUNCIL REFERENDUM", "Salt Lake")
    assert bluffdale.scope is Scope.MUNICIPAL and bluffdale.counties is None
    assert not is_portion(bluffdale, Coverage(("Salt Lake",), False, "county file"))
    assert find("Summit County Council", "Summit").scope is Scope.COUNTY
