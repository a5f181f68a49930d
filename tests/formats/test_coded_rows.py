"""A long table's rows held as codes (CodedRows) build exactly what the same rows as a
frame build: the build stage's two ways of reading them agree, whatever the file holds."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from recount_desk.formats import long, pipeline
from recount_desk.formats.base import CodedRawCanvass, RawCanvass
from recount_desk.formats.canvass import _from_codes, build

HEADER = "county,precinct,office,district,party,candidate,votes\n"

FILES = {
    "plain": HEADER + "Kane,P1,Mayor,,REP,Ann Lee,5\nKane,P1,Mayor,,DEM,Bob Roe,7\n"
             "Kane,P2,Mayor,,REP,Ann Lee,3\nKane,P2,Mayor,,DEM,Bob Roe,4\n",
    "names spelled two ways": HEADER + "Kane,P1,Mayor,,REP,Ann Lee,5\n"
                              "Kane,P1,Mayor,,DEM,Bob  Roe,7\nKane,P2,Mayor,,REP,ANN LEE,3\n"
                              "Kane,P2,Mayor,,DEM,Bob Roe,4\n",
    "disagreeing duplicates": HEADER + "Kane,P1,Mayor,,REP,Ann Lee,5\n"
                              "Kane,P1,Mayor,,REP,Ann Lee,6\nKane,P1,Mayor,,DEM,Bob Roe,7\n"
                              "Kane,P1,Mayor,,DEM,Bob Roe,7\nKane,P1,Mayor,,DEM,bob roe,7\n",
    "primary duplicates": HEADER + "Kane,P1,Sheriff,,REP,Ann Lee,5\n"
                          "Kane,P1,Sheriff,,REP,Ann Lee,6\nKane,P1,Sheriff,,REP,Cy Dee,2\n"
                          "Kane,P1,Sheriff,,DEM,Bob Roe,7\nKane,P1,Sheriff,,DEM,Eve Fox,1\n",
    "primary over and under without a party": HEADER
        + "Kane,P1,Sheriff,,REP,Ann Lee,5\nKane,P1,Sheriff,,REP,Cy Dee,2\n"
          "Kane,P1,Sheriff,,,Undervotes,3\nKane,P1,Sheriff,,,Overvotes,1\n",
    "several counties and districts": HEADER
        + "Kane,P1,State House,73,REP,Ann Lee,5\nKane,P1,State House,73,DEM,Bob Roe,7\n"
          "Iron,P1,State House,72,REP,Cy Dee,3\nIron,P1,State House,72,DEM,Eve Fox,4\n"
          "Kane,P1,State House,73,,Undervotes,2\nIron,P1,State House,72,,Undervotes,1\n"
          "Kane,Total,State House,73,REP,Ann Lee,5\nKane,Total,State House,73,DEM,Bob Roe,7\n",
    "suppressed and blank": HEADER + "Kane,P1,Mayor,,REP,Ann Lee,*\n"
                            "Kane,P1,Mayor,,DEM,Bob Roe,\nKane,P2,Mayor,,REP,Ann Lee,3\n"
                            "Kane,P2,Mayor,,DEM,Bob Roe,4\nKane,P2,Mayor,,,Write-in,1\n",
}


def _as_frame(raw: CodedRawCanvass) -> RawCanvass:
    """The same reading with its rows as a frame (what every other family gives)."""
    fields = {f.name: getattr(raw, f.name) for f in dataclasses.fields(RawCanvass)}
    return RawCanvass(**fields)


@pytest.mark.parametrize("name", list(FILES))
@pytest.mark.parametrize("primary", [None, True, False])
def test_codes_build_what_the_frame_builds(tmp_path: Path, name: str,
                                           primary: bool | None) -> None:
    path = tmp_path / "20240625__ut__primary__kane__precinct.csv"
    path.write_text(FILES[name], encoding="utf-8")
    raw = pipeline.validate(long.read(path))
    # (each file here keeps its rows as codes through validate: else nothing is compared)
    assert isinstance(raw, CodedRawCanvass) and raw.codes() is not None
    frame = _as_frame(raw)
    a, b = build(raw, primary=primary), build(frame, primary=primary)
    assert a.precincts == b.precincts and a.contests == b.contests
    assert a.choices == b.choices and a.extras == b.extras and a.totals == b.totals
    assert [(c.contest, c.choice, list(c.precincts), list(c.votes)) for c in a.columns] == \
        [(c.contest, c.choice, list(c.precincts), list(c.votes)) for c in b.columns]
    assert a.issues == b.issues


# Rows as a primary's grid gives them (an SOVC: the race's party in the party column, the
# choice's beside it): the race's party is its own, else the choice's.
PRIMARY_ROWS = {
    "own and the choice's party": [
        ("P1", "Sheriff", "REP", "Ann Lee", "REP", "candidate", 5),
        ("P1", "Sheriff", "REP", "Cy Dee", "", "candidate", 2),
        ("P1", "Sheriff", "", "Bob Roe", "DEM", "candidate", 7),
        ("P1", "Sheriff", "REP", "Undervotes", "", "under", 1),
        ("P2", "Sheriff", "REP", "Ann Lee", "REP", "candidate", 3),
        ("P2", "Sheriff", "", "Bob Roe", "DEM", "candidate", 4)],
    "disagreeing duplicates": [
        ("P1", "Sheriff", "REP", "Ann Lee", "", "candidate", 5),
        ("P1", "Sheriff", "REP", "Ann Lee", "", "candidate", 6),
        ("P1", "Sheriff", "", "Bob Roe", "DEM", "candidate", 7),
        ("P1", "Sheriff", "", "Bob Roe", "DEM", "candidate", 7)],
    "over and under without a party": [
        ("P1", "Sheriff", "REP", "Ann Lee", "REP", "candidate", 5),
        ("P1", "Sheriff", "", "Overvotes", "", "over", 1)],
}


@pytest.mark.parametrize("name", list(PRIMARY_ROWS))
def test_a_primarys_own_party_builds_from_codes_what_the_frame_builds(name: str) -> None:
    from recount_desk.formats.stages import coded_rows

    rows = PRIMARY_ROWS[name]
    columns = {k: [r[j] for r in rows] for j, k in enumerate(
        ("precinct", "contest", "party", "choice", "choice_party", "kind", "votes"))}
    raw = CodedRawCanvass("t.csv", "ess_sovc", None, [], {}, {}, set(), True,
                          coded=coded_rows({**columns, "district": ""}))
    if name != "over and under without a party":  # (that one needs the frame)
        assert _from_codes(raw, raw.coded_rows(), True, []) is not None
    a, b = build(raw, primary=True), build(_as_frame(raw), primary=True)
    assert a.contests == b.contests and a.choices == b.choices and a.totals == b.totals
    assert a.extras == b.extras and a.issues == b.issues
    assert [(c.contest, c.choice, list(c.precincts), list(c.votes)) for c in a.columns] == \
        [(c.contest, c.choice, list(c.precincts), list(c.votes)) for c in b.columns]
    assert {c.key.party for c in a.contests} >= {"REP"}
