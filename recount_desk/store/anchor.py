"""The audit chain's head kept outside the case file, so a rollback or a rewritten chain shows.

Inside one file the hash chain proves only that the log is consistent with itself: whoever
can write the file can delete the last action and its entry, copy back an older copy, or
recompute every hash after an edit. So the head of the chain (the newest entry's number and
hash) is also kept where the file's editor does not reach it at the same time:

- in the program's data folder, per case (named by the case's identity, a random id written
  into the case when it is created), rewritten before and after every action;
- in every automatic backup (a backup is a copy of the case, its own chain included);
- on every page of the report (printed beside the fingerprint).

A known head (entry *n*, hash *h*) holds if the case's entry *n* has hash *h*: the case may
have moved on since (work done on another workstation), but it may not end before *n*
(rolled back) nor have another entry *n* (rewritten). This module holds the data folder's
file; the comparison is :func:`head_problems`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from recount_desk.core.audit import AuditEntry


@dataclass(frozen=True)
class Head:
    """The head of a case's audit chain as someone saw it, and who saw it."""

    seq: int
    hash: str
    source: str  # "this workstation's record of the case", "the backup X", …

    def short(self) -> str:
        return f"entry {self.seq} · {self.hash[:16]}"


def case_id(conn: sqlite3.Connection) -> str | None:
    """The case's identity: the id written into it when it was created, or (for files made
    before ids were written) the hash of its first audit entry. None if it has neither."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='case_id'").fetchone()
        if row and isinstance(row[0], str) and row[0]:
            return row[0]
        row = conn.execute("SELECT hash FROM audit WHERE seq=1").fetchone()
    except sqlite3.DatabaseError:
        return None
    return str(row[0])[:32] if row and row[0] else None


def _safe(cid: str) -> str:
    return "".join(ch for ch in cid if ch.isalnum() or ch in "-_")[:64] or "unknown"


def anchor_path(root: Path, cid: str) -> Path:
    """The record as earlier versions of the program kept it: one file, replaced (written
    aside, then renamed over it) at every write. Read while there are no slots."""
    return root / "anchors" / f"{_safe(cid)}.json"


# The record is kept in two slot files written in turn, each in place: a write overwrites the
# older slot, so a write cut short (a crash, a full disk) leaves the newer one as it was, and
# a slot that does not hold exactly what was written fails its check and is not read. In
# place, a durable write costs a quarter of a new file renamed over the old (~0.2 against
# ~0.8 ms here: no new file, no directory entry to make durable), and every action makes two.
_SLOTS = ("a", "b")
# Threads of one program write one case's record in turn (a read, then a write of the slot
# the read did not pick). Another program writes it only for another file of the same case
# (a copy opened beside it: one program at a time writes a case file, store/lock.py); their
# writes could then meet in one slot, which fails its check, and the other slot is read:
# an older head, never a forged one.
_LOCK = threading.Lock()


def _slot_paths(root: Path, cid: str) -> list[Path]:
    safe = _safe(cid)
    return [root / "anchors" / f"{safe}.{slot}.json" for slot in _SLOTS]


def _check(data: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()


def _valid(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("seq"), int) and \
        isinstance(data.get("hash"), str)


def _read_slot(path: Path) -> dict[str, object] | None:
    """A slot's record (with its write number ``n``), or None when it is missing, cut short
    or changed (its check does not match)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("n"), int):
        return None
    check = data.pop("check", None)
    if check != _check(data) or not _valid(data):
        return None
    return data


