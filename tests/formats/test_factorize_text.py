"""factorize_text: codes by object identity first, then by value; same answer as factorizing
the values themselves."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.formats import tabular
from recount_desk.formats.tabular import factorize_text


def _rebuilt(values: list[object]) -> np.ndarray:
    """The values as an object array of fresh objects (no sharing between equal texts)."""
    arr = np.empty(len(values), dtype=object)
    arr[:] = ["".join(v) if isinstance(v, str) else v for v in values]
    return arr


@settings(deadline=None)  # the first call imports pandas
@given(st.lists(st.one_of(st.sampled_from(["A", "B", "A ", "", "0012", "12"]), st.none()),
                max_size=60),
       st.booleans(), st.booleans())
def test_same_codes_and_order_as_factorizing_the_values(values: list[object],
                                                         shared: bool, by_identity: bool
                                                         ) -> None:
    if shared:  # as pandas' CSV reader hands them out: one object per distinct text
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    else:
        arr = _rebuilt(values)
    small = tabular._SMALL
    # by_identity: the path of long columns (object identity first), taken here on short ones
    tabular._SMALL = 0 if by_identity else small
    try:
        codes, uniques = factorize_text(arr)
    finally:
        tabular._SMALL = small
    assert [uniques[c] for c in codes.tolist()] == values
    # One code per distinct value, numbered in order of first appearance.
    assert uniques == list(dict.fromkeys(values))

def test_two_objects_with_one_text_share_a_code() -> None:
    a, b = "".join(["PRE", "CINCT 1"]), "".join(["PREC", "INCT 1"])
    assert a == b
    assert a is not b
    arr = np.array([a, "X", b, a] * 5, dtype=object)
    for limit in (0, tabular._SMALL):  # the identity path of long columns, and the plain one
        small, tabular._SMALL = tabular._SMALL, limit
        try:
            codes, uniques = factorize_text(arr)
        finally:
            tabular._SMALL = small
        assert uniques == ["PRECINCT 1", "X"]
        assert codes.tolist() == [0, 1, 0, 0] * 5
