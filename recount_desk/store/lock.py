"""One writer per case file: an OS lock on the case file itself, held while the case is open.

The lock belongs to the file, not to the name it was opened by: a second Recount Desk that
reaches the same file through a hard link, a symbolic link or another path to the folder
finds it taken and opens the case read-only. (A lock file named after the path let both
write.) On POSIX the lock is ``flock`` on the case file, which SQLite's own ``fcntl`` locks
do not touch; on Windows it is a one-byte lock far past the end of the file, away from the
bytes SQLite locks. Who holds it is written beside the case in ``<case>.lock`` (for the
message only). Within one process the lock is shared by reference count, keyed by the
file's device and inode, so worker threads can open their own connections.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

# Far past any case file's end and SQLite's lock bytes (which start at 1 GiB).
_WINDOWS_LOCK_OFFSET = 1 << 40

_held: dict[tuple[int, int], tuple[IO[bytes], int, Path]] = {}
_guard = threading.Lock()


@dataclass(frozen=True)
class LockHolder:
    user: str
    host: str
    pid: int
    since: str

    def describe(self) -> str:
        if self.host == "?":
            return f"{self.user} (through another path to the same file)"
        return f"{self.user} on {self.host} (since {self.since[:16].replace('T', ' ')} UTC)"


def lock_path(case: Path) -> Path:
    return case.with_name(case.name + ".lock")


def identity(case: Path) -> tuple[int, int] | None:
    """The file's device and inode (the same for every path to it), or None if absent."""
    try:
        st = os.stat(case)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _try_os_lock(f: IO[bytes]) -> bool:
    try:
        if sys.platform == "win32":
            import msvcrt

            f.seek(_WINDOWS_LOCK_OFFSET)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _holder(case: Path) -> LockHolder:
    try:
        info = json.loads(lock_path(case).read_text(encoding="utf-8") or "{}")
        return LockHolder(str(info.get("user", "someone")), str(info.get("host", "?")),
                          int(info.get("pid", 0)), str(info.get("since", "")))
    except (OSError, ValueError, TypeError):
        return LockHolder("someone", "?", 0, "")


def acquire(case: Path, user: str) -> LockHolder | None:
    """Take the case's lock; None on success (or where nothing can be locked: read-only
    media, which the open then reports), else who holds it."""
    key = identity(case)
    if key is None:
        return None  # no file: the open says it does not exist
    with _guard:
        if key in _held:
            f, n, first = _held[key]
            _held[key] = (f, n + 1, first)
            return None
        try:
            f = open(case, "rb")  # noqa: SIM115 - held open while locked
        except OSError:
            return None
        if not _try_os_lock(f):
            f.close()
            return _holder(case)
        # The lock holds without its note (in a folder we may not write to).
        with contextlib.suppress(OSError):
            lock_path(case).write_text(json.dumps(
                {"user": user, "host": socket.gethostname(), "pid": os.getpid(),
                 "since": datetime.now(UTC).isoformat(timespec="seconds")}), encoding="utf-8")
        _held[key] = (f, 1, case)
        return None


def release(case: Path) -> None:
    key = identity(case)
    with _guard:
        if key is None or key not in _held:
            # The file was replaced under its name (a restore): release by the path used.
            key = next((k for k, (_, _, p) in _held.items() if p == case), None)
            if key is None:
                return
        f, n, first = _held[key]
        if n > 1:
            _held[key] = (f, n - 1, first)
            return
        del _held[key]
        try:
            f.close()
            lock_path(first).unlink(missing_ok=True)
        except OSError:
            pass
