"""Hand-built county workbooks tried as a clerk would (session 15): vote-mode columns under
words the reader did not know ('Total Votes', 'TOT', 'Walk In') were read from their first
sub-column; a title typed over a contest's last column moved candidates into the contest
beside it; a title spelled another way over one column ('U.S. Senate') made a contest of one
candidate; an office over a row of districts lost the office ('District 68'); a precinct's
'SL001 Total' row under its parts counted the precinct twice; a 'Ballots Returned' column
became a candidate; running mates under the names were dropped. Each now reads right or is
doubted, naming the row and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass, vocab

STATS = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]
PRECINCTS = [["P01", 900, 700, 0.78], ["P02", 800, 600, 0.75], ["P03", 700, 500, 0.71]]


def _read(tmp_path: Path, rows: list[list[object]]):
    return read_canvass(write_workbook(tmp_path / "t.xlsx", {"2024 General": rows}))


def _votes(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def _table(band: list[list[object]], counts: list[list[int | None]]) -> list[list[object]]:
    """A sheet: its title, the header band (each row's cells right of the statistics; the
    row holding None first gets the statistics' names), a row per precinct."""
    head = [["2024 General Election - Canvass Report"], []]
    for r in band:
        if r and r[0] is None:
            head.append([*STATS, *r[1:]])
        else:
            head.append([None] * 4 + r)
    return [*head, *[[*p, *c] for p, c in zip(PRECINCTS, counts, strict=True)]]


# --- Vote modes -----------------------------------------------------------------------------

def test_vote_modes_under_words_not_known_are_doubted_not_read_from_one_column(tmp_path):
    # 'Walk In' / 'Drop Box' / 'Total' under each name: the row of modes was taken for the
    # candidates and the names for the contests ('Cy Cole' won by 'Walk In').
    band = [["County Sheriff", None, None, None, None, None],
            [None, "Cy Cole", None, None, "Di Dunn", None, None],
            ["Walk In", "Drop Box", "Total", "Walk In", "Drop Box", "Total"]]
    counts = [[10, 20, 30, 5, 6, 11], [7, 8, 15, 9, 9, 18], [1, 2, 3, 4, 4, 8]]
    parsed = _read(tmp_path, _table(band, counts))
    assert parsed.doubtful
    assert any("were read with the same choices" in d and "'Drop Box'" in d
               for d in parsed.doubts)


def test_columns_with_counts_and_no_name_beside_a_candidate_are_doubted(tmp_path):
    # No row of modes at all: the two columns right of each name were not read, and nothing
    # said so (the verdict rested on the first sub-column).
    band = [["County Sheriff", None, None, None, None, None],
            [None, "Cy Cole", None, None, "Di Dunn", None, None]]
    counts = [[10, 20, 30, 5, 6, 11], [7, 8, 15, 9, 9, 18], [1, 2, 3, 4, 4, 8]]
    parsed = _read(tmp_path, _table(band, counts))
    assert parsed.doubtful
    doubt = next(i for i in parsed.issues if "hold counts but no name over them" in i.message)
    assert "Column(s) F, G, I, J" in doubt.message and "'Cy Cole'" in doubt.message
    assert (doubt.row, doubt.column) == (4, "F")


@pytest.mark.parametrize("word", ["Total Votes", "TOT", "Grand Total", "Sum"])
def test_the_modes_total_under_other_words_is_their_total(word):
    assert vocab.TOTAL_MODE.match(word) and vocab.VOTE_MODE.match(word)


@pytest.mark.parametrize(("word", "mode"), [("ED", True), ("VBM", True), ("Mail-in", True),
                                            ("In Person", True), ("Ed", False),
                                            ("Edward", False)])
def test_modes_of_counties_own_sheets(word, mode):
    assert bool(vocab.VOTE_MODE.match(word)) is mode


# --- Titles ---------------------------------------------------------------------------------

def test_a_title_over_the_last_column_of_its_contest_is_doubted(tmp_path):
    # 'US Senate' typed over Hansen, its third column: Lee and McMullin were read as a contest
    # 'Results', and each later contest took the next one's first candidate.
    band = [["", "", "US Senate", "", "County Sheriff"],
            [None, "Mike Lee", "Evan McMullin", "James Hansen", "Cy Cole", "Di Dunn"]]
    counts = [[100, 200, 300, 250, 240], [90, 80, 70, 200, 210], [50, 60, 70, 100, 90]]
    parsed = _read(tmp_path, _table(band, counts))
    assert parsed.doubtful
    doubt = next(i for i in parsed.issues if "have no contest title over them" in i.message)
    assert "Column(s) E–F ('Mike Lee', 'Evan McMullin')" in doubt.message
    assert "'US Senate', over G" in doubt.message and doubt.severity is Severity.ERROR


def test_a_title_spelled_another_way_over_one_column_is_the_same_contest(tmp_path):
    band = [["US Senate", "US Senate", "U.S. Senate", "County Sheriff", "Co. Sheriff"],
            [None, "Mike Lee", "Evan McMullin", "James Hansen", "Cy Cole", "Di Dunn"]]
    counts = [[100, 200, 300, 250, 240], [90, 80, 70, 200, 210], [50, 60, 70, 100, 90]]
    parsed = _read(tmp_path, _table(band, counts))
    assert _votes(parsed) == {
        "US Senate": {"Mike Lee": 240, "Evan McMullin": 340, "James Hansen": 440},
        "County Sheriff": {"Cy Cole": 550, "Di Dunn": 540}}
    assert not parsed.doubtful


def test_an_office_over_a_row_of_districts_gives_each_contest_both(tmp_path):
    # 'State House' over 'District 68' and 'District 69': read as 'District 68', a county's
    # own race, and U.S. Senate (no district under it) as 'Results'.
    band = [["US Senate", "", "State House", "", "", ""],
            ["", "", "District 68", "", "District 69", ""],
            [None, "Mike Lee", "Evan McMullin", "Ann Ash", "Ben Birch", "Cal Cedar",
             "Dan Dogwood"]]
    counts = [[100, 200, 30, 40, None, None], [90, 80, None, None, 50, 60],
              [50, 60, 7, 8, None, None]]
    parsed = _read(tmp_path, _table(band, counts))
    assert _votes(parsed) == {
        "US Senate": {"Mike Lee": 240, "Evan McMullin": 340},
        "State House District 68": {"Ann Ash": 37, "Ben Birch": 48},
        "State House District 69": {"Cal Cedar": 50, "Dan Dogwood": 60}}
    assert not parsed.doubtful


# --- Rows -----------------------------------------------------------------------------------

def _split_precincts(total: list[object]) -> list[list[object]]:
    return [["2024 General Election - Canvass Report"], [],
            [None] * 4 + ["County Sheriff"], [*STATS, "Cy Cole", "Di Dunn"],
            ["SL001 - Part 1", 500, 300, 0.6, 100, 120], ["SL001 - Part 2", 400, 200, 0.5, 80, 60],
            total, ["SL002", 600, 400, 0.67, 150, 170]]


def test_a_precincts_total_under_its_parts_is_not_counted_again(tmp_path):
    parsed = _read(tmp_path, _split_precincts(["SL001 Total", 900, 500, 0.56, 180, 180]))
    assert _votes(parsed) == {"County Sheriff": {"Cy Cole": 330, "Di Dunn": 350}}
    assert "SL001 Total" not in parsed.precincts
    note = next(i for i in parsed.issues if "is the sum of the 2 row(s) above it" in i.message)
    assert (note.row, note.column) == (7, "A")
    assert not parsed.doubtful and not parsed.errors


def test_a_precincts_total_that_is_not_its_parts_sum_is_an_error(tmp_path):
    parsed = _read(tmp_path, _split_precincts(["SL001 Total", 900, 500, 0.56, 180, 190]))
    error = next(i for i in parsed.errors if "is not their sum" in i.message)
    assert (error.row, error.column) == (7, "F")


def test_a_ballots_returned_column_is_a_statistic_not_a_candidate(tmp_path):
    rows = [["2024 General Election - Canvass Report"], [],
            [None] * 5 + ["County Sheriff"],
            [*STATS, "Ballots Returned", "Cy Cole", "Di Dunn"],
            ["P01", 900, 700, 0.78, 690, 300, 280], ["P02", 800, 600, 0.75, 590, 250, 260]]
    parsed = _read(tmp_path, rows)
    assert _votes(parsed) == {"County Sheriff": {"Cy Cole": 550, "Di Dunn": 540}}


def test_running_mates_under_the_names_are_part_of_each_ticket(tmp_path):
    band = [["President and Vice President", "", "County Sheriff", ""],
            [None, "Donald J. Trump", "Kamala D. Harris", "Cy Cole", "Di Dunn"],
            ["JD Vance", "Tim Walz", "", ""]]
    counts = [[100, 200, 250, 240], [90, 80, 200, 210], [50, 60, 100, 90]]
    parsed = _read(tmp_path, _table(band, counts))
    assert _votes(parsed)["President and Vice President"] == {
        "Donald J. Trump / JD Vance": 240, "Kamala D. Harris / Tim Walz": 340}
    assert any("Running mates are named under the candidates" in i.message
               for i in parsed.issues)


# --- Statistics and write-in totals named as choices ------------------------------------------

@pytest.mark.parametrize("name", ["Registered", "Voters", "Ballots", "Cast Ballots",
                                  "Total Voters", "Valid Votes", "Spoiled", "Ballots Returned",
                                  "Ballots Received", "Total Votes for Contest"])
def test_statistics_named_as_choices_are_no_choice(name):
    # (a long table's 'Registered' row in U.S. Senate won it with 6,245 'votes')
    assert vocab.choice_kind(name) is None


def _long_csv(tmp_path: Path, extra: list[str]) -> Path:
    rows = ["county,precinct,office,district,party,candidate,votes"]
    for p, (a, b) in {"P1": (100, 50), "P2": (80, 60), "P3": (70, 65)}.items():
        rows += [f"Beaver,{p},County Sheriff,,REP,Cy Cole,{a}",
                 f"Beaver,{p},County Sheriff,,DEM,Di Dunn,{b}"]
        rows += [line.format(p=p) for line in extra]
    path = tmp_path / "20241105__ut__general__beaver__precinct.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("total", ["Total Write-In Votes", "Write-In Total Votes",
                                   "Write-ins (Total)", "All Write-Ins"])
