"""The stages shared by the block layouts (formats.blocks): a header band's columns split
into contests, a grid's choice columns as raw rows, contests told apart by an id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from recount_desk.formats import ReadOptions, read_canvass
from recount_desk.formats.blocks import grid_rows, kept_apart, runs
from recount_desk.formats.pipeline import IssueLog


def _split(titles: list[str], names: list[str]) -> list[tuple[str, list[str]]]:
    return [(r.title, r.names) for r in runs(range(len(titles)), titles, names)]


def test_a_header_band_splits_where_the_title_changes_a_name_comes_back_or_a_contest_closes():
    titles = ["UT HOUSE"] * 6 + ["MAYOR"] * 2
    names = ["ANN", "BOB", "OVER VOTES", "UNDER VOTES", "Write-in", "CY", "DI", "ED"]
    assert _split(titles, names) == [
        ("UT HOUSE", ["ANN", "BOB", "OVER VOTES", "UNDER VOTES", "Write-in"]),
        ("UT HOUSE", ["CY"]),  # a candidate after the columns that close a contest
        ("MAYOR", ["DI", "ED"]),
    ]


def test_runs_of_one_title():
    titles = ["T"] * 6
    assert _split(titles, ["A", "B", "A", "C", "OVER VOTES", "D"]) == [
        ("T", ["A", "B"]), ("T", ["A", "C", "OVER VOTES"]), ("T", ["D"])]
    # The generic write-in column may follow the over/under votes once, not twice.
    assert _split(titles[:5], ["A", "OVER VOTES", "Write-in", "Write-ins", "B"]) == [
        ("T", ["A", "OVER VOTES", "Write-in"]), ("T", ["Write-ins"]), ("T", ["B"])]
    # 'UNDERVOTE (CANDIDATE WITHDREW)' sits among the candidates: it closes nothing.
    assert _split(titles[:3], ["A", "UNDERVOTE (CANDIDATE WITHDREW)", "B"]) == [
        ("T", ["A", "UNDERVOTE (CANDIDATE WITHDREW)", "B"])]


def test_a_family_may_add_its_own_sign_of_a_new_contest():
    cut = runs(range(4), ["T"] * 4, ["A", "B", "C", "D"], also=lambda run, c, kind: c == 2)
    assert [r.cols for r in cut] == [[0, 1], [2, 3]]


def test_grid_rows_leave_invalid_write_ins_out_and_take_the_totals_rows_as_the_files():
    values = np.array([[5, 1, 2], [3, 0, 4], [8, 1, 6]], dtype=np.int64)
    present = np.ones_like(values, dtype=bool)
    present[1, 1] = False
    log = IssueLog("f.csv")
    cols = [(0, ("Mayor", "", "", "Ann", "", "candidate")),
            (1, ("Mayor", "", "", "Write-in: Invalid", "", "write_in")),
            (2, ("Mayor", "", "", "Bob", "", "candidate"))]
    df, totals = grid_rows(values, present, ["P1", "P2", "Total"], cols, log=log,
                           is_total=np.array([False, False, True]))
    assert totals == {("Mayor", "", ""): {"Ann": 8, "Bob": 6}}
    got = sorted(zip(df["precinct"].astype(str), df["choice"].astype(str),
                     df["votes"].tolist(), strict=True))
    assert got == [("P1", "Ann", 5), ("P1", "Bob", 2), ("P2", "Ann", 3), ("P2", "Bob", 4)]
    assert [i.message for i in log.close()] == [
        "1 invalid write-in vote(s) are not counted for any candidate."]


def test_contests_that_share_a_title_are_told_apart_by_their_id():
    keys = pd.DataFrame({"race": ["Council", "Council", "Mayor", "Mayor"],
                         "party": ["", "", "", ""]})
    district, shared = kept_apart(keys, pd.Series(["7", "8", "9", "9"]))
    assert district.tolist() == ["7", "8", "", ""] and shared == ["Council"]
    district, shared = kept_apart(keys[["race"]], pd.Series(["1", "1", "2", "2"]))
    assert district.tolist() == ["", "", "", ""] and shared == []


def test_a_long_mapping_of_a_primary_keeps_each_partys_race_and_its_named_totals_row(
        tmp_path: Path):
    p = tmp_path / "primary.csv"
    p.write_text("Precinct,Race,Party,Name,Votes\n"
                 "P1,Governor,REP,Ann,5\nP1,Governor,REP,Bob,3\nP1,Governor,DEM,Cy,7\n"
                 "P2,Governor,REP,Ann,4\nP2,Governor,REP,Bob,6\nP2,Governor,DEM,Cy,*\n"
                 "Sum,Governor,REP,Ann,9\nSum,Governor,REP,Bob,9\nSum,Governor,DEM,Cy,7\n",
                 encoding="utf-8")
    mapping = {"layout": "long", "contest_party": True, "totals_row": "Sum", "primary": True,
               "columns": {"precinct": "Precinct", "contest": "Race", "choice": "Name",
                           "votes": "Votes", "party": "Party"}}
    parsed = read_canvass(p, options=ReadOptions(mapping=mapping))
    got = {(t.contest.key.title, t.contest.key.party): {c.choice.name: c.votes
                                                        for c in t.choices}
           for t in parsed.totals}
    assert got == {("Governor", "REP"): {"Ann": 9, "Bob": 9}, ("Governor", "DEM"): {"Cy": 7}}
    assert "Sum" not in parsed.precincts
    assert any("suppressed" in i.message for i in parsed.issues)


def test_a_rows_count_is_checked_once_and_each_bad_one_named_then_counted():
    from recount_desk.core.model import Severity
    from recount_desk.formats.blocks import row_counts

    texts = pd.Series(["1,075", "", "x", "2.5", "-1", "7"] + ["y"] * 12)
    log = IssueLog("export.txt")
    num, bad = row_counts(texts, list(range(2, 2 + len(texts))), log=log, column="votes")
    assert num[0] == 1075 and num[5] == 7
    assert bad.tolist()[:6] == [False, True, True, True, True, False]  # an empty count is bad
    issues = log.close()
    assert [(i.row, i.column) for i in issues[:2]] == [(3, "votes"), (4, "votes")]
    assert issues[10].message == "… and 6 more rows whose count is not a whole number."
    assert all(i.severity is Severity.ERROR for i in issues)
    _, bad = row_counts(texts, list(range(len(texts))), log=None, column="Total",
                        empty_is_zero=True, check=pd.Series([True] * 3 + [False] * 15))
    assert bad.tolist()[:4] == [False, False, True, False]


def test_one_vocabulary_for_parties_vote_modes_and_gems_pseudo_candidates():
    from recount_desk.formats import vocab

    assert [vocab.party_code(p) for p in ("Republican Party", "NP", "Nonpartisan Party",
                                          " uup ", ".")] == ["REP", "", "", "UUP", ""]
    assert all(vocab.VOTE_MODE.match(m) for m in ("By Mail", "Provisional-Paper", "In-Office",
                                                   "Election Day", "Total", "UOCAVA"))
    assert not vocab.VOTE_MODE.match("Precinct 4")
    assert [vocab.choice_kind(c) for c in ("Times Over Voted", "Number of Under Votes",
                                           "Times Blank Voted", "Times Counted")] == \
        ["over", "under", "blank", None]


def test_precincts_with_more_votes_than_ballots_are_counted_and_the_worst_named():
    from recount_desk.formats.blocks import over_ballots

    # (votes, ballots): 12 on 10, 30 on 10 (the worst), 5 on none stated, 9 on 0, 7 on 7.
    assert over_ballots([(12, 10), (30, 10), (5, None), (9, 0), (7, 7), (60, 20)]) == (3, 1)
    assert over_ballots([(3, 10), (1, None)]) == (0, None)


def test_a_grids_count_cells_name_each_bad_one_and_read_dashes_as_not_on_the_ballot():
    from recount_desk.formats.blocks import count_cells

    log = IssueLog("export.csv")
    values, present = count_cells([["1,075", "-", "x"], ["", "2.5", "7"]], log=log,
                                  rows=[3, 4], columns=[2, 3, 4], not_on_ballot=frozenset("-"))
    assert values.tolist() == [[1075, 0, 0], [0, 0, 7]]
    assert present.tolist() == [[True, False, False], [False, False, True]]
    issues = log.close()
    assert issues[0].message.startswith("1 cell(s) hold '-' instead of a count")
    assert [(i.row, i.column, i.message) for i in issues[1:]] == [
        (4, "E", "The vote count 'x' is not a whole number; it is read as 0."),
        (5, "D", "The vote count '2.5' is not a whole number; it is read as 0.")]
