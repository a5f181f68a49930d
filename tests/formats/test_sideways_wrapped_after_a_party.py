"""Sideways sheets, a name wrapped over two rows with nothing to join them (trial B, session
16): 'Mike Lee (REP)' with its counts, 'Evan' alone, 'McMullin (UNA)' with its counts was read
as 'Mike Lee (REP) Evan' and 'McMullin', decided and offered as done. A name that ends with
its party goes on no further: the fragment is the first part of the name below it. Where a
fragment could be either name's, or neither's, it is an error naming its row."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

TITLE = [["Garfield County 2024 General Election Canvass"], []]
HEAD = [None, "Total", "P1", "P2", "P3"]
SHERIFF = [[], ["County Sheriff"], ["Cy Cole (REP)", 150, 50, 50, 50],
           ["Di Dunn (DEM)", 120, 40, 40, 40]]


def _read(tmp_path: Path, senate: list[list[object]]):
    return read_canvass(write_workbook(tmp_path / "s.xlsx", {"Canvass": [
        *TITLE, HEAD, [], ["US Senate"], *senate, *SHERIFF]}))


def _senate(parsed) -> dict[str, tuple[int, str]]:
    [t] = [t for t in parsed.totals if t.contest.key.title == "US Senate"]
    return {c.choice.name: (c.votes, c.choice.party) for c in t.choices}


def test_a_fragment_under_a_name_that_ends_with_its_party_begins_the_name_below(tmp_path):
    parsed = _read(tmp_path, [["Mike Lee (REP)", 90, 30, 30, 30], ["Evan"],
                              ["McMullin (UNA)", 60, 20, 20, 20],
                              ["James Hansen (LIB)", 27, 7, 10, 10]])
    assert not parsed.errors
    assert _senate(parsed) == {"Mike Lee": (90, "REP"), "Evan McMullin": (60, "UNA"),
                               "James Hansen": (27, "LIB")}
    [note] = [i for i in parsed.issues if "first part of the name below" in i.message]
    assert (note.row, note.column) == (7, "A")
    assert note.severity is Severity.NOTE


def test_a_fragment_that_fits_either_name_or_neither_is_an_error_naming_its_row(tmp_path):
    # 'Mike Lee' / 'Evan' / 'McMullin': 'Mike Lee Evan' and 'McMullin', or 'Mike Lee' and
    # 'Evan McMullin'?
    parsed = _read(tmp_path, [["Mike Lee", 90, 30, 30, 30], ["Evan"],
                              ["McMullin", 60, 20, 20, 20]])
    [err] = parsed.errors
    assert (err.row, err.column) == (7, "A")
    assert err.message.startswith("Row 7 ('Evan', in 'US Senate') holds no counts and is part "
                                  "of a name, but it may be the rest of the name above it "
                                  "('Mike Lee Evan') or the first part of the name below it "
                                  "('Evan McMullin')")
    assert parsed.blocking
    # A name that ends with its party, the fragment last in the contest: no name below it.
    parsed = _read(tmp_path, [["Evan McMullin (UNA)", 60, 20, 20, 20],
                              ["Mike Lee (REP)", 90, 30, 30, 30], ["Tommy"]])
    [err] = parsed.errors
    assert (err.row, err.column) == (8, "A")
    assert "it is not the rest of the name above it ('Mike Lee (REP)' ends with its party)" \
        in err.message
