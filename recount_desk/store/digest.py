"""The state digest of case formats 8-9: per table, the sum of its rows' hashes, kept row by row.

Each row (every column, as stored) is hashed to a 4,096-bit number (SHAKE-256 of the table's
name and the row's canonical JSON); a table's value is the sum of its rows' numbers modulo
2^4096, so it does not depend on the order of the rows and it changes by exactly one term
when one row is added, removed or changed. A sum this wide resists the known ways of
finding two sets of rows with the same sum (the generalized birthday attack on a modulus of
n bits costs about 2^(2·sqrt(n)), here 2^128), as the whole-table SHA-256 of case format 3
did. The audit entry keeps, per table, the SHA-256 of that sum, and the state digest is the
SHA-256 of those per-table digests.

From case format 9 the tables whose size is the canvass's and not the recount's — the
precincts, the import's findings, the recount's units and their precincts: written by the
canvass import and the start of a recount, thousands of rows that no recount action adds
to — are each digested whole instead (``WHOLE_TABLES``): the SHA-256 of the table's name and
of all its rows as one canonical JSON list, in the order of their values (column by column,
as case format 3 did for every table). That is collision-resistant as SHA-256 is, needs no
wide sum, and costs a fraction of a row hash per row (one encoding and one hash for the
table, not one 512-byte SHAKE output per row): the full check of a freshly opened case — the
precincts and units of a countywide race are some 9,000 rows — is what it speeds up. An
action that changes such a table (a unit's note) has it digested whole again at its save.
Its value in the per-table sums is that digest read as a 256-bit number. (A re-tabulation
load's tallies, too, are one row from case format 9 — its figures in integer blobs,
store/recount_repo.py — so loading a countywide statement adds one term, not 21,000.)

So a save need not read the whole case: the connection keeps the sums of the state it last
checked or wrote, temporary triggers (in the connection's own ``temp`` schema, never in the
file) report every row an action inserts, deletes or updates, and the new sums are the old
ones plus those rows. A full computation from the rows gives the same sums; it is what
``verify`` and the check after another program wrote the file do.
"""

from __future__ import annotations

import binascii
import hashlib
import json
import json.encoder
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from recount_desk.core.audit import canonical_json

ROW_BYTES = 512
MODULUS = 1 << (8 * ROW_BYTES)
FUNCTION = "rd_row_changed"
_TAG = b"recount-desk-rows/1"


def _blob(value: Any) -> Any:
    """How a row's blob is written in its canonical JSON: ``{"blob": hex}``."""
    if isinstance(value, bytes | memoryview):
        return {"blob": bytes(value).hex()}
    raise TypeError(f"a value of type {type(value).__name__} cannot be in a case row")


def _row_encoder() -> Callable[[Any], str]:
    """The row's canonical JSON (``core.audit.canonical_json`` of the row, blobs as
    ``{"blob": hex}``), written by one encoder kept for every row: the standard library's C
    encoder when it has one (a few times faster than going through ``JSONEncoder.encode``
    for each of the case's rows), else the encoder itself. Either gives the same text."""
    c_make = getattr(json.encoder, "c_make_encoder", None)
    c_string = getattr(json.encoder, "c_encode_basestring", None)
    if c_make is not None and c_string is not None:
        # (markers, default, string encoder, indent, separators, sort_keys, skipkeys,
        # allow_nan): the options of core.audit's encoder
        encode = c_make(None, _blob, c_string, None, ":", ",", True, False, True)
        return lambda row: "".join(encode(row, 0))
    return json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            default=_blob).encode


_encode_row = _row_encoder()
_PREFIXES: dict[str, bytes] = {}


# A row holding a blob this long is hashed as its canonical JSON is written, part by part
# (``_shake_of_blob_row``), not written out whole first: a re-tabulation load's tallies are
# one row of some 200 kB of JSON, mostly its blobs' hex, which the JSON encoder would scan
# for characters to escape (hex has none) and which would be copied twice more.
_LONG_BLOB = 1024


def _long_blob(row: Sequence[Any]) -> bool:
    return any(isinstance(v, bytes | memoryview) and len(v) >= _LONG_BLOB for v in row)


