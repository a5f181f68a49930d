"""Whole races from several counties' files: the 29 counties' 2018 general-election files
(trimmed copies of their district races) against an independent plain sum of their precinct
rows, and against the lieutenant governor's official county-level canvass."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from pathlib import Path

import pytest

from recount_desk.actions.whole import WholeCheck, check_files
from recount_desk.core.model import ChoiceKind
from recount_desk.core.rules import Verdict

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"
FILES = sorted((DATA / "trimmed" / "2018").glob("*.csv"))
STATE = DATA / "20181106__ut__general__county.csv"

# The three 2018 files whose labels the district table corrects (independently listed).
RELABEL = {("Grand", "U.S. House", "1"): ("U.S. House", "3"),
           ("Kane", "U.S. House", "73"): ("State House", "73"),
           ("Morgan", "U.S. House", ""): ("U.S. House", "1")}


def person(name: str) -> str:
    """The test's own name key: first initial and the surname's consonants, so spellings
    counties differ on (Jeffrey/Jeffery Whipple, Greg/Gregory C. Duerden, Heusser/Heiser)
    are one person, as a person reading the files would see."""
    words = re.sub(r"[^a-z ]", " ", name.lower()).split()
    last = re.sub(r"(.)\1+", r"\1", re.sub(r"[aeiouy]", "", words[-1]))
    return f"{words[0][0]} {last}"


def plain_sum() -> dict[tuple[str, str], dict[str, int]]:
    """(office, district) -> {folded name: votes}, straight from the CSV rows."""
    out: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for f in FILES:
        with open(f, newline="", encoding="utf-8-sig") as fh:
            for r in csv.DictReader(fh):
                if r["precinct"].strip().lower() in ("totals", "total"):
                    continue
                name = r["candidate"].strip()
                if re.search(r"\b(write|over|under|blank)", name, re.I) or not name:
                    continue
                o = re.sub(r"[^a-z ]", " ", r["office"].lower()).split()
                if "board" in o or "education" in o:
                    continue  # State School Board: not a legislative race
                office = ("U.S. House" if o[:2] in (["u", "s"], ["us", "house"]) or
                          o[:1] == ["us"] else "State Senate" if "senate" in o
                          else "State House")
                dist = r["district"].strip() or (re.findall(r"\d+", r["office"]) or [""])[0]
                county = r["county"].strip().title()
                office, dist = RELABEL.get((county, office, dist), (office, dist))
                votes = r["votes"].strip()  # "*" (suppressed) counts 0, as the program reads it
                out[(office, dist)][person(name)] += int(votes) if votes.isdigit() else 0
    return out


@pytest.fixture(scope="module")
def all_29() -> WholeCheck:
    assert len(FILES) == 29
    return check_files(FILES)


@pytest.fixture(scope="module")
def with_state() -> WholeCheck:
    return check_files(FILES, state_canvass=STATE)


def _race(result: WholeCheck, title: str, district: str):  # type: ignore[no-untyped-def]
    return next(r for r in result.races
                if (r.race.key.title, r.race.key.district) == (title, district))


def test_29_files_give_every_district_race_the_plain_sum(all_29: WholeCheck) -> None:
    expected = plain_sum()
    got = {}
    for rc in all_29.races:
        key = (rc.race.key.title, rc.race.key.district)
        if key[0] in ("U.S. House", "State Senate", "State House"):
            assert rc.race.refused is None, rc.race.refused
            assert rc.race.totals is not None
            got[key] = {person(c.choice.name): c.votes for c in rc.race.totals.choices
                        if c.choice.kind is not ChoiceKind.WRITE_IN}
    assert set(got) == set(expected)
    assert len(got) == 4 + 15 + 75
    for key, votes in expected.items():
        assert got[key] == dict(votes), key


def test_state_house_69_on_the_whole_race(all_29: WholeCheck) -> None:
    rc = _race(all_29, "State House", "69")
    assert rc.race.coverage.counties == ("Carbon", "Duchesne", "Emery", "Grand")
    assert rc.race.whole and not rc.check.portion
    votes = {c.choice.name: c.votes for c in rc.check.totals.choices}
    assert votes["Christine Watkins"] == 8589 and votes["Tim Glenn"] == 3320
    assert rc.check.decision.verdict is Verdict.NOT_ELIGIBLE
    assert rc.check.within_margin is False
    assert rc.check.office == "the lieutenant governor"
    # Duchesne spells her CHRISTINE F WATKINS: matched, and shown for confirmation.
    assert any("CHRISTINE F WATKINS" in m for m in rc.race.confirm)


def test_every_race_is_whole_with_all_29_but_those_juab_leaves_out(all_29: WholeCheck) -> None:
    for rc in all_29.races:
        if (rc.race.key.title, rc.race.key.district) in (("State House", "58"),
                                                         ("State House", "68")):
            # Juab's 2018 file has no State House rows: the sum lacks Juab, so it stays a
            # portion (the state canvass decides these two, below).
            assert rc.check.portion and "Juab" not in rc.race.coverage.counties
            continue
        assert not rc.check.portion, rc.race.key
    grand = [i for i in all_29.issues if "Grand County lies only in U.S. House district 3"
             in i.message]
    assert grand


def test_state_canvass_cross_check_and_verdict(with_state: WholeCheck) -> None:
    ush4 = _race(with_state, "U.S. House", "4")
    assert ush4.official
    d = ush4.check.decision
    assert (d.margin, d.threshold) == (694, 673)
    assert d.verdict is Verdict.NOT_ELIGIBLE
    assert ush4.race.totals is not None
    counted = {person(c.choice.name): c.votes for c in ush4.race.totals.choices}
    assert counted["b mcdms"] - counted["m lv"] == 1160
    listed = {(x.key.title, x.key.district) for x in with_state.disagreements}
    assert ("U.S. House", "4") in listed
    assert 20 <= len([k for k in listed if k[0] in ("U.S. House", "State Senate",
                                                     "State House")]) <= 40
    text = next(x.text() for x in with_state.disagreements if x.key.district == "4"
                and x.key.title == "U.S. House")
    assert "the counties' files give" in text and "the state canvass" in text


def _csv(path: Path, rows: list[tuple[str, str, str, str, str, int]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["county", "precinct", "office", "district", "candidate", "party", "votes"])
        for r in rows:
            w.writerow([*r[:5], "REP" if "Watkins" in r[4] else "DEM", r[5]])
    return path


def test_disagreeing_candidate_lists_are_refused_with_the_names(tmp_path: Path) -> None:
    a = _csv(tmp_path / "20181106__ut__general__carbon__precinct.csv",
             [("Carbon", "C1", "State House", "69", "Christine Watkins", 10),
              ("Carbon", "C1", "State House", "69", "Tim Glenn", 9)])
    b = _csv(tmp_path / "20181106__ut__general__grand__precinct.csv",
             [("Grand", "G1", "State House", "69", "Christine Watkins", 10),
              ("Grand", "G1", "State House", "69", "Timothy Glennon", 9)])
    result = check_files([a, b])
    rc = _race(result, "State House", "69")
    assert rc.race.refused is not None
    assert "Timothy Glennon" in rc.race.refused and "Tim Glenn" in rc.race.refused
    # Nothing was added up: no figure of the race is shown, and no verdict (not Beaver's,
    # or the first file's, figures as the race's).
    d = rc.check.decision
    assert not d.decided and not d.within_margin and d.total == 0 and d.margin is None
    assert "not added up" in d.explanation and "Tim Glenn" in d.explanation
    assert any(i.severity.value == "error" for i in result.issues)


def test_a_county_given_twice_is_refused(tmp_path: Path) -> None:
    a = _csv(tmp_path / "20181106__ut__general__grand__precinct.csv",
             [("Grand", "G1", "State House", "69", "Christine Watkins", 10),
              ("Grand", "G1", "State House", "69", "Tim Glenn", 9)])
    # (the same county's figures in other bytes: its rows in another order)
    b = _csv(tmp_path / "copy__ut__general__grand__precinct.csv",
             [("Grand", "G1", "State House", "69", "Tim Glenn", 9),
              ("Grand", "G1", "State House", "69", "Christine Watkins", 10)])
    rc = _race(check_files([a, b]), "State House", "69")
    assert rc.race.refused is not None and "two files" in rc.race.refused


def _plain(path: Path, lines: list[str]) -> Path:
    """A county file that does not name its county (no county column, a neutral name)."""
    path.write_text("precinct,office,candidate,votes\n" + "\n".join(lines) + "\n")
    return path


COMMISSION = ["P1,County Commission Seat A,Ann Able,100",
              "P1,County Commission Seat A,Bob Baker,99",
              "P2,County Commission Seat A,Ann Able,50",
              "P2,County Commission Seat A,Bob Baker,50"]


def test_a_copy_of_a_file_is_read_once(tmp_path: Path) -> None:
    # The same bytes under another name: added up, the race was decided on doubled figures
    # ('not eligible', 598 votes, margin 2) where the file alone is within the margin.
    a = _plain(tmp_path / "results.csv", COMMISSION)
    b = _plain(tmp_path / "results (1).csv", COMMISSION)
    result = check_files([a, b])
    [rc] = result.races
    assert rc.check.decision.total == 299 and rc.check.decision.within_margin
    assert any("results (1).csv is the same file as results.csv" in i.message
               for i in result.issues)


def test_files_whose_county_cannot_be_told_are_not_added_up(tmp_path: Path) -> None:
    # The same county's figures, in other bytes (a row moved), with no county named: they
    # may be one county's given twice, so the race is not decided on their sum.
    a = _plain(tmp_path / "results.csv", COMMISSION)
    b = _plain(tmp_path / "results copy.csv", [*COMMISSION[1:], COMMISSION[0]])
    result = check_files([a, b])
    [rc] = result.races
    assert rc.race.refused is not None
    assert "the county of results.csv cannot be told from the file" in rc.race.refused
    d = rc.check.decision
    assert not d.decided and not d.within_margin and d.total == 0


def _rows(path: Path, rows: list[tuple[str, str, str, str, str, str, str]]) -> Path:
    """A long-table county file: (county, precinct, office, district, candidate, party,
    votes) per row, votes as text so a bad count can be written."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["county", "precinct", "office", "district", "candidate", "party", "votes"])
        w.writerows(rows)
    return path


