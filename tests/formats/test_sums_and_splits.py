"""Readings whose figures are right cell by cell and wrong as a canvass (issue #16): a total
read as a choice or as a precinct, two contests under one title, one candidate spelled
several ways. Found by the figures themselves, whatever the labels say, so a label the
vocabulary does not know cannot make a reading wrong."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from recount_desk.actions.canvass import check_parsed
from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"


def _csv(path: Path, rows: list[tuple[str, str, str, int]]) -> Path:
    path.write_text("precinct,office,candidate,votes\n"
                    + "".join(f"{p},{o},{c},{v}\n" for p, o, c, v in rows))
    return path


def _errors(parsed, words: str) -> list:
    return [i for i in parsed.issues if i.severity is Severity.ERROR and words in i.message]


RACE = {"P1": (120, 80, 5), "P2": (60, 70, 2), "P3": (33, 41, 0)}


@pytest.mark.parametrize("label", ["All Candidates", "Race Sum Votes", "Ttl"])
def test_a_column_that_is_the_others_sum_is_an_error_whatever_its_label(tmp_path, label):
    rows = [(p, "Mayor", n, v) for p, vs in RACE.items()
            for n, v in zip(("Ann Cole", "Bo Lund", "Write-in"), vs, strict=True)]
    rows += [(p, "Mayor", label, sum(vs)) for p, vs in RACE.items()]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    [err] = _errors(parsed, "the sum of the other choices'")
    assert repr(label) in err.message and "Mayor" in err.message
    assert parsed.doubtful


def test_a_total_beside_the_only_candidate_is_an_error_not_a_tie(tmp_path):
    rows = [(p, "Sheriff", n, vs[0]) for p, vs in RACE.items() for n in ("Cy Dunn", "Count")]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    [err] = _errors(parsed, "are the same in every precinct")
    assert "'Cy Dunn' and 'Count'" in err.message and "a tie" in err.message


def test_subtotal_labels_are_totals_not_candidates(tmp_path):
    for label in ("Sub Total", "Subtotal", "Grand Total", "Race Total", "Total Cast", "Sum"):
        rows = [(p, "Mayor", n, v) for p, vs in RACE.items()
                for n, v in zip(("Ann Cole", "Bo Lund"), vs[:2], strict=True)]
        rows += [(p, "Mayor", label, sum(vs[:2])) for p, vs in RACE.items()]
        parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
        assert [c.choice.name for c in parsed.totals[0].choices] == ["Ann Cole", "Bo Lund"], label


def test_a_real_race_with_a_tie_in_all_is_no_total(tmp_path):
    # Twice a choice's total is the contest's (a tie of two), but not precinct by precinct.
    rows = [("P1", "Mayor", "Ann Cole", 10), ("P1", "Mayor", "Bo Lund", 12),
            ("P2", "Mayor", "Ann Cole", 12), ("P2", "Mayor", "Bo Lund", 10)]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    assert not parsed.errors and not parsed.doubtful


@pytest.mark.parametrize("label", ["Countywide", "Morgan County", "Cumulative Pcts"])
def test_a_totals_row_named_like_a_precinct_is_an_error(tmp_path, label):
    rows = [(p, o, n, v) for p, vs in RACE.items()
            for o in ("Mayor", "Council") for n, v in zip(("A", "B"), vs[:2], strict=True)]
    for o in ("Mayor", "Council"):
        rows += [(label, o, "A", sum(v[0] for v in RACE.values())),
                 (label, o, "B", sum(v[1] for v in RACE.values()))]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    [err] = _errors(parsed, "sum of all the other precincts")
    assert repr(label) in err.message and parsed.doubtful


def test_two_contests_under_one_title_withhold_that_contests_verdict_only(tmp_path):
    # 'School Board' over two districts' candidates (zeros where a district is not on the
    # ballot, as a county's workbook has them); 'Mayor' beside it is one race.
    rows = []
    for p in ("P1", "P2"):
        rows += [(p, "School Board", "Nelson", 200), (p, "School Board", "Wall", 90),
                 (p, "School Board", "Lyman", 0), (p, "School Board", "Holland", 0)]
    for p in ("P3", "P4", "P5"):
        rows += [(p, "School Board", "Nelson", 0), (p, "School Board", "Wall", 0),
                 (p, "School Board", "Lyman", 300), (p, "School Board", "Holland", 100)]
    for p in ("P1", "P2", "P3", "P4", "P5"):
        rows += [(p, "Mayor", "Ann Cole", 100), (p, "Mayor", "Bo Lund", 99)]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    [err] = _errors(parsed, "groups that never have votes in the same precinct")
    assert err.contest is not None and err.contest.title == "School Board"
    assert "'Nelson', 'Wall' in 2 precincts; 'Lyman', 'Holland' in 3 precincts" in err.message
    assert "contests under one title" in err.message
    assert not parsed.doubtful  # the rest of the reading stands
    result = check_parsed(parsed, election_date=date(2024, 11, 5))
    verdicts = {c.totals.contest.key.title: c.decision for c in result.contests}
    assert not verdicts["School Board"].decided
    assert verdicts["Mayor"].decided


def test_a_candidate_spelled_three_ways_in_a_real_file_is_said_and_not_decided():
    # Piute's 2022 canvass (tests/data/openelections/SOURCES.md): the uncontested County
    # Clerk/Auditor as 'KALI GLEAVE', 'KALI CLEAVE' and 'KALE GLEAVE' in different precincts.
    # Read as three candidates it was a contested race with a margin.
    parsed = read_canvass(DATA / "20221108__ut__general__piute__precinct.csv")
    [err] = _errors(parsed, "groups that never have votes in the same precinct")
    assert err.contest is not None and "Clerk" in err.contest.title
    assert "spelled differently" in err.message and "'KALI CLEAVE'" in err.message
    result = check_parsed(parsed, election_date=date(2022, 11, 8))
    clerk = next(c for c in result.contests if "Clerk" in c.totals.contest.key.title)
    assert not clerk.decision.decided


def test_a_write_in_alone_in_a_precinct_is_no_second_contest(tmp_path):
    rows = [(p, "Mayor", n, v) for p in ("P1", "P2") for n, v in (("Ann Cole", 9), ("Bo Lund", 7))]
    rows += [("P3", "Mayor", "Ann Cole", 0), ("P3", "Mayor", "Bo Lund", 0),
             ("P3", "Mayor", "Write-in", 1)]
    parsed = read_canvass(_csv(tmp_path / "c.csv", rows))
    assert not _errors(parsed, "groups")


def test_two_counties_own_races_of_one_name_in_one_file_are_said_so(tmp_path):
    f = tmp_path / "two.csv"
    rows = "".join(f"{c},{c[0]}{k},County Commission,{n},{v}\n"
                   for c, names in (("Daggett", ("Ann Cole", "Bo Lund")),
                                    ("Duchesne", ("Cy Dunn", "Di Eads")))
                   for k in (1, 2, 3) for n, v in zip(names, (60, 40), strict=True))
    f.write_text("county,precinct,office,candidate,votes\n" + rows)
    [err] = _errors(read_canvass(f), "groups that never have votes")
    assert "each group lies in one county (Daggett, Duchesne)" in err.message


def test_one_candidate_spelled_two_ways_beside_one_spelled_alike_is_an_error(
        tmp_path: Path) -> None:
    """'KARL B. WARD' in some precincts, 'KARL B WARD' in the others, beside a candidate
    spelled one way: the groups share precincts (through the other candidate), but the two
    spellings never have votes in the same one. Read apart, the other candidate won."""
    from recount_desk.formats import read_canvass

    rows = ["precinct,office,candidate,votes"]
    for k in range(1, 7):
        ward = "KARL B. WARD" if k % 2 else "KARL B WARD"
        rows += [f"P{k},County Council,Ann Tripp,40", f"P{k},County Council,{ward},60",
                 f"P{k},Mayor,Jane Smith,10", f"P{k},Mayor,John Smith,{k}"]
    f = tmp_path / "t.csv"
    f.write_text("\n".join(rows) + "\n")
    pc = read_canvass(f)
    [err] = pc.errors
    assert err.contest is not None and err.contest.title == "County Council"
    assert err.only_contest and "spelled two ways" in err.message
    assert "'KARL B. WARD' (votes in 3 precincts)" in err.message
    # Named alike, but on the same ballots (John and Jane Smith): two candidates.
    assert not pc.blocking and [c.key.title for c in pc.withheld] == ["County Council"]
