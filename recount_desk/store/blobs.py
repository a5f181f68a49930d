"""Integer columns stored as blobs: the canvass votes, one row per choice."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence


def int64_blob(values: Sequence[int]) -> bytes:
    """Integers as a blob of 64-bit little-endian values (the case file's column format)."""
    a = values if isinstance(values, array) and values.typecode == "q" else array("q", values)
    if sys.byteorder == "big":
        a = array("q", a)
        a.byteswap()
    return a.tobytes()


def int64_values(blob: bytes) -> array[int]:
    """The integers of a blob written by :func:`int64_blob`."""
    a: array[int] = array("q")
    a.frombytes(blob)
    if sys.byteorder == "big":
        a.byteswap()
    return a