def _by_title(result: WholeCheck) -> dict[str, object]:
    return {r.race.key.title: r for r in result.races}


def _two_counties(tmp_path: Path, office: str, district: str,
                  *parts: tuple[str, list[tuple[str, str, int]]]) -> WholeCheck:
    """Each county's 2022 file of one race: (county, [(candidate, party, votes), …])."""
    from datetime import date
    files = [_rows(tmp_path / f"20221108__ut__general__{county.lower()}__precinct.csv",
                   [(county, county[0] + "1", office, district, name, party, str(votes))
                    for name, party, votes in rows])
             for county, rows in parts]
    return check_files(files, election_date=date(2022, 11, 8))


def test_two_counties_sheriffs_are_two_races_decided_each_on_its_county(
        tmp_path: Path) -> None:
    # Every county elects its own sheriff: Carbon's and Iron's are not one race whose
    # candidate lists disagree (which refused both), and not added up.
    result = _two_counties(
        tmp_path, "Sheriff", "",
        ("Carbon", [("Jeffrey Wood", "REP", 600), ("Ann Bell", "DEM", 599)]),
        ("Iron", [("Ken Carpenter", "REP", 900), ("Bo Dean", "DEM", 100)]))
    races = _by_title(result)
    carbon, iron = races["Sheriff (Carbon County)"], races["Sheriff (Iron County)"]
    assert carbon.race.refused is None and iron.race.refused is None  # type: ignore[attr-defined]
    assert carbon.check.decision.total == 1199  # type: ignore[attr-defined]
    assert carbon.check.decision.within_margin  # type: ignore[attr-defined]
    assert iron.check.decision.verdict is Verdict.NOT_ELIGIBLE  # type: ignore[attr-defined]
    assert not any("candidate lists disagree" in i.message for i in result.issues)


