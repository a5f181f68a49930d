"""GEMS text export (family 7): Wayne County 2016 general.

Each row comes three times (two counting groups, then their total); the figures below are
the third value of the file's ``Election Total`` (999999) rows, read by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "gems"
WAYNE = DATA / "wayne_2016g_gems.txt"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


def test_gems_export_is_detected() -> None:
    found = detect(WAYNE)
    assert found[0].family == "gems"
    assert all(d.confidence < found[0].confidence for d in found[1:])


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("US SENATE", {"Misty K Snow": 260, "Bill Barron": 51, "Stoney Fonua": 23,
                       "Mike Lee": 1079}),
        ("US HOUSE D2", {"Chris Stewart": 1046, "Charlene Albarran": 294,
                         "Paul J McCollaum Jr.": 52}),
    ],
    ids=["us-senate", "us-house-2"],
)
def test_last_of_each_repeat_is_used_and_matches_election_total(
        title: str, expected: dict[str, int]) -> None:
    pc = read_canvass(WAYNE)
    assert len(pc.contests) == 18          # 20 races less Race Statistics and STRAIGHT PARTY
    assert len(pc.precincts) == 7          # Election Total is the file's totals, not a precinct
    assert "Election Total" not in pc.precincts
    assert totals_of(pc, title) == expected
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == []
    assert any("last one is the sum of the others" in i.message for i in pc.issues)


def test_pseudo_candidates_are_not_choices_and_party_is_the_candidates() -> None:
    pc = read_canvass(WAYNE)
    t = next(t for t in pc.totals if t.contest.key.title == "US SENATE")
    names = {c.choice.name for c in t.choices}
    assert not names & {"Registered Voters", "Number of Precincts for Race",
                        "Number of Precincts Reporting"}
    assert {c.choice.name: c.choice.party for c in t.choices}["Mike Lee"] == "REP"
    assert t.contest.key.party == ""


def test_over_under_pseudo_candidates_are_kept_apart(tmp_path: Path) -> None:
    rows = [
        '"28",10,"Fremont","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",10,"Fremont","MAYOR","500","NP","BOB","502","NP",3,',
        '"28",10,"Fremont","MAYOR","500","NP","Times Over Voted","","NP",1,',
        '"28",10,"Fremont","MAYOR","500","NP","Number of Under Votes","","NP",2,',
        '"28",10,"Fremont","MAYOR","500","NP","Times Counted","","NP",11,',
        '"28",999999,"Election Total","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",999999,"Election Total","MAYOR","500","NP","BOB","502","NP",3,',
    ]
    p = tmp_path / "tiny_gems.txt"
    p.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")
    pc = read_canvass(p)
    assert totals_of(pc, "MAYOR") == {"ANN": 5, "BOB": 3}
    assert {k.value: v for k, v in pc.totals[0].extras.items()} == {"over": 1, "under": 2}


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda line: line.rsplit(",", 6)[0], "fields instead of the ten"),
        (lambda line: line.replace(",20,", ",2O,"), "not a whole number"),
    ],
    ids=["cut-row", "letter-in-count"],
)
def test_damaged_row_is_an_error_with_its_row_number(tmp_path: Path, damage, words: str) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    # Row 22: "28",10,"Fremont","STRAIGHT PARTY","","NP","REPUBLICAN","","REP",20,
    assert lines[21].endswith('"REPUBLICAN","","REP",20,')
    lines[21] = damage(lines[21])
    bad = tmp_path / "damaged.txt"
    bad.write_text("\r\n".join(lines) + "\r\n", encoding="cp1252")
    pc = read_canvass(bad)
    hits = [i for i in pc.issues if words in i.message]
    assert hits
    assert (hits[0].row, hits[0].severity) == (22, Severity.ERROR)


def test_a_repeat_that_does_not_end_with_its_total_is_reported(tmp_path: Path) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    i = next(k for k, line in enumerate(lines)
             if '"Fremont","US SENATE"' in line and '"Mike Lee"' in line)
    head, value, tail = lines[i].rsplit(",", 2)
    lines[i] = f"{head},{int(value) + 5},{tail}"
    bad = tmp_path / "odd_repeat.txt"
    bad.write_text("\r\n".join(lines) + "\r\n", encoding="cp1252")
    pc = read_canvass(bad)
    hits = [x for x in pc.issues if "do not end with their total" in x.message]
    assert hits
    assert hits[0].severity is Severity.WARNING
    assert "Fremont / US SENATE / Mike Lee" in hits[0].message
    assert totals_of(pc, "US SENATE")["Mike Lee"] == 1079   # the last (total) row is used
