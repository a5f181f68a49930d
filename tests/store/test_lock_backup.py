"""Second instance read-only, backups on open, restore, read-only media."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions.case import backups, create_case, open_case, restore_backup
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import Election, ElectionKind

E = Election("2026 General", date(2026, 11, 3), ElectionKind.GENERAL, "Grand County")


def test_second_instance_gets_the_case_read_only(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    with open_case(path) as mine:
        assert not mine.readonly
        code = ("import sys; from recount_desk.actions.case import open_case; "
                f"c = open_case({str(path)!r}); print(c.readonly, c.readonly_reason)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout
        assert out.startswith("True") and "open in another Recount Desk" in out
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("False")


def test_read_only_case_refuses_writes_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    with open_case(path, readonly=True) as case, pytest.raises(store.ReadOnlyCase,
                                                                match="read-only"):
        with store.transaction(case.conn, "x", "y"):
            pass


def test_read_only_folder_opens_read_only(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    # Root can write anywhere, so read-only media is simulated where the program asks.
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK)
    with open_case(path) as case:
        assert case.readonly and "read-only media" in (case.readonly_reason or "")


def test_full_disk_is_a_clear_message_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    with create_case(path, E) as case:
        n = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        page = case.conn.execute("PRAGMA page_count").fetchone()[0]
        case.conn.execute(f"PRAGMA max_page_count={page}")
        with pytest.raises(store.CaseFileError, match="disk is full"):
            with store.transaction(case.conn, "t", "big") as payload:
                payload["x"] = 1
                case.conn.execute("CREATE TABLE filler(x)")
                case.conn.executemany("INSERT INTO filler VALUES (?)",
                                      ((b"x" * 4000,) for _ in range(100)))
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == n


def test_backups_rotate_and_restore(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    for _ in range(7):
        open_case(path, backup=True).close()
    found = backups(path)
    assert len(found) == 5
    assert all(verify_case(b).ok for b in found)
    aside = restore_backup(path, found[-1])
    assert aside.exists() and verify_case(path).ok


def test_restore_refuses_a_backup_that_does_not_verify(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    bad = tmp_path / "bad.recount"
    bad.write_bytes(b"not a case")
    with pytest.raises(store.CaseFileError, match="does not verify"):
        restore_backup(path, bad)
