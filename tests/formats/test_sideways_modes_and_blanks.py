"""Sideways county workbooks (precincts across, contests down) tried as a clerk would
(session 14): a candidate's row left blank was read as the rest of the name above it (the
winner renamed 'Mike Lee Tommy Williams') or as the contest's title; precincts split into
'Mail' / 'Election Day' sub-columns were read from their first sub-column only; votes by mode
in rows under each candidate were read as candidates called 'Mail'. Each now reads right or
is refused, naming the row or the columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, read_canvass

TITLE = [["Garfield County 2024 General Election Canvass"], []]
HEAD = [None, "Total", "P1", "P2", "P3"]


def _read(tmp_path: Path, rows: list[list[object]], name: str = "s.xlsx"):
    return read_canvass(write_workbook(tmp_path / name, {"Canvass": rows}))


def _votes(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.label(): {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def _senate(blank_at: int) -> list[list[object]]:
    """U.S. Senate with three candidates, the one at ``blank_at`` with no counts at all,
    then a County Sheriff race."""
    cands = [["Evan McMullin", 60, 20, 20, 20], ["James Hansen", 30, 10, 10, 10],
             ["Mike Lee", 90, 30, 30, 30]]
    cands[blank_at] = [cands[blank_at][0]]
    return [*TITLE, HEAD, ["Ballots Cast", 300, 100, 100, 100], [], ["U.S. Senate"], *cands,
            [], ["County Sheriff"], ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]


@pytest.mark.parametrize(("blank_at", "row"), [(0, 7), (1, 8), (2, 9)])
def test_a_candidate_row_with_no_counts_is_an_error_not_a_name_or_a_title(tmp_path, blank_at,
                                                                        row):
    # First under the title it was read as the contest's title ('James Hansen' won the
    # contest 'Evan McMullin'); later, as the rest of the name above ('James Hansen Mike
    # Lee'). Blank counts are not 0: the file does not say which it is.
    parsed = _read(tmp_path, _senate(blank_at))
    errors = [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert [(i.row, i.column) for i in errors] == [(row, "A")]
    name = ["Evan McMullin", "James Hansen", "Mike Lee"][blank_at]
    assert f"Row {row} ({name!r}, in 'U.S. Senate') names a choice but has no counts" in \
        errors[0].message
    assert parsed.blocking   # (not imported: a cell-level question, the whole file waits)
    assert "U.S. Senate" in _votes(parsed)   # the title stays the contest's


def test_a_name_wrapped_after_a_joiner_is_still_one_name(tmp_path):
    # A running mate on the next line after '/' is the rest of the name, not a candidate.
    rows = [*TITLE, HEAD, [], ["President"], ["Joseph R. Biden /", 60, 20, 20, 20],
            ["Kamala D. Harris"], ["Donald J. Trump /", 90, 30, 30, 30], ["Mike Pence"], [],
            ["County Sheriff"], ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    assert not parsed.errors
    assert _votes(parsed)["President"] == {"Joseph R. Biden / Kamala D. Harris": 60,
                                           "Donald J. Trump / Mike Pence": 90}


def _split(modes: list[str]) -> list[list[object]]:
    """Each precinct over len(modes) sub-columns (its name over the first); the modes'
    figures are 1, 2, 3 … times a base, the 'Total' the sum of the others."""
    n = len(modes)
    head = [None]
    sub = [None]
    for p in ("P1", "P2", "P3"):
        head += [p] + [None] * (n - 1)
        sub += modes

    def row(name: str, base: int) -> list[object]:
        cells: list[object] = [name]
        for k in range(3):
            parts = [base * (m + 1) + k for m in range(n) if modes[m] != "Total"]
            total = sum(parts)
            cells += [total if m == "Total" else parts.pop(0) for m in modes]
        return cells
    return [*TITLE, head, sub, [], ["County Sheriff"], row("Cy Cole", 10), row("Di Dunn", 5),
            [], ["County Clerk"], row("Ed Eyre", 7), row("Flo Fay", 3)]


def test_precincts_split_into_mode_columns_are_read_from_their_total_column(tmp_path):
    parsed = _read(tmp_path, _split(["Mail", "Election Day", "Total"]))
    assert not parsed.errors
    # Cy Cole: per precinct (10 + k) + (20 + k) = 30 + 2k, k = 0, 1, 2: 96 in all.
    assert _votes(parsed)["County Sheriff"] == {"Cy Cole": 96, "Di Dunn": 51}
    assert len(parsed.precincts) == 3
    assert any("'Total' column is read, the others are its parts" in i.message
               for i in parsed.issues)


@pytest.mark.parametrize("modes", [["Mail", "Election Day"], ["Election Day", "Mail"]])
def test_precincts_split_into_mode_columns_with_no_total_are_refused(tmp_path, modes):
    # Read before from the first sub-column only: Mail counted, Election Day left out with a
    # warning, and verdicts given on the part.
    with pytest.raises(ImportFailed) as e:
        _read(tmp_path, _split(modes))
    issue = e.value.issue
    assert (issue.row, issue.column) == (4, "B")
    assert "The columns B–C under precinct 'P1' hold its votes by how they were cast" in \
        issue.message
    assert "(and so do 2 more precincts)" in issue.message


def _sub_rows(with_counts: bool, total: bool) -> list[list[object]]:
    """Each candidate's votes by mode in rows under its name."""
    def cand(name: str, mail: int, day: int) -> list[list[object]]:
        top: list[object] = [name, *([3 * (mail + day), mail + day, mail + day, mail + day]
                                     if with_counts else [])]
        rows = [top, ["Mail", 3 * mail, mail, mail, mail], ["Election Day", 3 * day, day, day,
                                                             day]]
        if total:
            rows.append(["Total", 3 * (mail + day), *[mail + day] * 3])
        return rows
    return [*TITLE, HEAD, [], ["County Sheriff"], *cand("Cy Cole", 30, 20),
            *cand("Di Dunn", 10, 15), [], ["County Clerk"], *cand("Ed Eyre", 8, 9),
            *cand("Flo Fay", 4, 2)]


