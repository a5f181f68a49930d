"""The small-CSV reader of the long family (the csv module, no pandas) gives exactly the
columns the pandas reader gives, or declines where it could not be sure to."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recount_desk.formats import long

HEADER = "county,precinct,office,district,party,candidate,votes,mail\n"

SAME = {
    "plain": HEADER + "A,p1,Gov,,REP,Bob,5,1\nA,p1,Gov,,DEM,Ann,7,2\nA,p2,Gov,,REP,Bob,3,0\n",
    "quoted and spaced": HEADER + 'A,"p\n1",Gov ,,REP,"Bob ""B""",+5,1\nA,p2 ,Gov,,REP,Bob,007,x\n'
                         'A,p2,Gov,,REP,"ab"c,-0,\n',
    "suppressed and blank": HEADER + "A,p1,Gov,,REP,Bob,*,1\nA,p1,Gov,,DEM,Ann,,2\n",
    "fractions": HEADER + "A,p1,Gov,,REP,Bob,1.5,1\nA,p1,Gov,,DEM,Ann,2,2\n",
    "true and false": HEADER + "A,p1,Gov,,REP,Bob,True,1\nA,p1,Gov,,DEM,Ann,False,2\n",
    "thousands": HEADER + 'A,p1,Gov,,REP,Bob,"1,234",1\nA,p1,Gov,,DEM,Ann,1e3,2\n',
    "byte order mark, CRLF": "\ufeff" + HEADER.replace("\n", "\r\n")
                             + "A,p1,Gov,,REP,Bob,5,1\r\nA,p1,Gov,,DEM,Ann,7,2\r\n",
    "no votes column": "precinct,office,candidate,count2\np,o,c,5\n",
    "a count with a line end": HEADER + 'A,p1,Gov,,REP,Bob,"1\n2",1\nA,p1,Gov,,DEM,Ann,7,2\n',
}

DECLINED = {
    "a blank line": HEADER + "A,p1,Gov,,REP,Bob,5,1\n\nA,p1,Gov,,DEM,Ann,7,2\n",
    "a short row": HEADER + "A,p1,Gov,,REP,Bob,5\n",
    "a long row": HEADER + "A,p1,Gov,,REP,Bob,5,1,9\n",
    "a repeated column": "precinct,office,candidate,votes,votes\np,o,c,5,6\n",
    "a blank column name": "precinct,office,candidate,votes,\np,o,c,5,6\n",
    "spaces round a count": HEADER + "A,p1,Gov,,REP,Bob, 07,1\n",
    "a count beyond 64 bits": HEADER + "A,p1,Gov,,REP,Bob,99999999999999999999,1\n",
    "header only": HEADER,
}


def _pandas(path: Path) -> tuple[object, ...]:
    saved = long._SMALL_CSV
    long._SMALL_CSV = -1
    try:
        return long._read_csv(path)
    finally:
        long._SMALL_CSV = saved


@pytest.mark.parametrize("name", list(SAME))
def test_small_reader_reads_as_pandas(tmp_path: Path, name: str) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(SAME[name].encode("utf-8"))
    small = long._read_csv_small(path)
    assert small is not None
    ref = _pandas(path)
    assert small[0] == ref[0] and small[1] == ref[1] and small[3] == ref[3]
    assert small[2].keys() == ref[2].keys()
    for col, (codes, texts) in ref[2].items():
        assert small[2][col][1] == texts, col
        assert np.array_equal(small[2][col][0], codes), col


@pytest.mark.parametrize("name", list(DECLINED))
def test_small_reader_declines_what_pandas_reads_its_own_way(tmp_path: Path,
                                                             name: str) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(DECLINED[name].encode("utf-8"))
    assert long._read_csv_small(path) is None


def test_small_reader_declines_another_encoding(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes((HEADER + "A,p1,Gov,,REP,Jos\xe9,5,1\n").encode("cp1252"))
    assert long._read_csv_small(path) is None
    assert _pandas(path)[3] is not None  # pandas reads it as Windows-1252, with a note


@pytest.mark.parametrize("name", list(SAME))
def test_small_reader_hashing_long_columns_reads_as_pandas(tmp_path: Path, name: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Columns longer than long._HASHED rows are coded by pandas' hashing instead of a dict:
    the same codes and texts."""
    monkeypatch.setattr(long, "_HASHED", 0)
    path = tmp_path / "t.csv"
    path.write_bytes(SAME[name].encode("utf-8"))
    small = long._read_csv_small(path)
    assert small is not None
    ref = _pandas(path)
    assert small[2].keys() == ref[2].keys()
    for col, (codes, texts) in ref[2].items():
        assert small[2][col][1] == texts, col
        assert np.array_equal(small[2][col][0], codes), col


def test_a_count_with_a_line_end_is_a_bad_count_named_by_its_row(tmp_path: Path) -> None:
    from recount_desk.formats import read_canvass

    p = tmp_path / "c.csv"
    p.write_text(SAME["a count with a line end"], encoding="utf-8")
    bad = [(i.row, i.column) for i in read_canvass(p).issues if "'1\\n2'" in i.message]
    assert bad == [(2, "votes")]