def test_a_write_in_total_beside_named_write_ins_is_not_counted_twice(tmp_path, total):
    parsed = read_canvass(_long_csv(tmp_path, [
        "Beaver,{p},County Sheriff,,," + total + ",3", "Beaver,{p},County Sheriff,,,"
        "Write-In: Al Ames,2", "Beaver,{p},County Sheriff,,,Write-In: Bo Bell,1"]))
    sheriff = _votes(parsed)["County Sheriff"]
    assert sum(sheriff.values()) == 250 + 175 + 9
    assert total not in sheriff


def test_a_statistic_row_in_a_long_table_is_left_out(tmp_path):
    parsed = read_canvass(_long_csv(tmp_path, ["Beaver,{p},County Sheriff,,,Registered,900"]))
    assert _votes(parsed) == {"County Sheriff": {"Cy Cole": 250, "Di Dunn": 175}}


# --- A write-in total column (session 15 review) ---------------------------------------------

@pytest.mark.parametrize(("names", "want"), [
    # alone, it is the write-ins (it was left out as 'a sum of other rows': 16 votes lost)
    (["Cy Cole", "Di Dunn", "Write-In Totals"],
     {"Cy Cole": 550, "Di Dunn": 540, "Write-In Totals": 9}),
    # beside named write-ins, their sum: left out
    (["Cy Cole", "Write-In: Al Ames", "Total Write-In Votes"],
     {"Cy Cole": 550, "Write-In: Al Ames": 540})])
