"""The data folder's record of a case's head: two slots written in turn, in place.

A write cut short leaves the record as it was before it; a slot changed by hand is not
read; the one-file record of earlier versions is read, and replaced by the slots at the
first write; threads of one program leave the newest head.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from recount_desk.core.audit import AuditEntry, make_entry
from recount_desk.store import anchor

CID = "0123456789abcdef0123456789abcdef"


def _chain(n: int) -> list[AuditEntry]:
    out: list[AuditEntry] = []
    for i in range(n):
        out.append(make_entry(out[-1] if out else None, f"2026-12-02T10:{i:02d}:00Z",
                              "Clerk", f"action {i + 1}", {"data": {}}))
    return out


def _act(root: Path, entry: AuditEntry) -> None:
    """What one action writes: the pending entry, then (after its commit) the head."""
    anchor.record(root, CID, entry, Path("/cases/x.recount"), committed=False)
    anchor.record(root, CID, entry, Path("/cases/x.recount"), committed=True)


def _slots(root: Path) -> list[Path]:
    return sorted((root / "anchors").glob(f"{CID}.*.json"))


def test_each_action_leaves_its_head_and_no_pending(tmp_path: Path) -> None:
    entries = _chain(3)
    for e in entries:
        _act(tmp_path, e)
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (3, entries[2].hash)
    assert anchor.pending(tmp_path, CID) is None
    assert len(_slots(tmp_path)) == 2  # written in turn, in place: no other file
    assert not list((tmp_path / "anchors").glob("*.part"))


def test_a_write_cut_short_leaves_the_record_as_it_was(tmp_path: Path) -> None:
    entries = _chain(4)
    for e in entries[:3]:
        _act(tmp_path, e)
    anchor.record(tmp_path, CID, entries[3], Path("/cases/x.recount"), committed=False)
    # The next write goes to the older slot; a crash in the middle of it leaves part of the
    # new text over the old.
    newest, _older, _n = anchor._newest(tmp_path, CID)
    assert newest is not None and newest["pending_seq"] == 4
    target = anchor._slot_paths(tmp_path, CID)[anchor._newest(tmp_path, CID)[1]]
    before = target.read_bytes()
    whole = json.dumps({"seq": 4, "hash": entries[3].hash, "n": 99}).encode()
    target.write_bytes(whole[:len(whole) // 2] + before[len(whole) // 2:])
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and head.seq == 3  # the slot written before: entry 3 …
    assert anchor.pending(tmp_path, CID) == (4, entries[3].hash)  # … and 4 about to be
    # An empty slot (cut short before anything was written) is no record either.
    target.write_bytes(b"")
    assert anchor.pending(tmp_path, CID) == (4, entries[3].hash)


def test_a_slot_changed_by_hand_is_not_read(tmp_path: Path) -> None:
    entries = _chain(2)
    for e in entries:
        _act(tmp_path, e)
    newest_slot = 1 - anchor._newest(tmp_path, CID)[1]
    path = anchor._slot_paths(tmp_path, CID)[newest_slot]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seq"] == 2
    data["seq"] = 7  # a head made up, its check left as it was
    path.write_text(json.dumps(data), encoding="utf-8")
    # The other slot is read: the record written before it, entry 1 the head and entry 2
    # about to be committed (what a kill between the two would have left).
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (1, entries[0].hash)
    assert anchor.pending(tmp_path, CID) == (2, entries[1].hash)


def test_the_one_file_record_of_earlier_versions_is_read_then_replaced(tmp_path: Path) -> None:
    entries = _chain(3)
    legacy = anchor.anchor_path(tmp_path, CID)
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps({"seq": 2, "hash": entries[1].hash, "case_id": CID,
                                  "case": "/cases/x.recount"}, indent=1), encoding="utf-8")
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (2, entries[1].hash)
    _act(tmp_path, entries[2])
    assert not legacy.exists()
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (3, entries[2].hash)
    assert anchor.ids_for_path(tmp_path, Path("/cases/x.recount")) == [CID]


def test_threads_of_one_program_leave_the_newest_head(tmp_path: Path) -> None:
    entries = _chain(40)
    done = threading.Barrier(4)

    def work(part: list[AuditEntry]) -> None:
        done.wait()
        for e in part:
            anchor.record(tmp_path, CID, e, Path("/cases/x.recount"), committed=True)

    threads = [threading.Thread(target=work, args=(entries[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (40, entries[-1].hash)


def test_a_slot_another_program_wrote_since_is_read_before_the_next_record(
        tmp_path: Path) -> None:
    # This program remembers what it wrote last (not reading both slots again at each
    # record); a program with a copy of the case open beside it writes the same record.
    entries = _chain(4)
    for e in entries[:2]:
        _act(tmp_path, e)
    _newest, slot, n = anchor._newest(tmp_path, CID)
    other = {"seq": 4, "hash": entries[3].hash, "at": entries[3].at, "case_id": CID,
             "case": "/elsewhere/copy.recount", "host": "another", "n": n}
    anchor._write_slot(anchor._slot_paths(tmp_path, CID)[slot], other)
    # Entry 3 is older than the head the other program kept: it does not replace it.
    anchor.record(tmp_path, CID, entries[2], Path("/cases/x.recount"), committed=True)
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (4, entries[3].hash)


def test_two_kills_in_a_row_never_make_an_entry_of_this_workstation_look_forged(
        tmp_path: Path) -> None:
    # A kill between an action's commit and its head record leaves that entry pending (and
    # in the case). If the next action is then killed before its own commit, its pending
    # record must still own the entry before it: the chain says that entry was committed.
    me = anchor.writer_id(tmp_path)
    entries: list[AuditEntry] = []
    for i in range(4):
        entries.append(make_entry(entries[-1] if entries else None,
                                  f"2026-12-03T10:{i:02d}:00Z", "Clerk", f"action {i + 1}",
                                  {"data": {}, "writer": me}))
    for e in entries[:2]:
        _act(tmp_path, e)
    anchor.record(tmp_path, CID, entries[2], Path("/cases/x.recount"), committed=False)
    # (killed here, after entry 3's commit; the case is opened again and acted on)
    anchor.record(tmp_path, CID, entries[3], Path("/cases/x.recount"), committed=False)
    # (killed again, before entry 4's commit: the case ends at entry 3)
    head = anchor.known_head(tmp_path, CID)
    assert head is not None and (head.seq, head.hash) == (3, entries[2].hash)
    assert anchor.unseen_entries(tmp_path, CID, entries[:3]) == ([], [])
    # A pending entry that does not chain on the one pending before it changes no head.
    other = make_entry(entries[1], "2026-12-03T11:00:00Z", "Clerk", "elsewhere",
                       {"data": {"x": 1}, "writer": me})
    root2 = tmp_path / "second"
    for e in entries[:2]:
        _act(root2, e)
    anchor.record(root2, CID, entries[2], Path("/cases/x.recount"), committed=False)
    anchor.record(root2, CID, make_entry(other, "2026-12-03T11:01:00Z", "Clerk", "next",
                                         {"data": {}}), Path("/cases/x.recount"),
                  committed=False)
    head = anchor.known_head(root2, CID)
    assert head is not None and head.seq == 2