def _shake_of_blob_row(prefix: bytes, row: Sequence[Any]) -> Any:
    """SHAKE-256 of ``prefix`` and the row's canonical JSON, fed part by part: the same
    bytes as ``_encode_row(row)`` (a blob as ``{"blob":"hex"}``, hex needing no escape;
    every other value as the encoder writes it alone)."""
    h = hashlib.shake_256(prefix)
    update = h.update
    update(b"[")
    for i, v in enumerate(row):
        if i:
            update(b",")
        if isinstance(v, bytes | memoryview):
            update(b'{"blob":"')
            update(binascii.hexlify(v))  # (the hex as bytes, not copied from a str)
            update(b'"}')
        else:
            update(_encode_row(v).encode("utf-8"))
    update(b"]")
    return h


def _row_number(prefix: bytes, row: Sequence[Any], blobs: bool = True) -> int:
    """SHAKE-256 of ``prefix`` and the row's canonical JSON, as a number. ``blobs``: whether
    the row may hold a long blob (both ways give the same bytes; only the time differs)."""
    h = _shake_of_blob_row(prefix, row) if blobs and _long_blob(row) else \
        hashlib.shake_256(prefix + _encode_row(row).encode("utf-8"))
    return int.from_bytes(h.digest(ROW_BYTES), "little")


def row_hash(table: str, row: Sequence[Any]) -> int:
    """One row's number: SHAKE-256 of the table's name and the row as canonical JSON."""
    return _row_number(table.encode() + b"\x1f", row)


def row_hash_reference(table: str, row: Sequence[Any]) -> int:
    """``row_hash`` as case format 8 defines it, written plainly (what the tests hold the
    fast encoder to)."""
    values = [{"blob": bytes(v).hex()} if isinstance(v, bytes | memoryview) else v
              for v in row]
    data = table.encode() + b"\x1f" + canonical_json(values).encode("utf-8")
    return int.from_bytes(hashlib.shake_256(data).digest(ROW_BYTES), "little")


def table_sum(table: str, rows: Iterable[Sequence[Any]]) -> int:
    """The sum of the rows' numbers, modulo 2^4096."""
    prefix = table.encode() + b"\x1f"
    total = 0
    # (rows are looked at for a long blob only in a table whose first row holds a blob)
    blobs: bool | None = None
    for r in rows:
        if blobs is None:
            blobs = any(isinstance(v, bytes | memoryview) for v in r)
        total += _row_number(prefix, r, blobs)
    return total % MODULUS


def part(table: str, total: int) -> str:
    """The table's digest as the audit entry records it."""
    h = hashlib.sha256(_TAG + b"\x1e" + table.encode() + b"\x1d")
    h.update(total.to_bytes(ROW_BYTES, "little"))
    return h.hexdigest()


def combine(parts: Mapping[str, str]) -> str:
    """The state digest: SHA-256 over the tables' digests, in the order of their names."""
    h = hashlib.sha256(_TAG)
    for t in sorted(parts):
        h.update(f"\x1e{t}\x1d{parts[t]}".encode())
    return h.hexdigest()


# Digested whole from case format 9 on (see the module's docstring).
WHOLE_TABLES = frozenset({"precinct", "import_issue", "recount_unit", "unit_precinct"})
WHOLE_FORMAT = 9
_WHOLE_TAG = b"recount-desk-whole-table/1"


def whole_tables(case_format: int) -> frozenset[str]:
    """The tables a case of this format digests whole."""
    return WHOLE_TABLES if case_format >= WHOLE_FORMAT else frozenset()


def whole_value(table: str, rows: Sequence[Sequence[Any]]) -> int:
    """A table digested whole: SHA-256 of its name and of its rows (in the order of their
    values) as one canonical JSON list, read as a number (its place among the sums)."""
    data = _WHOLE_TAG + b"\x1e" + table.encode() + b"\x1f" + \
        _encode_row(list(rows)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(data).digest(), "little")


def whole_value_chunks(table: str, chunks: Iterable[Sequence[Sequence[Any]]]) -> int:
    """``whole_value`` of the rows given a chunk at a time (in the same order): the same
    text hashed, without every row of the table held at once (thousands of row tuples
    alive together cost the garbage collector more than encoding them)."""
    h = hashlib.sha256(_WHOLE_TAG + b"\x1e" + table.encode() + b"\x1f[")
    first = True
    for chunk in chunks:
        if not chunk:
            continue
        text = _encode_row(list(chunk))  # "[row,row,…]": its rows, with the brackets
        h.update((text[1:-1] if first else "," + text[1:-1]).encode("utf-8"))
        first = False
    h.update(b"]")
    return int.from_bytes(h.digest(), "little")


