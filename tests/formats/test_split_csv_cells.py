"""The one-list CSV split (tabular.split_csv_cells) gives exactly the cells of the rows
split_csv_text gives, where they are all of one width, or declines (None); and the long
family's small-CSV reader gives the same columns by it as by the rows it replaces — over
generated texts with quotes, commas, blank and short lines, and on the real files of
tests/data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.formats import long, tabular
from recount_desk.formats.tabular import split_csv_cells, split_csv_text

DATA = Path(__file__).resolve().parents[1] / "data"

CELL = st.text(alphabet=list('ab1 ,"\t\r\n\x00'), max_size=4)
LINE = st.lists(CELL, min_size=0, max_size=4).map(",".join)
TEXT = st.tuples(st.lists(LINE, min_size=0, max_size=8), st.sampled_from(["\n", "\r\n"]),
                 st.booleans()).map(lambda t: t[1].join(t[0]) + (t[1] if t[2] else ""))


def _want(text: str) -> tuple[list[str], int] | None:
    rows = split_csv_text(text)
    if rows is None or not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        return None
    return [c for r in rows for c in r], len(rows[0])


def _unmarked(got: tuple[list[str], int] | None) -> tuple[list[str], int] | None:
    if got is None:
        return None
    flat, width = got
    assert all(c.endswith("\x00") == (k % width == width - 1) for k, c in enumerate(flat))
    return [c[:-1] if k % width == width - 1 else c for k, c in enumerate(flat)], width


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_cells_are_the_rows_cells_or_declined(text: str) -> None:
    assert _unmarked(split_csv_cells(text)) == _want(text)


def test_cells_decline_rows_of_other_widths_and_blank_lines() -> None:
    assert split_csv_cells("a,b\nc\n") is None
    assert split_csv_cells("a,b\n\nc,d\n") is None
    assert split_csv_cells("a,b\nc,d,e\n") is None
    assert split_csv_cells('a,b\n"c,d"\n') is None  # (one cell, quoted)
    assert split_csv_cells("a\nb\n") is None  # (one column: a blank line looks like a row)
    assert split_csv_cells('a,b\n"c,d",e\nf,g') == (["a", "b\x00", "c,d", "e\x00", "f",
                                                    "g\x00"], 2)


def _text(path: Path) -> str | None:
    """A test file's text as the readers decode it (UTF-8, else Windows-1252); None for
    one that is no text (the hostile inputs: a database renamed .csv)."""
    data = path.read_bytes()
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return None


@pytest.mark.parametrize("path", sorted(p for p in DATA.rglob("*.csv") if _text(p) is not None),
                         ids=lambda p: p.name)
def test_cells_of_the_real_files(path: Path) -> None:
    text = _text(path)
    assert text is not None
    assert _unmarked(split_csv_cells(text)) == _want(text)


VALUE = st.sampled_from(["A", "A ", " b", "Gov", "", "5", "007", "+3", "-0", "1.5", "*",
                         "x,y", 'q"q', "9" * 20, "12"])
HEADER = ["county", "precinct", "office", "district", "party", "candidate", "votes", "mail"]
TABLE = st.tuples(st.permutations(HEADER),
                  st.lists(st.lists(VALUE, min_size=8, max_size=8), min_size=1, max_size=12))


def _csv(header: list[str], rows: list[list[str]]) -> str:
    def cell(c: str) -> str:
        return '"' + c.replace('"', '""') + '"' if ("," in c or '"' in c) else c
    return "".join(",".join(cell(c) for c in r) + "\n" for r in [header, *rows])


@settings(max_examples=150, deadline=None)
@given(TABLE, st.booleans())
def test_small_reader_reads_the_same_by_the_one_list(tmp_path_factory: pytest.TempPathFactory,
                                                     table: tuple[list[str], list[list[str]]],
                                                     hashed: bool) -> None:
    path = tmp_path_factory.mktemp("c") / "t.csv"
    path.write_text(_csv(list(table[0]), table[1]), encoding="utf-8")
    saved = long._HASHED, long.split_csv_cells
    long._HASHED = 0 if hashed else saved[0]
    try:
        fast = long._read_csv_small(path)
        long.split_csv_cells = lambda text: None  # the rows' way
        slow = long._read_csv_small(path)
    finally:
        long._HASHED, long.split_csv_cells = saved
    assert tabular.split_csv_cells is saved[1]
    if slow is None:
        assert fast is None
        return
    assert fast is not None
    assert fast[0] == slow[0] and fast[1] == slow[1] and fast[3] == slow[3]
    assert fast[2].keys() == slow[2].keys()
    for col, (codes, texts) in slow[2].items():
        assert fast[2][col][1] == texts, col
        assert fast[2][col][0].dtype == codes.dtype
        assert np.array_equal(fast[2][col][0], codes), col