def test_a_local_title_in_two_counties_is_split_only_when_the_candidates_differ(
        tmp_path: Path) -> None:
    from datetime import date
    a = _rows(tmp_path / "20221108__ut__general__iron__precinct.csv",
              [("Iron", "I1", "Local School Board District 4", "", "Stephanie Hill", "", "50"),
               ("Iron", "I1", "Local School Board District 4", "", "Dale Brinkerhoff", "", "49"),
               ("Iron", "I1", "Cedar Valley Water District", "", "Ann Cole", "", "30"),
               ("Iron", "I1", "Cedar Valley Water District", "", "Bo Lund", "", "10")])
    b = _rows(tmp_path / "20221108__ut__general__washington__precinct.csv",
              [("Washington", "W1", "Local School Board District 4", "", "Larene Cox", "",
                "80"),
               ("Washington", "W1", "Local School Board District 4", "", "Kelly Blake", "",
                "20"),
               ("Washington", "W1", "Cedar Valley Water District", "", "Ann Cole", "", "1"),
               ("Washington", "W1", "Cedar Valley Water District", "", "Bo Lund", "", "20")])
    result = check_files([a, b], election_date=date(2022, 11, 8))
    races = _by_title(result)
    iron = races["Local School Board District 4 (Iron County)"]
    wash = races["Local School Board District 4 (Washington County)"]
    assert iron.check.decision.within_margin  # type: ignore[attr-defined]
    assert wash.check.decision.verdict is Verdict.NOT_ELIGIBLE  # type: ignore[attr-defined]
    assert any("each county's is taken as its own race" in c
               for c in iron.race.confirm)  # type: ignore[attr-defined]
    # The same candidates in both: one race across the counties, added up (31 to 30).
    water = races["Cedar Valley Water District"]
    assert water.race.totals is not None  # type: ignore[attr-defined]
    assert water.check.decision.total == 61  # type: ignore[attr-defined]
    assert set(water.race.coverage.counties) == {"Iron", "Washington"}  # type: ignore[attr-defined]