class RowChanges:
    """Collects, during one transaction, what each table's sum gains and loses, and which
    of the tables digested whole were changed (``touched``).

    Registered on a SQLite connection as the function the temporary triggers call with
    (table, +1 or -1, the row's values)."""

    def __init__(self) -> None:
        self.delta: dict[str, int] = {}
        self.touched: set[str] = set()
        self.whole: frozenset[str] = frozenset()

    def __call__(self, table: str, sign: int, *row: Any) -> None:
        if table in self.whole:  # digested whole again at the save
            self.touched.add(table)
            return
        # (reduced modulo 2^4096 by whoever reads the delta: one addition per row here)
        prefix = _PREFIXES.get(table)
        if prefix is None:
            prefix = _PREFIXES[table] = table.encode() + b"\x1f"
        h = int.from_bytes(hashlib.shake_256(prefix + _encode_row(row).encode("utf-8"))
                           .digest(ROW_BYTES), "little")
        self.delta[table] = self.delta.get(table, 0) + (h if sign > 0 else -h)

    def clear(self) -> None:
        self.delta = {}
        self.touched = set()


def install_triggers(conn: sqlite3.Connection, tables: Sequence[str],
                     columns: Mapping[str, Sequence[str]] | None = None,
                     only: Iterable[str] | None = None, *, add: bool = False) -> None:
    """Temporary triggers reporting every row change of ``tables`` (or of those of them in
    ``only``) to ``FUNCTION``; ``add``: beside those made before, else instead of them.

    They live in the connection's ``temp`` schema (not in the case file, whose schema is
    checked object by object), and are made again after a migration changes a table. Foreign
    key actions and REPLACE fire them too (``recursive_triggers`` is on)."""
    conn.execute("PRAGMA recursive_triggers=ON")
    # In one transaction of their own: each schema change alone costs a commit of the temp
    # schema (a hundred of them made the first save after opening a case 10-20 ms slower).
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        _make_triggers(conn, tables, columns, None if only is None else set(only), add)
    except BaseException:
        if own:
            conn.execute("ROLLBACK")
        raise
    if own:
        conn.execute("COMMIT")


def _make_triggers(conn: sqlite3.Connection, tables: Sequence[str],
                   columns: Mapping[str, Sequence[str]] | None, only: set[str] | None,
                   add: bool) -> None:
    if not add:
        for (name,) in conn.execute("SELECT name FROM temp.sqlite_master WHERE "
                                    "type='trigger' AND name LIKE 'rd_row_%'").fetchall():
            conn.execute(f'DROP TRIGGER temp."{name}"')
    if columns is None:
        columns = table_columns(conn)
    for i, t in enumerate(tables):  # (named by the table's place among ``tables``)
        if only is not None and t not in only:
            continue
        cols = columns.get(t, [])
        new = ", ".join(f'NEW."{c}"' for c in cols)
        old = ", ".join(f'OLD."{c}"' for c in cols)
        lit = t.replace("'", "''")
        conn.execute(f'CREATE TEMP TRIGGER "rd_row_i{i}" AFTER INSERT ON main."{t}" BEGIN '
                     f"SELECT {FUNCTION}('{lit}', 1, {new}); END")
        conn.execute(f'CREATE TEMP TRIGGER "rd_row_d{i}" AFTER DELETE ON main."{t}" BEGIN '
                     f"SELECT {FUNCTION}('{lit}', -1, {old}); END")
        conn.execute(f'CREATE TEMP TRIGGER "rd_row_u{i}" AFTER UPDATE ON main."{t}" BEGIN '
                     f"SELECT {FUNCTION}('{lit}', -1, {old}); "
                     f"SELECT {FUNCTION}('{lit}', 1, {new}); END")


def table_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Every table of the file's schema → its columns in order, in one statement."""
    out: dict[str, list[str]] = {}
    for t, c in conn.execute("SELECT m.name, p.name FROM main.sqlite_master m, "
                             "pragma_table_info(m.name, 'main') p WHERE m.type='table' "
                             "ORDER BY m.name, p.cid"):
        out.setdefault(t, []).append(c)
    return out
