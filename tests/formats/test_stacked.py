"""Contests stacked down one sheet, each a small table of its own (title, a 'Precinct' header
row naming the choices, a row per precinct, perhaps a 'Total' row): found by trying a
county's workbook laid out so (session 14). The sideways reader took each table's header
for a row of precincts: every candidate became a precinct and every precinct a candidate,
the first contest was lost, and the reading was offered as done."""

from __future__ import annotations

import pytest
from workbooks import write_workbook

from recount_desk.formats import ImportFailed, detect, read_canvass, sideways

PRECINCTS = ["Fremont", "Loa", "Lyman", "Teasdale"]


def _table(title: str, cands: dict[str, list[int]], *, total_col: bool = False,
           total_row: bool = False, vote_for: int | None = None) -> list[list[object]]:
    head: list[object] = ["Precinct", *cands, *(["Total"] if total_col else [])]
    rows: list[list[object]] = [[title], *([[f"Vote for {vote_for}"]] if vote_for else []),
                                head]
    for k, p in enumerate(PRECINCTS):
        votes = [v[k] for v in cands.values()]
        rows.append([p, *votes, *([sum(votes)] if total_col else [])])
    if total_row:
        rows.append(["Total", *[sum(v) for v in cands.values()]])
    return [*rows, []]


PRESIDENT = {"Joseph R. Biden": [18, 35, 8, 91], "Donald J. Trump": [120, 300, 140, 110],
             "Jo Jorgensen": [1, 3, 0, 1]}
HOUSE = {"Kael Weston": [16, 26, 10, 89], "Chris Stewart": [123, 329, 151, 114]}
HOUSE_73 = {"Phil Lyman": [130, 340, 150, 190]}
COUNCIL = {"Ann Able": [50, 60, 70, 80], "Bob Baker": [40, 50, 60, 70], "Cy Cole": [5, 6, 7, 8]}


def _sheet(*tables: list[list[object]]) -> list[list[object]]:
    return [["Wayne County 2020 General Election"], [], *[r for t in tables for r in t]]