def _newest(root: Path, cid: str) -> tuple[dict[str, object] | None, int, int]:
    """(the newest record, with its ``n``; the slot to write next; that write's ``n``). With
    no slot yet, the one-file record of earlier versions, if any."""
    slots = [_read_slot(p) for p in _slot_paths(root, cid)]
    numbers = [int(d["n"]) if d is not None else -1 for d in slots]  # type: ignore[call-overload]
    newest = max(range(len(slots)), key=numbers.__getitem__)
    if slots[newest] is not None:
        return slots[newest], 1 - newest, numbers[newest] + 1
    try:
        legacy = json.loads(anchor_path(root, cid).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, 0, 1
    return (legacy if _valid(legacy) else None), 0, 1


def read(root: Path, cid: str) -> dict[str, object] | None:
    """The data folder's record of the case, or None if this workstation has none."""
    data = _newest(root, cid)[0]
    if data is None:
        return None
    data = dict(data)
    data.pop("n", None)
    return data


def _write_slot(path: Path, data: dict[str, object]) -> None:
    """Overwrite the slot in place and make it durable."""
    sealed = dict(data)
    sealed["check"] = _check(data)
    text = json.dumps(sealed).encode("utf-8")  # (one line: the C encoder writes it)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o644)
    try:
        done = 0
        while done < len(text):  # (a regular file takes it in one write, all but always)
            done += os.write(fd, text[done:])
        os.ftruncate(fd, len(text))
        os.fsync(fd)
    finally:
        os.close(fd)


def known_head(root: Path, cid: str) -> Head | None:
    data = read(root, cid)
    if data is None or not data.get("hash"):
        return None
    return Head(int(data["seq"]), str(data["hash"]),  # type: ignore[call-overload]
                "this workstation's record of the case (in its data folder)")


def restored_at(root: Path, cid: str) -> str | None:
    """When a backup was last restored in place of this case here (ISO, UTC), if ever."""
    data = read(root, cid)
    value = data.get("restored_at") if data else None
    return value if isinstance(value, str) else None


def writer_id(root: Path) -> str:
    """This workstation's (this data folder's) own random id, named in each entry it
    writes; made on first use."""
    path = root / "anchors" / "writer-id"
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text:
            return text
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    text = uuid.uuid4().hex[:16]
    path.write_text(text, encoding="utf-8")
    return text


def record(root: Path, cid: str, entry: AuditEntry, case: Path, *, committed: bool = True,
           restored: bool = False, superseded: AuditEntry | None = None) -> None:
    """Keep ``entry`` as the case's head (``committed``), or as the entry about to be
    committed (a kill between the two must not make a real entry look forged). An older
    head never replaces a newer one (two threads of one program may finish in either
    order), except when a backup is restored."""
    with _LOCK:
        paths = _slot_paths(root, cid)
        key = (str(root), cid)
        known = _WRITTEN.get(key)
        old: dict[str, object] | None
        if known is not None and known[0] == _stamps(paths):
            old, slot, n = known[1], known[2], known[3]
        else:
            old, slot, n = _newest(root, cid)
        _WRITTEN.pop(key, None)
        written = _record(root, cid, paths[slot], old, n, entry, case, committed=committed,
                          restored=restored, superseded=superseded)
        if written is not None:
            _WRITTEN[key] = (_stamps(paths), written, 1 - slot, n + 1)


# What this program last wrote to a case's slots (the record, the slot to write next and its
# number), beside both slots' file stamps just after: while neither stamp has changed no one
# wrote a slot since, and the next action's two records do not read and check both slots
# again (a quarter of a millisecond an action). A slot written by anyone else has another
# stamp (its size, its times), and the slots are read.
_WRITTEN: dict[tuple[str, str], tuple[tuple[object, ...], dict[str, object], int, int]] = {}


def _stamps(paths: Sequence[Path]) -> tuple[object, ...]:
    out: list[object] = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            out.append(None)
            continue
        out.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def _record(root: Path, cid: str, path: Path, old: dict[str, object] | None, n: int,
            entry: AuditEntry, case: Path, *, committed: bool, restored: bool,
            superseded: AuditEntry | None) -> dict[str, object] | None:
    """``record`` given the newest record (``old``), the slot to write (``path``) and its
    number.
    Returns the record written (with its ``n``), or None when there was nothing to write."""
    if old is not None:
        old = {k: v for k, v in old.items() if k != "n"}
    data: dict[str, object] = dict(old) if old is not None and not restored else {}
    if committed:
        if old is not None and not restored and int(old["seq"]) > entry.seq:  # type: ignore[call-overload]
            return None
        data.update({"seq": entry.seq, "hash": entry.hash, "at": entry.at})
        data.pop("pending_seq", None)
        data.pop("pending_hash", None)
    else:
        if old is None:  # nothing anchored yet: the pending entry is all there is
            data.update({"seq": 0, "hash": ""})
        elif old.get("pending_seq") == entry.seq - 1 and \
                old.get("pending_hash") == entry.prev_hash and \
                int(old["seq"]) < entry.seq - 1:  # type: ignore[call-overload]
            # The entry pending before this one is the one it chains on: that one was
            # committed, though its head record was never written (a kill between its
            # commit and that record). It is the head now: else a second kill, before this
            # entry's commit, would leave a record naming neither, and the next check would
            # call that entry of this workstation's a forgery.
            data.update({"seq": entry.seq - 1, "hash": entry.prev_hash})
            data.pop("at", None)
        data.update({"pending_seq": entry.seq, "pending_hash": entry.hash})
    data.update({"case_id": cid, "case": str(case), "host": socket.gethostname(),
                 "written": datetime.now(UTC).isoformat(timespec="seconds")})
    if restored:
        data["restored_at"] = datetime.now(UTC).isoformat(timespec="microseconds")
        # The heads of the files a restore replaced: their entries were written here (the
        # copy kept aside still holds them), whatever the head now says.
        kept = list(old.get("superseded", [])) if old is not None else []  # type: ignore[call-overload]
        if superseded is not None:
            kept.append([superseded.seq, superseded.hash])
        data["superseded"] = kept[-20:]
    data["n"] = n
    _write_slot(path, data)
    if n == 1:  # the first slot written: the one-file record of earlier versions goes
        with contextlib.suppress(OSError):
            anchor_path(root, cid).unlink(missing_ok=True)
    return data


def pending(root: Path, cid: str) -> tuple[int, str] | None:
    data = read(root, cid)
    if data is None or not isinstance(data.get("pending_seq"), int):
        return None
    return int(data["pending_seq"]), str(data.get("pending_hash"))  # type: ignore[call-overload]


def _writer(e: AuditEntry) -> str | None:
    try:
        body = json.loads(e.payload)
    except ValueError:
        return None
    w = body.get("writer") if isinstance(body, dict) else None
    return w if isinstance(w, str) else None


def unseen_entries(root: Path, cid: str, entries: Sequence[AuditEntry]
                   ) -> tuple[list[str], list[str]]:
    """The entries newer than this workstation's record of the case: (problems, notes).

    An entry that names this workstation as its writer but that it never recorded was not
    written here: forged. Others were written on another workstation (the case was
    copied there and back) — or forged by someone who chose another name; an offline
    workstation cannot tell, so they are named, for the officer to confirm."""
    head = known_head(root, cid)
    if head is None or not entries:
        return [], []
    allowed = head.seq
    p = pending(root, cid)
    by_seq = {e.seq: e.hash for e in entries}
    if p is not None and by_seq.get(p[0]) == p[1]:
        allowed = max(allowed, p[0])
    data = read(root, cid) or {}
    for item in data.get("superseded", []):  # type: ignore[attr-defined]
        if isinstance(item, list) and len(item) == 2 and by_seq.get(item[0]) == item[1]:
            allowed = max(allowed, int(item[0]))
    me = writer_id(root)
    newer = [e for e in entries if e.seq > allowed]
    forged = [e.seq for e in newer if _writer(e) == me]
    problems = [f"audit entry {n} claims to have been written on this workstation, which "
                f"never wrote it (its record of the case ends at entry {allowed}): it was "
                "forged outside Recount Desk" for n in forged]
    others = [e.seq for e in newer if _writer(e) != me]
    notes = []
    if others:
        span = f"{others[0]}" if len(others) == 1 else f"{others[0]}–{others[-1]}"
        notes.append(f"audit entr{'y' if len(others) == 1 else 'ies'} {span} "
                     f"{'was' if len(others) == 1 else 'were'} not written on this "
                     f"workstation (it last saw entry {allowed}): written on another one, "
                     "or forged — if the case never left this computer, treat them as "
                     "forged")
    return problems, notes


def ids_for_path(root: Path, case: Path) -> list[str]:
    """The ids of the cases this workstation last saw at ``case`` (for a file too damaged
    to say its own id)."""
    folder = root / "anchors"
    if not folder.is_dir():
        return []
    want = str(case.resolve())
    out = []
    for p in folder.glob("*.json"):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("case") and \
                str(Path(str(data["case"])).resolve()) == want and \
                str(data.get("case_id")) not in out:  # (a case's two slots name it twice)
            out.append(str(data.get("case_id")))
    return out


def head_problems(entries: Sequence[AuditEntry], heads: Iterable[Head]) -> list[str]:
    """How the case's log disagrees with heads kept elsewhere: rolled back or rewritten."""
    by_seq = {e.seq: e.hash for e in entries}
    last = entries[-1].seq if entries else 0
    problems = []
    for h in heads:
        if h.seq > last:
            problems.append(
                f"the case was rolled back: {h.source} has audit entry {h.seq} "
                f"(hash {h.hash[:16]}…), but the case ends at entry {last} — work recorded "
                "since has been removed, or an older copy was put in its place")
        elif by_seq.get(h.seq) != h.hash:
            problems.append(
                f"the audit log was rewritten: its entry {h.seq} is not the one {h.source} "
                f"recorded (hash {h.hash[:16]}…, the case now has "
                f"{(by_seq.get(h.seq) or '—')[:16]}…)")
    return problems
