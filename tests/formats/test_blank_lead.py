"""A CSV re-saved with blank lines above its header (an empty line, a line of commas) reads
with the same figures as the file itself, names the file's real rows, and says that it
passed over the blank lines: the long table (both its small-file and its pandas reading)
and Dominion's Statement and Summary of Votes, as the SOVC, hand-built and sideways readers
already did. Before, the long table was "not recognised" and Dominion said "The file has no
rows."

The files are the real ones of tests/data (their sources in the SOURCES.md beside them),
with one bad count planted on their first contest row, and the blank lines put above them here.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from recount_desk.formats import detect, read_canvass
from recount_desk.formats.canvass import ParsedCanvass

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = [
    DATA / "openelections" / "20181106__ut__general__grand__precinct.csv",  # small: csv module
    DATA / "openelections" / "20181106__ut__general__salt_lake__precinct.csv",  # pandas
    DATA / "openelections" / "20181106__ut__general__county.csv",
    DATA / "formats" / "dominion" / "2025C-Boulder-County-Official-Statement-of-Votes.csv",
    DATA / "formats" / "dominion" / "2025C-Boulder-County-Official-Summary-of-Votes.csv",
]
LEADS = {"an empty line": ("\n", 1), "two CRLF lines": ("\r\n\r\n", 2),
         "lines of commas": (",,,\n,,,,,,\n", 2)}


def figures(parsed: ParsedCanvass) -> tuple[object, ...]:
    return (parsed.family, parsed.precincts, [
        (t.contest.key, t.contest.seats, [(c.choice.name, c.votes) for c in t.choices],
         sorted((k.value, v) for k, v in t.extras.items())) for t in parsed.totals])


def planted(src: Path) -> tuple[str, int]:
    """The file's text with its first contest row's count made '3x' (a bad count), and
    that row."""
    lines = src.read_bytes().decode("utf-8-sig").split("\n")
    header = next(csv.reader([lines[0]]))
    at = [h.strip().lower() for h in header].index(
        "votes" if "votes" in header else "total votes")
    k = next(k for k, line in enumerate(lines) if k and "straight party" not in line.lower())
    cells = next(csv.reader([lines[k].rstrip("\r")]))
    cells[at] = "3x"
    out = io.StringIO()
    csv.writer(out, lineterminator="\r" if lines[k].endswith("\r") else "").writerow(cells)
    lines[k] = out.getvalue()
    return "\n".join(lines), k + 1


@pytest.mark.parametrize("lead", LEADS, ids=str)
@pytest.mark.parametrize("src", FILES, ids=lambda p: p.name[:40])
def test_blank_lines_above_the_header_read_the_same_and_name_the_real_rows(
        src: Path, lead: str, tmp_path: Path) -> None:
    text, row = planted(src)
    plain, blank = tmp_path / "plain" / src.name, tmp_path / "blank" / src.name
    for p, t in ((plain, text), (blank, LEADS[lead][0] + text)):
        p.parent.mkdir()
        p.write_bytes(t.encode("utf-8"))
    top = LEADS[lead][1]
    assert [d.family for d in detect(blank)][:1] == [d.family for d in detect(plain)][:1]
    a, b = read_canvass(plain), read_canvass(blank)
    assert figures(b) == figures(a)
    bad = [i.row for i in a.issues if "'3x'" in i.message]
    assert bad == [row], "the planted bad count is named by its row"
    assert [(i.message, i.row) for i in b.issues if "blank line" not in i.message] == \
        [(i.message, i.row + top if i.row is not None else None) for i in a.issues]
    assert [(i.message, i.row) for i in b.issues if "blank line" in i.message] == \
        [(f"The file starts with {top} blank line(s); its header is read from row {top + 1}.",
          top + 1)]
