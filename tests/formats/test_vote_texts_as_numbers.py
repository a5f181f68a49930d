"""The long tables' votes are read as pandas.to_numeric(errors="coerce") reads them, though
most texts never reach pandas (longtable._numbers: digits converted in Python, and texts
that are plainly no number — '*', '-', '1,052' — passed over): over generated texts of
digits, commas, signs, points, letters and other scripts' digits, and a file's worth of
counts with a suppressed or thousands-grouped one among them (Weber 2018's '*', Millard
2022's '1,052', Davis 2018's '1,057')."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.formats.longtable import _numbers

TEXT = st.text(alphabet=list("0123456789,.-+ *eEinfaNx_\u00a0\u0665\uff15"), max_size=12)


def _pandas(texts: list[str]) -> np.ndarray:
    return np.array(pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce"),
                    dtype=np.float64)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6))
def test_every_text_is_read_as_pandas_reads_it(texts: list[str]) -> None:
    got, words = _numbers(texts)
    assert np.array_equal(got, _pandas(texts), equal_nan=True), texts
    assert words == [k for k, t in enumerate(texts) if not t.isascii() or not t.isdigit()
                     or len(t) > 15]


def test_a_column_of_counts_with_a_star_and_a_grouped_thousand() -> None:
    texts = [str(v) for v in range(300)] + ["*", "1,052", "", "-", "12,345,678", "1e3",
                                            "1,05", "inf"]
    got, words = _numbers(texts)
    assert np.array_equal(got, _pandas(texts), equal_nan=True)
    assert got[:300].tolist() == list(range(300))
    assert np.isnan(got[300:305]).all() and got[305] == 1000 and np.isnan(got[306])
    assert words == list(range(300, 308))
