"""The fast CSV split (tabular.split_csv_text) gives exactly the rows the csv module gives,
stripped where asked, or declines (None) — over generated texts with quotes, commas, line
ends and every kind of white space at a cell's edge, and on the real files of tests/data."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.formats.tabular import split_csv_text

DATA = Path(__file__).resolve().parents[1] / "data"

# Cells of letters, digits, quotes, commas and white space of every kind str.strip() strips
# (a space, a tab, a vertical tab, a form feed, a file separator, a no-break space, U+2028,
# an ideographic space), and a zero-width space, which it does not.
CELL = st.text(alphabet=list('ab1 ,"\t\x0b\x0c\x1c\xa0\u2028\u3000\u200b'), max_size=6)
LINE = st.lists(CELL, min_size=1, max_size=5).map(",".join)
TEXT = st.tuples(st.lists(LINE, min_size=1, max_size=8), st.sampled_from(["\n", "\r\n"]),
                 st.booleans()).map(lambda t: t[1].join(t[0]) + (t[1] if t[2] else ""))


def _plain(text: str) -> bool:
    """No quote, blank line or lone carriage return: the split must not decline it."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return '"' not in text and "" not in lines and "\r" not in "\n".join(lines)


def _csv_module(text: str, strip: bool) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return [[c.strip() for c in r] for r in rows] if strip else rows


@settings(max_examples=400, deadline=None)
@given(TEXT, st.booleans())
def test_split_gives_the_csv_modules_rows_or_declines(text: str, strip: bool) -> None:
    got = split_csv_text(text, strip=strip)
    try:
        want = _csv_module(text, strip)
    except csv.Error:
        assert got is None
        return
    assert got is not None or not _plain(text)
    if got is not None:
        assert got == want
    if not strip:  # the same rows where the same lines share one list
        assert split_csv_text(text, shared=True) == got


def test_the_same_lines_share_one_list() -> None:
    rows = split_csv_text('a,b\n"c,d",e\na,b\n"c,d",e\nf\n', shared=True)
    assert rows == [["a", "b"], ["c,d", "e"], ["a", "b"], ["c,d", "e"], ["f"]]
    assert rows is not None and rows[0] is rows[2] and rows[1] is rows[3]


def test_split_declines_what_it_cannot_be_sure_of() -> None:
    assert split_csv_text('a,"b\nc",d\n') is None  # a quoted field over a line end
    assert split_csv_text("a,b\n\nc,d\n") is None  # a blank line
    assert split_csv_text("a,b\rc,d\n") is None  # a lone carriage return


def test_split_strips_the_cells_with_white_space_at_an_edge() -> None:
    text = "a , b,c\nd,e,f\n\u3000g,h\xa0,\"i \"\n"
    assert split_csv_text(text, strip=True) == [["a", "b", "c"], ["d", "e", "f"],
                                                ["g", "h", "i"]]
    assert split_csv_text(text) == [["a ", " b", "c"], ["d", "e", "f"],
                                    ["\u3000g", "h\xa0", "i "]]


@pytest.mark.parametrize("path", sorted(p for p in DATA.rglob("*") if p.suffix.lower() in
                                        (".csv", ".txt") and p.stat().st_size < 5_000_000),
                         ids=lambda p: p.name)
def test_split_reads_the_real_files_as_the_csv_module(path: Path) -> None:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:  # as the readers take it: Windows-1252
        text = data.decode("cp1252", errors="replace")
    for strip in (False, True):
        got = split_csv_text(text, strip=strip)
        assert got is not None or not _plain(text)
        if got is not None:
            assert got == _csv_module(text, strip)


def test_a_csv_cut_short_inside_a_quoted_cell_says_so(tmp_path):
    from recount_desk.formats import ImportFailed, read_canvass

    f = tmp_path / "t.csv"
    f.write_text("precinct,office,candidate,votes\n" + "P1,Mayor,Ann,10\n" * 20000
                 + '"P2,Mayor,Bo')
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    assert "ends inside a quoted cell" in e.value.issue.message and e.value.issue.row == 20002