def test_a_write_in_total_column_counts_once(tmp_path, names, want):
    rows = [["2024 General Election - Canvass Report"], [],
            [None] * 4 + ["County Sheriff"], [*STATS, *names],
            ["P01", 900, 700, 0.78, 300, 280, 5], ["P02", 800, 600, 0.75, 250, 260, 4]]
    parsed = _read(tmp_path, rows)
    assert _votes(parsed) == {"County Sheriff": want}


def test_a_write_in_total_row_of_a_sideways_sheet_counts_once(tmp_path):
    rows = [["2024 General Election"], [None, "Total", "P1", "P2"], [],
            ["County Sheriff"], ["Cy Cole", 95, 50, 45], ["Di Dunn", 81, 40, 41],
            ["Write-In Totals", 3, 1, 2], [], ["County Recorder"], ["Ray Reed", 90, 45, 45],
            ["Write-In: Al Ames", 7, 3, 4], ["Write-In Totals", 7, 3, 4]]
    parsed = _read(tmp_path, rows)
    assert parsed.family == "sideways"
    assert _votes(parsed) == {
        "County Sheriff": {"Cy Cole": 95, "Di Dunn": 81, "Write-In Totals": 3},
        "County Recorder": {"Ray Reed": 90, "Write-In: Al Ames": 7}}
    assert not parsed.doubtful
