"""Two hand-built tables on one sheet, one under the other, each under a section heading
('Federal and State Races', 'County Races') or a vote mode ('Mail Ballots', 'Election Day'),
each with a row of contests' titles over its candidates (trial B, session 16): the stacked
reader took the heading for one contest's title and did not look at the contests' row, so
every candidate of a table was one race ('Federal and State Races': Lee, McMullin, Hansen,
Maloy, Woodward), decided and offered as done. A table whose header band holds more than
its one title is not this layout's."""

from __future__ import annotations

from workbooks import write_workbook

from recount_desk.formats import ImportFailed, read_canvass, stacked
from recount_desk.formats.stages import sheets

PRECINCTS = ["P01", "P02", "P03", "P04"]
STATS = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]


def _table(heading: str, contests: list[tuple[str, list[str]]], *, first: int,
           parties: bool = True) -> list[list[object]]:
    """A hand-built table under ``heading``: its contests' row (each title over its first
    candidate), the header, a party row, a row per precinct (the votes ``first`` + the
    candidate's place + the precinct's), county totals."""
    names = [n for _, ns in contests for n in ns]
    titles: list[object] = [None] * len(STATS)
    for title, ns in contests:
        titles += [title] + [None] * (len(ns) - 1)
    rows: list[list[object]] = [[heading], [], titles, [*STATS, *names]]
    if parties:
        rows.append([None] * len(STATS) + ["REP", "DEM"] * (len(names) // 2)
                    + ["REP"] * (len(names) % 2))
    votes = [[first + 10 * k + p for k in range(len(names))] for p in range(len(PRECINCTS))]
    for p, name in enumerate(PRECINCTS):
        rows.append([name, 1000, 900, 0.9, *votes[p]])
    rows.append(["COUNTY TOTALS", 1000 * len(PRECINCTS), 900 * len(PRECINCTS), 0.9,
                 *[sum(v[k] for v in votes) for k in range(len(names))]])
    return [*rows, []]


FEDERAL = [("US Senate", ["Mike Lee", "Evan McMullin", "James Hansen"]),
           ("US House District 2", ["Celeste Maloy", "Nathaniel Woodward"])]
COUNTY = [("County Sheriff", ["Cy Cole", "Di Dunn"]),
          ("School Board District 3", ["Ed Eads", "Flo Fitch"])]


def _rows(path):
    [(_, rows)] = list(sheets(path, "xlsx", limit=1, nrows=400))
    return rows


def _titles(path) -> list[str] | None:
    """The contests' titles read, or None where the file was refused."""
    try:
        parsed = read_canvass(path)
    except ImportFailed:
        return None
    assert parsed.family != "stacked"
    return [c.key.title for c in parsed.contests]


def test_section_headings_over_tables_with_a_contests_row_are_not_stacked_tables(tmp_path):
    path = write_workbook(tmp_path / "s.xlsx", {"2024 General": [
        ["2024 General Election - Canvass Report"], [],
        *_table("Federal and State Races", FEDERAL, first=20),
        *_table("County Races", COUNTY, first=50)]})
    assert not stacked.tables_in(_rows(path))
    assert stacked.detect(path, "xlsx") is None
    titles = _titles(path)
    assert titles is None or ("Federal and State Races" not in titles
                              and "US Senate" in titles and "US House District 2" in titles)

    # What the layout may hold between a title and its header is still read as it: a
    # 'Vote for' row, a note beside the election's name.
    def table(title: str, names: list[str], first: int) -> list[list[object]]:
        return [[title], ["Vote for 1"], ["Precinct", *names],
                *[[p, *[first + k + 5 * c for c in range(len(names))]]
                  for k, p in enumerate(PRECINCTS)], []]
    path = write_workbook(tmp_path / "ok.xlsx", {"Results": [
        ["Wayne County 2024 General Election", None, "Official"], [],
        *table("US Senate", ["Mike Lee", "Evan McMullin"], 10),
        *table("County Sheriff", ["Cy Cole", "Di Dunn"], 40)]})
    parsed = read_canvass(path)
    assert parsed.family == "stacked"
    assert [c.key.title for c in parsed.contests] == ["US Senate", "County Sheriff"]


def test_tables_by_vote_mode_with_a_contests_row_are_not_read_as_one_contest_each(tmp_path):
    # The same contests under 'Mail Ballots' and 'Election Day', with or without a party row.
    for parties in (True, False):
        path = write_workbook(tmp_path / f"m{parties}.xlsx", {"2024 General": [
            ["2024 General Election - Canvass Report"],
            *_table("Mail Ballots", FEDERAL, first=20, parties=parties),
            *_table("Election Day", FEDERAL, first=30, parties=parties)]})
        assert stacked.detect(path, "xlsx") is None
        titles = _titles(path)
        assert titles is None or not {"Mail Ballots", "Election Day"} & set(titles)


def test_a_row_of_names_under_a_header_of_contests_is_not_a_stacked_table(tmp_path):
    # The header names the contests, the row under it the candidates: read as this layout,
    # the contests' titles were the choices and the candidates' names went unread.
    def table(title: str, first: int) -> list[list[object]]:
        return [[title], ["Precinct", "US Senate", None, "US House District 2", None],
                [None, "Mike Lee", "Evan McMullin", "Celeste Maloy", "Nathaniel Woodward"],
                *[[p, first + k, first + 2 * k, first + 3 * k, first + 4 * k]
                  for k, p in enumerate(PRECINCTS)], []]
    path = write_workbook(tmp_path / "n.xlsx", {"Results": [
        ["Wayne County 2024 General Election"], [], *table("Mail Ballots", 10),
        *table("Election Day", 40)]})
    assert stacked.detect(path, "xlsx") is None