@pytest.mark.parametrize(("with_counts", "total"), [(True, False), (True, True), (False, True)])
def test_votes_by_mode_in_rows_under_each_candidate_are_its_parts(tmp_path, with_counts,
                                                                  total):
    # Read before as candidates 'Mail' and 'Election Day', or (the name's row blank) each
    # candidate as a contest of its own.
    parsed = _read(tmp_path, _sub_rows(with_counts, total))
    assert not parsed.errors
    assert _votes(parsed) == {"County Sheriff": {"Cy Cole": 150, "Di Dunn": 75},
                              "County Clerk": {"Ed Eyre": 51, "Flo Fay": 18}}


def test_votes_by_mode_in_rows_with_no_total_row_under_a_blank_name_are_refused(tmp_path):
    with pytest.raises(ImportFailed) as e:
        _read(tmp_path, _sub_rows(False, False))
    issue = e.value.issue
    assert (issue.row, issue.column) == (6, "A")
    assert "The rows under 'Cy Cole' (row 6) hold its votes by how they were cast ('Mail', " \
        "'Election Day') with no 'Total' row (and so do 3 more choices)" in issue.message


def test_a_candidate_row_with_its_party_and_no_counts_is_an_error(tmp_path):
    # ('Tommy Williams (IAP)' after the contest's last choice, no blank row: read as the next
    # contest's title, then replaced by it, and the candidate was dropped without a word)
    rows = [*TITLE, HEAD, [], ["U.S. Senate"], ["Evan McMullin (UNA)", 60, 20, 20, 20],
            ["Mike Lee (REP)", 90, 30, 30, 30], ["Tommy Williams (IAP)"], ["County Sheriff"],
            ["Cy Cole (REP)", 150, 50, 50, 50], ["Di Dunn (DEM)", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    [err] = parsed.errors
    assert (err.row, err.column) == (8, "A")
    assert err.message.startswith("Row 8 ('Tommy Williams (IAP)', in 'U.S. Senate') names a "
                                  "choice but has no counts: it names a party")
    assert _votes(parsed)["County Sheriff"] == {"Cy Cole": 150, "Di Dunn": 120}


def test_a_name_whose_counts_stand_on_its_last_line_is_read_down(tmp_path):
    # A PDF conversion that sets the counts on a wrapped name's last line: 'EVAN' alone
    # under the title, 'MCMULLIN' and the counts below. 'EVAN' was read as the contest's
    # title (U.S. Senate lost), and 'JAMES' as the rest of 'MCMULLIN'.
    rows = [*TITLE, HEAD, [], ["U.S. Senate"], ["Evan"], ["McMullin", 60, 20, 20, 20],
            ["James Arthur"], ["Hansen", 30, 10, 10, 10], ["Mike Lee", 95, 35, 30, 30], [],
            ["County Sheriff"], ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    assert not parsed.errors
    assert _votes(parsed)["U.S. Senate"] == {"Evan McMullin": 60, "James Arthur Hansen": 30,
                                             "Mike Lee": 95}
    assert any("Row 6 ('Evan') is read as the first part of the name below it" in i.message
               for i in parsed.issues)


def test_a_sheet_that_wraps_names_both_ways_is_refused_where_it_cannot_tell(tmp_path):
    # ('Evan' alone under the title says the counts stand on a name's last line; 'Lee'
    # under Mike's counts at the block's end says the other way)
    rows = [*TITLE, HEAD, [], ["U.S. Senate"], ["Evan"], ["McMullin", 60, 20, 20, 20],
            ["Mike", 95, 35, 30, 30], ["Lee"], [], ["County Sheriff"],
            ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    [err] = parsed.errors
    assert (err.row, err.column) == (9, "A")
    assert err.message.startswith("Row 9 ('Lee') is part of a name, but the sheet sets other "
                                  "names' counts on their last line")


def test_a_sideways_title_on_two_rows_is_one_title(tmp_path):
    rows = [*TITLE, HEAD, [], ["U.S. House"], ["District 2"], ["Kael Weston", 60, 20, 20, 20],
            ["Chris Stewart", 95, 35, 30, 30], [], ["County Sheriff"],
            ["Cy Cole", 150, 50, 50, 50], ["Di Dunn", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    assert not parsed.errors
    assert [c.key.title for c in parsed.contests] == ["U.S. House District 2", "County Sheriff"]


# --- A party on the row under each name (session 15) ---------------------------------------

def _parties_below(words: list[str]) -> list[list[object]]:
    cands = [["Mike Lee", 95, 35, 30, 30], ["Evan McMullin", 60, 20, 20, 20],
             ["James Hansen", 30, 10, 10, 10]]
    rows: list[list[object]] = [*TITLE, HEAD, [], ["U.S. Senate"]]
    for cand, word in zip(cands, words, strict=True):
        rows += [cand, [word]]
    return [*rows, [], ["County Sheriff"], ["Cy Cole", 150, 50, 50, 50], ["Republican"],
            ["Di Dunn", 120, 40, 40, 40], ["Democrat"]]


def test_a_party_on_the_row_under_a_whole_name_is_its_party_not_the_rest_of_the_name(tmp_path):
    # Read as the rest of each name ('Mike Lee Republican'), with a note saying so.
    parsed = _read(tmp_path, _parties_below(["Republican", "Unaffiliated", "LIB"]))
    assert _votes(parsed) == {
        "U.S. Senate": {"Mike Lee": 95, "Evan McMullin": 60, "James Hansen": 30},
        "County Sheriff": {"Cy Cole": 150, "Di Dunn": 120}}
    parties = {c.choice.name: c.choice.party for t in parsed.totals for c in t.choices}
    assert parties == {"Mike Lee": "REP", "Evan McMullin": "UNA", "James Hansen": "LIB",
                       "Cy Cole": "REP", "Di Dunn": "DEM"}
    notes = [i for i in parsed.issues if "is read as the party" in i.message]
    assert (notes[0].row, notes[0].column) == (7, "A")
    assert "Row 7 ('Republican') is read as the party of the choice above it ('Mike Lee')" \
        in notes[0].message
    assert not parsed.doubtful and not parsed.errors


def test_a_party_word_under_a_part_of_a_name_is_the_rest_of_the_name(tmp_path):
    # 'Evan' / 'Green': a surname that is also a party's name, under a first name alone.
    rows = [*TITLE, HEAD, [], ["U.S. Senate"], ["Evan", 60, 20, 20, 20], ["Green"],
            ["Mike Lee", 90, 30, 30, 30], [], ["County Sheriff"], ["Cy Cole", 150, 50, 50, 50],
            ["Di Dunn", 120, 40, 40, 40]]
    parsed = _read(tmp_path, rows)
    assert _votes(parsed)["U.S. Senate"] == {"Evan Green": 60, "Mike Lee": 90}
