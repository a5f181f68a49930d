"""The check of a case remembered by its image (store/checked.py): a case closed here and
opened again unchanged is not checked in full again at its first write, and any edit made
outside the program in between is still caught before that write."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.case import open_case
from recount_desk.actions.demo import user_data_dir
from recount_desk.actions.verify import verify_case
from recount_desk.core.recount import RecountMethod
from recount_desk.store import checked, db
from tests.actions.test_recount_actions import RACE, make_case
from tests.store.outside import outside_edit


def _records() -> list[Path]:
    return sorted((user_data_dir() / "checked").glob("*.json"))


def _closed_case(tmp_path: Path) -> Path:
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    case.close()
    return path


def _no_full_check(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = db.differences

    def counted(conn: sqlite3.Connection) -> list[str]:
        calls.append(1)
        return real(conn)

    monkeypatch.setattr(db, "differences", counted)
    return calls


def _witness(path: Path) -> None:
    case = open_case(path, actor="tester")
    try:
        rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
    finally:
        case.close()


def _next_write_refused(path: Path, match: str | None = None) -> None:
    case = open_case(path, actor="tester")
    try:
        before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        with pytest.raises(store.CaseChangedOutside, match=match):
            rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == before
    finally:
        case.close()


def test_a_case_reopened_unchanged_is_not_checked_in_full_again_and_still_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _closed_case(tmp_path)
    assert _records()
    calls = _no_full_check(monkeypatch)
    _witness(path)
    assert calls == []  # the image was one checked: its sums were used
    _witness(path)  # and the case closed after that write is remembered too
    assert calls == []
    assert verify_case(path).ok  # the entries written from the kept sums are right


def test_the_same_file_copied_elsewhere_is_the_same_image(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _closed_case(tmp_path)
    copy = tmp_path / "copy.recount"
    copy.write_bytes(path.read_bytes())
    calls = _no_full_check(monkeypatch)
    _witness(copy)
    assert calls == []
    assert verify_case(copy).ok


@pytest.mark.parametrize("sql", [
    "UPDATE choice SET canvass_total = canvass_total + 5 WHERE name='Ben'",
    "UPDATE election SET name = 'Forged'",
    "CREATE TRIGGER planted AFTER INSERT ON witness BEGIN SELECT 1; END",
    "DROP TRIGGER audit_no_update",
])
def test_an_outside_edit_after_closing_is_caught_before_the_next_write(
        tmp_path: Path, sql: str) -> None:
    path = _closed_case(tmp_path)
    assert _records()
    outside_edit(path, sql)
    _next_write_refused(path)


def test_an_edit_that_keeps_the_files_size_and_times_is_caught(tmp_path: Path) -> None:
    path = _closed_case(tmp_path)
    st = path.stat()
    size = st.st_size
    outside_edit(path, "UPDATE choice SET canvass_total = 28 WHERE name='Ben'")  # 29 -> 28
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == size and path.stat().st_mtime_ns == st.st_mtime_ns
    _next_write_refused(path, "the candidates differ")


def test_an_edit_still_in_the_write_ahead_log_is_caught(tmp_path: Path) -> None:
    path = _closed_case(tmp_path)
    raw = sqlite3.connect(str(path), isolation_level=None)
    try:  # committed, held open: the change is in the -wal file, the main file unchanged
        raw.execute("PRAGMA wal_autocheckpoint=0")
        raw.execute("UPDATE election SET name = 'Forged'")
        _next_write_refused(path, "the election's details")
    finally:
        raw.close()


def test_a_record_whose_sums_do_not_give_the_recorded_state_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _closed_case(tmp_path)
    for record in _records():
        data = json.loads(record.read_text(encoding="utf-8"))
        data["sums"]["choice"] = format(int(data["sums"]["choice"], 16) + 1, "x")
        record.write_text(json.dumps(data), encoding="utf-8")
    calls = _no_full_check(monkeypatch)
    _witness(path)
    assert calls == [1]  # checked in full; the entry written from the file's own rows
    assert verify_case(path).ok


def test_a_record_torn_or_of_another_head_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _closed_case(tmp_path)
    records = _records()
    for record in records:
        data = json.loads(record.read_text(encoding="utf-8"))
        data["head"] = "0" * 64
        record.write_text(json.dumps(data), encoding="utf-8")
    calls = _no_full_check(monkeypatch)
    _witness(path)
    assert calls == [1]
    for record in _records():
        record.write_text("{\"format\": 1, \"sums", encoding="utf-8")
    _witness(path)
    assert calls == [1, 1]
    assert verify_case(path).ok


def test_a_case_closed_after_another_program_wrote_it_is_not_remembered(
        tmp_path: Path) -> None:
    path = _closed_case(tmp_path)
    for record in _records():
        record.unlink()
    case = open_case(path, actor="tester")
    try:
        rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        outside_edit(path, "UPDATE election SET name = 'Forged'")
    finally:
        case.close()
    assert _records() == []  # its connection no longer knew the file matched its log
    _next_write_refused(path, "the election's details")


def test_the_windows_check_after_opening_is_remembered_for_the_first_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window verifies a case in the background, on a connection of its own; a case
    checked so (here one last closed on another workstation: none of its images known
    here) is not checked in full again by the window's first write, and an edit made
    after that check is still caught."""
    path = _closed_case(tmp_path)
    for record in _records():
        record.unlink()
    assert verify_case(path).ok
    assert _records()
    calls = _no_full_check(monkeypatch)
    _witness(path)
    assert calls == []
    monkeypatch.undo()
    assert verify_case(path).ok
    outside_edit(path, "UPDATE election SET name = 'Forged'")
    assert not verify_case(path).ok
    _next_write_refused(path, "the election's details")


def test_a_case_opened_here_takes_its_known_check_at_opening(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case last closed here in a checked state takes that check when it is opened to
    write (store.take_known_check): its first action neither checks it in full nor hashes
    its image while the officer waits."""
    path = _closed_case(tmp_path)
    case = open_case(path, actor="tester")
    try:
        assert case.conn.verified is not None  # taken at opening
        hashed: list[int] = []
        real = checked.image_sha256
        monkeypatch.setattr(checked, "image_sha256",
                            lambda conn: hashed.append(1) or real(conn))
        calls = _no_full_check(monkeypatch)
        rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        assert calls == [] and hashed == []
    finally:
        case.close()
    assert verify_case(path).ok


def test_an_edit_made_after_opening_is_still_caught_before_the_first_write(
        tmp_path: Path) -> None:
    path = _closed_case(tmp_path)
    case = open_case(path, actor="tester")
    try:
        assert case.conn.verified is not None
        before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        outside_edit(path, "UPDATE election SET name = 'Forged'")
        with pytest.raises(store.CaseChangedOutside, match="the election's details"):
            rc.add_witness(case, RACE, name="W", designated_by="Ada", side="Ada")
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == before
    finally:
        case.close()


def test_a_case_whose_image_is_unknown_here_is_not_taken_as_checked(tmp_path: Path) -> None:
    path = _closed_case(tmp_path)
    for record in _records():
        record.unlink()
    case = open_case(path, actor="tester")
    try:
        assert case.conn.verified is None  # the first write checks it in full
    finally:
        case.close()
    outside_edit(path, "UPDATE election SET name = 'Forged'")
    case = open_case(path, actor="tester")
    try:  # a record of the image before the edit does not fit the file after it
        assert case.conn.verified is None
    finally:
        case.close()
