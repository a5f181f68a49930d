"""Automatic backups of a case file (SQLite online backup API) and restoring one."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

KEEP = 5


def backup_dir(root: Path, case: Path) -> Path:
    return root / "backups" / case.stem


def make_backup(conn: sqlite3.Connection, case: Path, root: Path) -> Path:
    """Copy the open case into ``root/backups/<case>/`` and keep the newest ``KEEP`` copies."""
    folder = backup_dir(root, case)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    dest = folder / f"{case.stem}-{stamp}{case.suffix}"
    target = sqlite3.connect(str(dest))
    try:
        conn.backup(target)
    finally:
        target.close()
    for old in list_backups(root, case)[KEEP:]:
        old.unlink(missing_ok=True)
    return dest


def list_backups(root: Path, case: Path) -> list[Path]:
    """Newest first."""
    folder = backup_dir(root, case)
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{case.stem}-*{case.suffix}"), reverse=True)


def restore(backup: Path, case: Path) -> Path:
    """Put ``backup`` in place of ``case``; the current file is kept aside and returned."""
    aside = case.with_name(f"{case.stem}.before-restore-"
                           f"{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}{case.suffix}")
    if case.exists():
        shutil.move(str(case), str(aside))
    for suffix in ("-wal", "-shm"):
        Path(str(case) + suffix).unlink(missing_ok=True)
    shutil.copy2(backup, case)
    return aside
