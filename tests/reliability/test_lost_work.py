"""Acknowledged work is never lost: one writer per file whatever path reaches it, restore
keeps the write-ahead log, backups belong to the case's identity, the command line backs up."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import contests
from recount_desk.actions.case import backups, create_case, open_case, restore_backup
from recount_desk.actions.verify import verify_case
from recount_desk.cli import main
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.rules import Office, Requester

E = Election("2026 General", date(2026, 11, 3), ElectionKind.GENERAL, "Grand County",
             datetime(2026, 11, 17, 10, 0))
CANVASS = Path(__file__).parents[1] / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"


def _opened_elsewhere(path: Path) -> str:
    code = ("from recount_desk.actions.case import open_case; "
            f"c = open_case({str(path)!r}); print(c.readonly, c.readonly_reason)")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=os.environ).stdout


@pytest.mark.parametrize("how", ["hard link", "symbolic link", "another path"])
def test_a_second_recount_desk_through_another_path_gets_it_read_only(tmp_path: Path,
                                                                     how: str) -> None:
    path = tmp_path / "a" / "c.recount"
    path.parent.mkdir()
    create_case(path, E).close()
    other = tmp_path / "b" / "same.recount"
    other.parent.mkdir()
    if how == "hard link":
        os.link(path, other)
    elif how == "symbolic link":
        other.symlink_to(path)
    else:
        other = tmp_path / "b" / ".." / "a" / "c.recount"
    with open_case(path) as mine:
        assert not mine.readonly
        out = _opened_elsewhere(other)
        assert out.startswith("True") and "open in another Recount Desk" in out
    assert _opened_elsewhere(other).startswith("False")


def test_cli_import_on_a_case_open_elsewhere_is_refused_clearly(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    code = ("import sys, time; from recount_desk.actions.case import open_case; "
            f"c = open_case({str(path)!r}); print('open', flush=True); sys.stdin.read()")
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=os.environ)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        assert main(["import", str(path), str(CANVASS)]) == 1
        err = capsys.readouterr().err
        assert "open in another Recount Desk" in err and "Nothing was changed" in err
    finally:
        holder.communicate("")
    assert verify_case(path).ok


def _action_then_die(path: Path) -> None:
    """A process that records a request and dies without closing (its WAL stays)."""
    code = ("import os; from datetime import datetime; "
            "from recount_desk.actions.case import open_case; "
            "from recount_desk.actions import contests; "
            "from recount_desk.core.rules import Office, Requester; "
            f"c = open_case({str(path)!r}); rid = contests.overview(c)[0].id; "
            "contests.record_request(c, rid, requester=Requester.CANDIDATE, candidate=None, "
            "voters=[], filed_at=datetime(2026, 11, 20, 9, 0), filed_with=Office.COUNTY_CLERK,"
            " override_reason='acknowledged'); print('ack', flush=True); os._exit(0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=os.environ).stdout
    assert out.strip() == "ack"


def test_restore_keeps_the_acknowledged_work_of_the_wal_in_the_file_kept_aside(
        tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    with create_case(path, E) as case:
        from recount_desk.actions.canvass import import_canvass, read_file

        import_canvass(case, read_file(CANVASS))
    open_case(path, backup=True).close()
    backup = backups(path)[0]
    _action_then_die(path)
    assert Path(str(path) + "-wal").stat().st_size > 0  # the work is in the WAL only
    aside = restore_backup(path, backup)
    assert verify_case(aside).ok
    with open_case(aside, readonly=True) as kept:
        actions = [e.action for e in store.audit_entries(kept.conn)]
    assert actions[-1] == "record recount request"
    assert verify_case(path).ok  # the restored case, and the record of its head set back
    with open_case(path) as case:  # new work after the restore verifies too
        rid = contests.overview(case)[0].id
        contests.record_request(case, rid, requester=Requester.CANDIDATE, candidate=None,
                                voters=[], filed_at=datetime(2026, 11, 20, 9, 0),
                                filed_with=Office.COUNTY_CLERK, override_reason="again")
    assert verify_case(path).ok


def test_backups_belong_to_the_case_not_its_file_name(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "election.recount", tmp_path / "b" / "election.recount"
    a.parent.mkdir()
    b.parent.mkdir()
    create_case(a, E).close()
    create_case(b, E).close()
    open_case(a, backup=True).close()
    mine = backups(a)
    for _ in range(6):
        open_case(b, backup=True).close()
    assert backups(a) == mine and len(mine) == 1
    assert len(backups(b)) == 5 and not set(backups(b)) & set(mine)
    before = a.read_bytes()
    with pytest.raises(store.CaseFileError, match="backup of another case"):
        restore_backup(a, backups(b)[0])
    assert a.read_bytes() == before and verify_case(a).ok


def test_the_command_line_backs_up_before_it_writes(tmp_path: Path) -> None:
    path = tmp_path / "c.recount"
    create_case(path, E).close()
    assert backups(path) == []
    assert main(["import", str(path), str(CANVASS)]) == 0
    assert len(backups(path)) == 1
    assert main(["election", str(path), "--officer", "Clerk"]) == 0
    assert len(backups(path)) == 2
    assert all(verify_case(b).ok for b in backups(path))


def test_the_command_line_refuses_to_write_on_a_tampered_case(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    path = tmp_path / "c.recount"
    create_case(path, E).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE election SET name = 'Another'")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    assert main(["election", str(path), "--officer", "Clerk"]) == 1
    assert "does not verify, so nothing was changed" in capsys.readouterr().err
    assert path.read_bytes() == before and backups(path) == []


def test_a_case_on_read_only_media_opens_read_only_not_as_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite cannot open a WAL file read-only where it may not write its -shm (a write-
    protected stick); root may write anywhere, so that failure is simulated where it occurs."""
    from recount_desk.store import db

    path = tmp_path / "c.recount"
    create_case(path, E).close()
    real = db._connect

    def on_media(p: Path, readonly: bool = False) -> sqlite3.Connection:
        if readonly:
            raise sqlite3.OperationalError("unable to open database file")
        return real(p, readonly)

    monkeypatch.setattr(db, "_connect", on_media)
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK)
    with open_case(path) as case:
        assert case.readonly and "read-only media" in (case.readonly_reason or "")
        assert case.election == E
    assert verify_case(path).ok
    Path(str(path) + "-wal").write_bytes(b"x" * 10)  # a case not closed cleanly
    with pytest.raises(store.CaseFileError, match="read-only media and was not closed"):
        open_case(path)