def _votes(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.label(): {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def test_contests_stacked_down_a_sheet_are_read_a_table_each(tmp_path):
    path = write_workbook(tmp_path / "s.xlsx", {"Results": _sheet(
        _table("President", PRESIDENT, total_col=True, total_row=True),
        _table("U.S. House District 2", HOUSE, total_row=True),
        _table("State House District 73", HOUSE_73),
        _table("County Council", COUNCIL, vote_for=2))})
    [best] = detect(path, best_only=True)
    assert best.family == "stacked"
    parsed = read_canvass(path)
    assert not parsed.errors
    assert _votes(parsed) == {
        "President": {n: sum(v) for n, v in PRESIDENT.items()},
        "U.S. House District 2": {n: sum(v) for n, v in HOUSE.items()},
        "State House District 73": {"Phil Lyman": 810},
        "County Council": {n: sum(v) for n, v in COUNCIL.items()}}
    assert parsed.precincts == PRECINCTS
    seats = {c.key.title: (c.seats, c.seats_from_file) for c in parsed.contests}
    assert seats["County Council"] == (2, True)
    assert seats["President"] == (1, False)
    assert parsed.election_name == "Wayne County 2020 General Election"
    # Never read sideways (candidates as precincts).
    assert sideways.detect(path, "xlsx") is None


def test_a_totals_row_that_is_not_the_precincts_sum_is_said(tmp_path):
    rows = _sheet(_table("President", PRESIDENT), _table("U.S. House District 2", HOUSE))
    rows.insert(2 + 2 + len(PRECINCTS), ["Total", 150, 670, 5])   # Biden's is 152
    parsed = read_canvass(write_workbook(tmp_path / "t.xlsx", {"Results": rows}))
    assert any("President: the precincts do not add up to the file's own totals row (Joseph "
               "R. Biden: precincts add up to 152, the file's total says 150)" in i.message
               for i in parsed.issues)


def test_a_table_with_no_title_is_refused_naming_its_header(tmp_path):
    rows = _sheet(_table("President", PRESIDENT), _table("U.S. House District 2", HOUSE))
    del rows[2 + len(PRECINCTS) + 3]   # the House's title
    with pytest.raises(ImportFailed) as e:
        read_canvass(write_workbook(tmp_path / "n.xlsx", {"Results": rows}))
    assert (e.value.issue.row, e.value.issue.column) == (10, "A")
    assert "The table whose header is row 10 has no contest title above it" in \
        e.value.issue.message


def test_one_title_over_two_tables_is_refused(tmp_path):
    rows = _sheet(_table("President", PRESIDENT), _table("President", HOUSE))
    with pytest.raises(ImportFailed) as e:
        read_canvass(write_workbook(tmp_path / "d.xlsx", {"Results": rows}))
    assert "The contest title 'President' heads two tables (rows 3 and 10)" in \
        e.value.issue.message


def test_tables_of_other_precincts_each_are_not_this_layout(tmp_path):
    # (two tables whose rows are not the same precincts are not contests stacked down)
    other = [["Precinct", "Ann Able", "Bob Baker"], ["North", 1, 2], ["South", 3, 4],
             ["East", 5, 6], ["West", 7, 8]]
    rows = [["2020 General"], [], *_table("President", PRESIDENT), ["Mayor"], *other]
    path = write_workbook(tmp_path / "o.xlsx", {"Results": rows})
    assert all(d.family != "stacked" for d in detect(path))


def test_a_district_race_on_some_precincts_only_is_still_a_table(tmp_path):
    # (a school board district's race lists two of the county's four precincts: the first
    # version asked every table for the same precincts, and the sheet went to the sideways
    # reader, every candidate a precinct)
    board = [["School Board District 2"], ["Precinct", "Ed Eyre", "Flo Fay"],
             ["Loa", 30, 20], ["Lyman", 25, 26], []]
    path = write_workbook(tmp_path / "d.xlsx", {"Results": _sheet(
        _table("President", PRESIDENT), board, _table("U.S. House District 2", HOUSE))})
    parsed = read_canvass(path)
    assert parsed.family == "stacked" and not parsed.errors
    assert _votes(parsed)["School Board District 2"] == {"Ed Eyre": 55, "Flo Fay": 46}


def test_a_totals_row_with_no_label_is_refused_as_elsewhere(tmp_path):
    rows = _sheet(_table("President", PRESIDENT), _table("U.S. House District 2", HOUSE))
    at = 2 + 2 + len(PRECINCTS)
    rows.insert(at, [None, *[sum(v) for v in PRESIDENT.values()]])
    rows.insert(at + 4 + len(PRECINCTS), [None, *[sum(v) for v in HOUSE.values()]])
    parsed = read_canvass(write_workbook(tmp_path / "b.xlsx", {"Results": rows}))
    assert parsed.family == "stacked"
    assert any(i.message.startswith("Precinct '' holds, in every contest, the sum of all the "
                                    "other precincts") for i in parsed.errors)


def test_a_party_row_under_a_header_gives_the_choices_parties(tmp_path):
    # (the party row of a nonpartisan race left blank: it ended the table, and the sheet
    # went to the sideways reader)
    def with_parties(title: str, cands: dict[str, list[int]], parties: list[str | None]
                     ) -> list[list[object]]:
        rows = _table(title, cands)
        return [rows[0], rows[1], [None, *parties], *rows[2:]]
    path = write_workbook(tmp_path / "p.xlsx", {"Results": _sheet(
        with_parties("President", PRESIDENT, ["DEM", "REP", "LIB"]),
        with_parties("School Board 4", COUNCIL, [None, None, None]))})
    parsed = read_canvass(path)
    assert parsed.family == "stacked" and not parsed.errors
    assert [(c.name, c.party) for c in parsed.choices[0]] == [
        ("Joseph R. Biden", "DEM"), ("Donald J. Trump", "REP"), ("Jo Jorgensen", "LIB")]
    assert _votes(parsed)["School Board 4"] == {n: sum(v) for n, v in COUNCIL.items()}


def test_a_title_on_two_rows_is_one_title(tmp_path):
    # ('U.S. House' / 'District 2': read as 'District 2' alone, the race was a county's own,
    # and 'not eligible' on one county's figures)
    house = _table("District 2", HOUSE)
    path = write_workbook(tmp_path / "t.xlsx", {"Results": _sheet(
        _table("President", PRESIDENT), [["U.S. House"], *house])})
    parsed = read_canvass(path)
    assert [c.key.title for c in parsed.contests] == ["President", "U.S. House District 2"]
