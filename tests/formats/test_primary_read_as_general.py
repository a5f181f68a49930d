"""A primary read as a general election (session 14): a primary's file named 'general' (or
named nothing) was read with each party's primary for one office as one race, and a verdict
set one party's nominee against the other's (Salt Lake County's 2020 primary, County
Council District 6: two Democrats and two Republicans, read as one race of four)."""

from __future__ import annotations

import shutil
from pathlib import Path

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"


def _csv(path: Path, contests: dict[str, list[tuple[str, str, int]]]) -> Path:
    lines = ["county,precinct,office,district,party,candidate,votes"]
    for office, cands in contests.items():
        for p, share in (("P1", 1), ("P2", 2)):
            lines += [f"Salt Lake,{p},{office},,{party},{name},{votes * share}"
                      for party, name, votes in cands]
    path.write_text("\n".join(lines) + "\n")
    return path


ONE_PARTY = {
    "Governor": [("REP", "Ann Able", 50), ("REP", "Bob Baker", 40), ("REP", "Cy Cole", 30)],
    "Attorney General": [("REP", "Di Dunn", 60), ("REP", "Ed Eyre", 55)],
    "State Senate 6": [("REP", "Flo Fay", 20), ("REP", "Gil Gray", 19)],
}
BOTH = {"County Council 6": [("DEM", "Hal Hart", 30), ("DEM", "Ida Ives", 25),
                             ("REP", "Jo Jones", 70), ("REP", "Kim King", 66)]}


def test_two_parties_primaries_for_one_office_read_as_one_race_are_withheld(tmp_path):
    parsed = read_canvass(_csv(tmp_path / "20200630__ut__general__x__precinct.csv",
                               {**ONE_PARTY, **BOTH}))
    assert not parsed.primary
    warnings = [i.message for i in parsed.issues if i.severity is Severity.WARNING]
    assert any("3 of the 4 contests with two candidates or more have candidates of one "
               "party only, as a primary's do" in w for w in warnings)
    errors = [i for i in parsed.errors if i.only_contest]
    assert [i.contest.title for i in errors] == ["County Council 6"]
    assert "(DEM: Hal Hart, Ida Ives; REP: Jo Jones, Kim King)" in errors[0].message
    assert [c.key.title for c in parsed.withheld] == ["County Council 6"]
    assert not parsed.blocking   # the other contests are imported, with their verdicts

    # Read as the primary it is, each party's race is its own contest: nothing to say.
    primary = read_canvass(tmp_path / "20200630__ut__general__x__precinct.csv", primary=True)
    assert not [i for i in primary.issues if "as a primary's do" in i.message]
    assert sorted(c.key.label() for c in primary.contests if c.key.title == "County Council 6"
                  ) == ["County Council 6 (DEM)", "County Council 6 (REP)"]


def test_a_general_with_a_race_of_two_candidates_of_each_party_is_not_doubted(tmp_path):
    # (a two-seat council race has two of each; the others are the usual one of each)
    general = {office: [("REP", a, 50), ("DEM", b, 40)] for office, a, b in (
        ("Governor", "Ann Able", "Bob Baker"), ("Attorney General", "Cy Cole", "Di Dunn"),
        ("State Senate 6", "Ed Eyre", "Flo Fay"), ("Treasurer", "Gil Gray", "Hal Hart"))}
    parsed = read_canvass(_csv(tmp_path / "20201103__ut__general__x__precinct.csv",
                               {**general, **BOTH, **dict(list(ONE_PARTY.items())[:1])}))
    assert not [i for i in parsed.issues if "as a primary's do" in i.message]
    assert not parsed.errors


def test_a_real_primary_named_general_is_said_to_look_like_one(tmp_path):
    # Emery County's 2016 primary (tests/data/openelections, from OpenElections), renamed.
    real = DATA / "20160628__ut__primary__emery__precinct.csv"
    renamed = shutil.copy(real, tmp_path / "20160628__ut__general__emery__precinct.csv")
    assert not [i for i in read_canvass(real).issues if "as a primary's do" in i.message]
    parsed = read_canvass(renamed)
    assert any("3 of the 3 contests with two candidates or more have candidates of one party "
               "only" in i.message for i in parsed.issues if i.severity is Severity.WARNING)