def test_a_read_error_touches_only_the_races_of_its_file(tmp_path: Path) -> None:
    # Wayne's unreadable count could be any of Wayne's contests: no verdict rests on the
    # races Wayne's figures are in; a race of other counties only is still decided.
    from datetime import date
    a = _rows(tmp_path / "20221108__ut__general__wayne__precinct.csv",
              [("Wayne", "W1", "Attorney General", "", "Sean Reyes", "REP", "12 votes"),
               ("Wayne", "W1", "Attorney General", "", "Greg Skordas", "DEM", "10")])
    b = _rows(tmp_path / "20221108__ut__general__cache__precinct.csv",
              [("Cache", "C1", "State House", "3", "Dan Johnson", "REP", "500"),
               ("Cache", "C1", "State House", "3", "Ed Lee", "DEM", "499"),
               ("Cache", "C1", "Attorney General", "", "Sean Reyes", "REP", "900"),
               ("Cache", "C1", "Attorney General", "", "Greg Skordas", "DEM", "100")])
    result = check_files([a, b], election_date=date(2022, 11, 8))
    assert any(i.severity.value == "error" and "wayne" in i.file for i in result.issues)
    house = _race(result, "State House", "3")
    assert house.check.decision.decided and house.check.decision.within_margin
    ag = next(r for r in result.races if r.race.key.title.startswith("Attorney General"))
    assert ag.check.decision.verdict in (Verdict.PORTION, Verdict.UNDECIDABLE)
    assert not ag.check.decision.within_margin


def test_a_propositions_for_and_yes_are_one_choice_across_counties(tmp_path: Path) -> None:
    # Weber's 2022 file says YES/NO where Carbon's says FOR/AGAINST (both real): one
    # choice each, added up, not four choices.
    result = _two_counties(tmp_path, "Constitutional Amendment A", "",
                           ("Carbon", [("FOR", "", 2213), ("AGAINST", "", 3728)]),
                           ("Weber", [("YES", "", 27144), ("NO", "", 45012)]))
    race = next(r for r in result.races if "Amendment A" in r.race.key.title).race
    assert race.totals is not None
    assert sorted(c.votes for c in race.totals.choices) == [2213 + 27144, 3728 + 45012]
    assert not race.confirm


def test_a_party_written_before_the_name_is_the_same_candidate(tmp_path: Path) -> None:
    # Weber's 2022 file writes "IAP TOMMY WILLIAMS" (party IAP) where the others write
    # "Tommy Williams": one candidate, listed for the officer to confirm.
    result = _two_counties(
        tmp_path, "U.S. House", "2",
        ("Beaver", [("Tommy Williams", "IAP", 20), ("Chris Stewart", "REP", 900)]),
        ("Iron", [("IAP TOMMY WILLIAMS", "IAP", 30), ("CHRIS STEWART", "REP", 1000)]))
    race = _race(result, "U.S. House", "2").race
    assert race.refused is None and race.totals is not None
    assert sorted(c.votes for c in race.totals.choices) == [50, 1900]
    assert any("IAP TOMMY WILLIAMS" in c for c in race.confirm)


def test_real_2022_files_each_countys_own_races_and_a_read_error_kept_to_its_file() -> None:
    # The real Daggett, Piute and Wayne 2022 files (tests/data/openelections/SOURCES.md):
    # each elects its own County Commissioner A; Wayne's file has duplicate rows that
    # disagree (an error), which must not take the verdict from Daggett's or Piute's races.
    from datetime import date
    files = [DATA / f"20221108__ut__general__{c}__precinct.csv"
             for c in ("daggett", "piute", "wayne")]
    result = check_files(files, election_date=date(2022, 11, 8))
    errors = [i for i in result.issues if i.severity.value == "error"]
    assert errors and all("wayne" in i.file for i in errors if "Duplicate" in i.message)
    titles = {r.race.key.title: r for r in result.races}
    for county in ("Daggett", "Piute", "Wayne"):
        rc = titles[f"County Commissioner A ({county} County)"]
        assert rc.race.refused is None and rc.race.coverage.counties == (county,)
        if county != "Wayne":
            assert rc.check.decision.decided  # Wayne's error is not Daggett's or Piute's
    wayne = titles["County Commissioner A (Wayne County)"]
    assert not wayne.check.decision.decided or not wayne.check.decision.within_margin
    assert not any("candidate lists disagree" in i.message and "Commissioner" in i.message
                   for i in result.issues)


