"""Automatic backups of a case file (SQLite online backup API) and restoring one.

Backups are filed under the case's identity (the id written into it at creation), never
under its file name: two cases both called ``election.recount`` in two folders keep their
own backups, and a backup of another case is refused by :func:`restore`. Every copy is
written beside its destination and renamed into place, so a kill leaves a whole file or
none. Restoring first keeps the current file aside *with everything in its write-ahead
log*, then copies the backup into the case through SQLite in one transaction (the case's
file, and the lock on it, stay the same).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from recount_desk.core.audit import AuditEntry

from . import anchor
from .anchor import case_id

KEEP = 5
STAMP = "%Y%m%dT%H%M%S%fZ"


class BackupRefused(Exception):
    """A backup that may not be put in place of this case; the message says why."""


def backup_dir(root: Path, cid: str) -> Path:
    return root / "backups" / anchor._safe(cid)


def _copy(conn: sqlite3.Connection, dest: Path) -> None:
    """A whole, durable copy of the open database at ``dest`` (via ``dest.part``)."""
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    target = sqlite3.connect(str(part))
    try:
        conn.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
    with open(part, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(part, dest)


def make_backup(conn: sqlite3.Connection, case: Path, root: Path) -> Path:
    """Copy the open case into ``root/backups/<case id>/`` and keep the newest ``KEEP``."""
    cid = case_id(conn)
    if cid is None:
        raise sqlite3.DatabaseError("the case has no identity (no audit log)")
    folder = backup_dir(root, cid)
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{case.stem}-{datetime.now(UTC).strftime(STAMP)}{case.suffix}"
    _copy(conn, dest)
    for old in _in_folder(folder)[KEEP:]:
        old.unlink(missing_ok=True)
    return dest


def _in_folder(folder: Path) -> list[Path]:
    """The backups in one folder, newest first (by the time in their names)."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if p.is_file() and not p.name.endswith(
        (".part", "-wal", "-shm", "-journal")) and "-" in p.stem]
    return sorted(found, key=lambda p: p.stem.rsplit("-", 1)[1], reverse=True)


def file_case_id(path: Path) -> str | None:
    """The identity of the case in ``path``, read without changing it; None if unreadable."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        return case_id(conn)
    finally:
        conn.close()


def last_entry_of(path: Path) -> AuditEntry | None:
    """The newest audit entry of the case in ``path`` (read-only), or None."""
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash FROM "
                           "audit ORDER BY seq DESC LIMIT 1").fetchone()
        return AuditEntry(*row) if row else None
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def case_ids(root: Path, case: Path) -> list[str]:
    """The case's identity from the file itself, else whatever this workstation last saw at
    its path (a case too damaged to say)."""
    cid = file_case_id(case)
    return [cid] if cid else anchor.ids_for_path(root, case)


def list_backups(root: Path, case: Path) -> list[Path]:
    """The case's backups, newest first (also those an older version filed by name)."""
    ids = case_ids(root, case)
    found = [b for cid in ids for b in _in_folder(backup_dir(root, cid))]
    legacy = root / "backups" / case.stem
    if ids and legacy.is_dir() and all(legacy != backup_dir(root, c) for c in ids):
        found += [b for b in _in_folder(legacy) if file_case_id(b) in ids]
    return sorted(found, key=lambda p: p.stem.rsplit("-", 1)[1], reverse=True)


def backup_time(backup: Path) -> str | None:
    """When a backup was made (ISO, UTC) from its name, or None."""
    try:
        at = datetime.strptime(backup.stem.rsplit("-", 1)[1], STAMP).replace(tzinfo=UTC)
    except (IndexError, ValueError):
        return None
    return at.isoformat(timespec="microseconds")


def restore(backup: Path, case: Path, root: Path) -> Path:
    """Put ``backup`` in place of ``case``; the current file is kept aside and returned.

    The caller holds the case's lock. Nothing is moved before the current case is kept
    whole, write-ahead log included; a backup of another case is refused."""
    theirs, mine = file_case_id(backup), case_ids(root, case)
    if theirs is None:
        raise BackupRefused(f"{backup.name} is not a readable case file.")
    if mine and theirs not in mine:
        raise BackupRefused(f"{backup.name} is a backup of another case (its identity "
                            f"{theirs[:12]}… is not {case.name}'s, {mine[0][:12]}…); nothing "
                            "was changed.")
    aside = case.with_name(f"{case.stem}.before-restore-"
                           f"{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%f')}{case.suffix}")
    src = sqlite3.connect(backup.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    try:
        if _restore_through_sqlite(src, case, aside):
            return aside
        # The case is not a database any more: keep it (and its -wal) aside as it is.
        if case.exists():
            shutil.copy2(case, aside)
            for suffix in ("-wal", "-shm"):
                if Path(str(case) + suffix).exists():
                    shutil.copy2(str(case) + suffix, str(aside) + suffix)
        tmp = case.with_name(case.name + ".restoring")
        _copy(src, tmp)
        for suffix in ("-wal", "-shm"):
            Path(str(case) + suffix).unlink(missing_ok=True)
        os.replace(tmp, case)
    finally:
        src.close()
    return aside


def _restore_through_sqlite(src: sqlite3.Connection, case: Path, aside: Path) -> bool:
    """Keep the case aside and copy the backup into it, both through SQLite; False if the
    case cannot be opened as a database (nothing has been changed then)."""
    if not case.exists():
        return False
    try:
        dest = sqlite3.connect(str(case), timeout=10)
        dest.execute("PRAGMA schema_version").fetchone()  # fails on a damaged file
    except sqlite3.DatabaseError:
        return False
    try:
        try:
            _copy(dest, aside)  # everything the case holds, its -wal included
        except sqlite3.DatabaseError:
            return False
        src.backup(dest)  # one transaction in the case: all of the backup, or none
        dest.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return True
    finally:
        dest.close()
