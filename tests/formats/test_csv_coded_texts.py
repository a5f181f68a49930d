"""The CSV reader of long files (``tabular.read_csv_coded``) parses text columns as
categories, for speed; pandas turns a chunk's categories into numbers or truth values
where every one of them reads so ('007' and '7' both 7). The texts must stay the file's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from recount_desk.formats import long, read_canvass, tabular
from recount_desk.formats.tabular import cell_text, read_csv_coded

ROWS = [("007", "053", "True", "5"), ("7", "53", "False", "3"), ("12", "1.50", "TRUE", "2"),
        ("7", "53", "False", "4"), ("Apple 1", "x", "Ann", "1"), ("007", "053", "True", "6")]


def _write(path: Path, rows: list[tuple[str, str, str, str]]) -> None:
    path.write_text("precinct,district,candidate,votes\n"
                    + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")


def _as_text(path: Path) -> dict[str, tuple[np.ndarray, list[str]]]:
    """Each column read as plain text by pandas, coded in order of first appearance."""
    df = pd.read_csv(path, dtype=object, keep_default_na=False)
    out = {}
    for c in df.columns:
        codes, uniques = pd.factorize(df[c].map(cell_text).to_numpy(dtype=object))
        out[c] = (codes, list(uniques))
    return out


@pytest.mark.parametrize("categories", [True, False])
@pytest.mark.parametrize("chunksize", [1, 2, 4, 1 << 18])
def test_text_columns_keep_the_files_texts(tmp_path: Path, chunksize: int,
                                           categories: bool) -> None:
    """Chunks of 1, 2 and 4 rows: some hold only numeric texts, some only 'True'/'False',
    the last mixes them with words; parsed as categories and as text alike."""
    path = tmp_path / "c.csv"
    _write(path, ROWS)
    header, n, coded, note = read_csv_coded(
        path, dtype={"precinct": object, "district": object, "candidate": object},
        chunksize=chunksize, categories=categories)
    assert header == ["precinct", "district", "candidate", "votes"] and n == len(ROWS)
    assert note is None
    want = _as_text(path)
    for c in ("precinct", "district", "candidate"):
        assert coded[c][1] == want[c][1], c
        assert np.array_equal(coded[c][0], want[c][0]), c
    assert coded["precinct"][1][:3] == ["007", "7", "12"]  # not 7, 7, 12
    assert coded["candidate"][1][:3] == ["True", "False", "TRUE"]


def test_a_large_file_keeps_precincts_007_and_7_apart(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end, on the path of files too large for the csv-module reader: two precincts
    whose names are '007' and '7' are two precincts, with their own votes."""
    monkeypatch.setattr(long, "_SMALL_CSV", -1)
    monkeypatch.setattr(tabular, "CATEGORIES_FROM", 0)
    path = tmp_path / "big.csv"
    path.write_text("precinct,office,candidate,votes\n"
                    "007,Mayor,Ann,5\n007,Mayor,Bob,3\n7,Mayor,Ann,2\n7,Mayor,Bob,9\n",
                    encoding="utf-8")
    parsed = read_canvass(path)
    assert sorted(parsed.precincts) == ["007", "7"]
    (totals,) = parsed.totals
    assert {c.choice.name: c.votes for c in totals.choices} == {"Ann": 7, "Bob": 12}