def test_a_city_across_a_county_line_is_decided_on_the_whole_city(tmp_path: Path) -> None:
    # Park City lies in Summit and Wasatch counties (Wasatch's 2022 canvass has a precinct
    # "330 Park City"): Summit's file alone is a portion (no verdict, though the figures
    # there are within the margin); with Wasatch's the city's race is decided, and the
    # request goes to the municipal clerk.
    from datetime import date

    from recount_desk.actions.canvass import check_parsed, read_file
    from recount_desk.core.model import ElectionKind
    muni = ElectionKind.MUNICIPAL_GENERAL
    a = _rows(tmp_path / "20231107__ut__municipal__summit__precinct.csv",
              [("Summit", "S1", "Park City Council", "", "Ann Cole", "", "1000"),
               ("Summit", "S1", "Park City Council", "", "Bo Lund", "", "999")])
    b = _rows(tmp_path / "20231107__ut__municipal__wasatch__precinct.csv",
              [("Wasatch", "W1", "Park City Council", "", "Ann Cole", "", "80"),
               ("Wasatch", "W1", "Park City Council", "", "Bo Lund", "", "20")])
    alone = check_parsed(read_file(a), election_date=date(2023, 11, 7), kind=muni)
    (cc,) = alone.contests
    assert cc.portion and cc.within_margin is None
    assert "board of municipal canvassers" in cc.decision.explanation
    both = check_files([a, b], election_date=date(2023, 11, 7), kind=muni)
    rc = next(r for r in both.races if r.race.key.title == "Park City Council")
    assert rc.race.whole and not rc.check.portion
    assert rc.check.decision.total == 2099
    assert rc.check.decision.verdict is Verdict.NOT_ELIGIBLE  # 61 apart over 2,099 votes
    assert "municipal clerk" in rc.check.office


def test_two_counties_own_propositions_alike_in_name_are_never_added_up(
        tmp_path: Path) -> None:
    # Each county's own "Proposition #1" (a bond, say) has For and Against like every other:
    # agreeing choices cannot tell one race from two, so each is its county's own.
    result = _two_counties(tmp_path, "Proposition #1", "",
                           ("Carbon", [("FOR", "", 500), ("AGAINST", "", 499)]),
                           ("Iron", [("FOR", "", 900), ("AGAINST", "", 100)]))
    races = _by_title(result)
    carbon = races["Proposition #1 (Carbon County)"]
    iron = races["Proposition #1 (Iron County)"]
    assert carbon.check.decision.total == 999  # type: ignore[attr-defined]
    assert carbon.check.decision.within_margin  # type: ignore[attr-defined]
    assert iron.check.decision.verdict is Verdict.NOT_ELIGIBLE  # type: ignore[attr-defined]
    assert "Proposition #1" not in races


def test_a_county_file_given_as_the_state_canvass_is_said_and_decides_no_wider_race():
    # Summit's precinct file given as the lieutenant governor's canvass was taken silently
    # for the official figures of every race in it.
    one_county = FILES[0]
    result = check_files(FILES[1:], state_canvass=one_county)
    assert any("holds only" in i.message and "the lieutenant governor's canvass gives every"
               in i.message for i in result.issues)
    wider = [r for r in result.races if r.official and len(r.race.coverage.counties) > 1]
    assert all(not r.check.decision.within_margin or r.check.coverage.whole for r in wider)


def test_a_write_in_marked_differently_by_two_counties_is_one_candidate(tmp_path: Path) -> None:
    # (session 17) One county's file writes 'Write-in: Laird Hamblin' (Washington 2022's
    # style), another 'Laird Hamblin (write-in)' (a sideways sheet's): one write-in
    # candidate of the whole race, his votes added up and the officer asked to confirm;
    # they had been two choices, his votes split between them without a word.
    result = _two_counties(
        tmp_path, "State Senate", "28",
        ("Beaver", [("Mike Lee", "REP", 900), ("Evan McMullin", "", 700),
                    ("Write-in: Laird Hamblin", "", 5)]),
        ("Iron", [("Mike Lee", "REP", 1000), ("Evan McMullin", "", 800),
                  ("Laird Hamblin (write-in)", "", 3)]))
    race = _race(result, "State Senate", "28").race
    assert race.refused is None and race.totals is not None
    assert sorted(c.votes for c in race.totals.choices) == [8, 1500, 1900]
    assert any("are read as one candidate" in c and "Laird Hamblin" in c for c in race.confirm)
