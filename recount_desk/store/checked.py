"""The check of a case against its log, remembered by the SHA-256 of the file's image.

The full check of a case against its audit log (``db.differences``: the chain, the schema,
every table's rows against the state digest of the last entry, the canvass against its
digest) reads the whole file, and its answer depends on nothing but the database's pages
(and on this program's version). So when a case is closed here in a state known to match
its log, the SHA-256 of its image — every page, as SQLite's ``serialize`` gives them, read
in one transaction — is kept in the data folder, with the per-table sums of that state
(store/digest.py) and the hash of the last entry.

The first write after the case is opened again hashes the image once more, inside its own
write transaction (nothing can change the file between that and the write). Only when a
record for exactly that image exists, names the same last entry, and its sums give the very
state digest that entry recorded, is the full check not run again: the file is then, page
for page, one that was checked. An edit made outside the program changes at least one page
(in the file or in its write-ahead log, which SQLite's reading goes through), so its image
is another one and the full check runs. Hashing a 0.8 MB case costs about 0.5 ms; the full
check of a countywide recount some 10 ms.

One small file per image (``<sha256>.json``) in the data folder's ``checked`` folder; the
newest ``KEEP`` are kept. A record that cannot be read, or that does not fit the file, is
ignored (the full check runs).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

FORMAT = 1
KEEP = 64


def image_sha256(conn: sqlite3.Connection) -> str:
    """SHA-256 of the database's pages as the connection sees them (call it inside a
    transaction: the pages are then those of one state)."""
    return hashlib.sha256(conn.serialize()).hexdigest()


def _path(folder: Path, image: str) -> Path:
    return folder / f"{image}.json"


def _program() -> str:
    from recount_desk import __version__

    return __version__


def save(folder: Path, image: str, head: str, schema: int, sums: dict[str, int]) -> None:
    """Keep that the image ``image`` was checked: its last entry's hash and its sums."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "program": _program(), "schema": schema, "head": head,
            "sums": {t: format(v, "x") for t, v in sums.items()}}
    path = _path(folder, image)
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.part")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)  # (no fsync: a record lost or torn makes the full check run)
    _prune(folder)


def _prune(folder: Path) -> None:
    with contextlib.suppress(OSError):
        records = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in records[:-KEEP]:
            old.unlink(missing_ok=True)


def load(folder: Path, image: str, head: str, schema: int) -> dict[str, int] | None:
    """The sums kept for the image ``image`` when it was checked with ``head`` as its last
    entry by this program, or None."""
    try:
        data: Any = json.loads(_path(folder, image).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or \
            data.get("program") != _program() or data.get("schema") != schema or \
            data.get("head") != head or not isinstance(data.get("sums"), dict):
        return None
    try:
        return {str(t): int(v, 16) for t, v in data["sums"].items()}
    except (TypeError, ValueError):
        return None
