"""One writer per case file: an OS lock on ``<case>.lock`` held while the case is open.

A second Recount Desk (on this or another workstation sharing the folder) that finds the
lock taken opens the case read-only and says who holds it. Within one process the lock is
shared by reference count, so worker threads can open their own connections.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

_held: dict[str, tuple[IO[str], int]] = {}
_guard = threading.Lock()


@dataclass(frozen=True)
class LockHolder:
    user: str
    host: str
    pid: int
    since: str

    def describe(self) -> str:
        return f"{self.user} on {self.host} (since {self.since[:16].replace('T', ' ')} UTC)"


def lock_path(case: Path) -> Path:
    return case.with_name(case.name + ".lock")


def _try_os_lock(f: IO[str]) -> bool:
    try:
        if sys.platform == "win32":
            import msvcrt

            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def acquire(case: Path, user: str) -> LockHolder | None:
    """Take the case's lock; None on success, else who holds it."""
    key = str(case.resolve())
    with _guard:
        if key in _held:
            f, n = _held[key]
            _held[key] = (f, n + 1)
            return None
        lp = lock_path(case)
        try:
            f = open(lp, "a+", encoding="utf-8")  # noqa: SIM115 - held open while locked
        except OSError:
            return None  # read-only media: nothing to lock against, the open will say so
        if not _try_os_lock(f):
            f.seek(0)
            text = f.read()
            f.close()
            try:
                info = json.loads(text or "{}")
                return LockHolder(info.get("user", "someone"), info.get("host", "?"),
                                  int(info.get("pid", 0)), info.get("since", ""))
            except ValueError:
                return LockHolder("someone", "?", 0, "")
        f.seek(0)
        f.truncate()
        f.write(json.dumps({"user": user, "host": socket.gethostname(), "pid": os.getpid(),
                            "since": datetime.now(UTC).isoformat(timespec="seconds")}))
        f.flush()
        _held[key] = (f, 1)
        return None


def release(case: Path) -> None:
    key = str(case.resolve())
    with _guard:
        if key not in _held:
            return
        f, n = _held[key]
        if n > 1:
            _held[key] = (f, n - 1)
            return
        del _held[key]
        try:
            f.seek(0)
            f.truncate()
            f.close()
            lock_path(case).unlink(missing_ok=True)
        except OSError:
            pass
