"""Integer columns stored as blobs: the canvass votes, one row per choice.

A column is little-endian integers of one width: 4 bytes when every value fits (always, for
real vote counts and precinct numbers), else 8. Half the bytes to write and to hash.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence

# array "i" is a C int and "q" a long long: 4 and 8 bytes on every platform Qt runs on.
_TYPECODE = {4: "i", 8: "q"}


def int_blob(values: Sequence[int]) -> tuple[int, bytes]:
    """(width, blob) for a column of integers."""
    if isinstance(values, array) and values.typecode in ("i", "q"):
        a = values
    else:
        try:
            a = array("i", values)
        except OverflowError:
            a = array("q", values)
    if sys.byteorder == "big":
        a = array(a.typecode, a)
        a.byteswap()
    return a.itemsize, a.tobytes()


def int_values(blob: bytes, width: int) -> array[int]:
    """The integers of a blob written by :func:`int_blob`."""
    a: array[int] = array(_TYPECODE[width])
    a.frombytes(blob)
    if sys.byteorder == "big":
        a.byteswap()
    return a


def int64_bytes(values: Sequence[int]) -> bytes:
    """Integers as 64-bit little-endian bytes (what case format 2 hashed)."""
    a = array("q", values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def column_blobs(precincts: Sequence[int], votes: Sequence[int]) -> tuple[int, bytes, bytes]:
    """(width, precinct blob, votes blob) of one column, both blobs of one width."""
    wp, pb = int_blob(precincts)
    wv, vb = int_blob(votes)
    if wp == wv:
        return wp, pb, vb
    # One side needs 8 bytes: widen the other.
    if wp == 4:
        pb = int64_bytes(int_values(pb, 4))
    else:
        vb = int64_bytes(int_values(vb, 4))
    return 8, pb, vb


def same_width_blobs(columns: Sequence[Sequence[int]]) -> tuple[int, list[bytes]]:
    """(width, one blob per column) with every column at the same width: 4 bytes when every
    value of every column fits, else 8."""
    try:
        arrays = [array("i", c) for c in columns]
    except OverflowError:
        arrays = [array("q", c) for c in columns]
    out = []
    for a in arrays:
        if sys.byteorder == "big":
            a.byteswap()
        out.append(a.tobytes())
    return (arrays[0].itemsize if arrays else 4), out
