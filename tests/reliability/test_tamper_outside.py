"""Tampering that the chain inside the file cannot show alone: the schema, rollbacks,
recomputed chains and forged entries; each is reported by ``verify``, by opening the case
(the window's check) and by the report, and ``verify`` leaves the file as it was."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from array import array
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import contests, report
from recount_desk.actions.case import check_after_open, open_case
from recount_desk.actions.demo import build_demo_case
from recount_desk.actions.demo_recount import SUPERVISOR
from recount_desk.actions.verify import verify_case
from recount_desk.core.audit import AuditEntry, entry_hash, make_entry
from recount_desk.core.rules import Office, Requester
from recount_desk.store.migrations import MIGRATIONS

GUARDS = ("CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit\n"
          "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;\n"
          "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit\n"
          "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;")
assert GUARDS.split("\n")[0] in str(MIGRATIONS[0])


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo case (its recount finished) with its data folder, made once."""
    folder = tmp_path_factory.mktemp("template")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RECOUNT_DESK_DATA", str(folder / "data"))
        with build_demo_case(folder / "demo.recount") as case:
            rid = contests.overview(case)[0].id
            contests.record_request(
                case, rid, requester=Requester.CANDIDATE, candidate=None, voters=[],
                filed_at=datetime(2018, 11, 21, 9, 0), filed_with=Office.COUNTY_CLERK,
                override_reason="the last action, for the rollback tests")
    return folder / "demo.recount", folder / "data"


@pytest.fixture
def case(template: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path, data = template
    shutil.copytree(data, tmp_path / "data")
    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    shutil.copy(path, tmp_path / "case.recount")
    assert verify_case(tmp_path / "case.recount").ok
    return tmp_path / "case.recount"


def _entries(conn: sqlite3.Connection) -> list[AuditEntry]:
    return [AuditEntry(*r) for r in conn.execute(
        "SELECT seq, at, actor, action, payload, prev_hash, hash FROM audit ORDER BY seq")]


def _rewrite_from(conn: sqlite3.Connection, seq: int,
                  change: Callable[[AuditEntry, dict[str, object]], None]) -> None:
    """Rewrite entries from ``seq`` on, recomputing every hash after them (the chain holds),
    and the newest entry's state digest to match the data as it now is."""
    conn.executescript("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;")
    entries = _entries(conn)
    prev_hash = next((e.hash for e in entries if e.seq == seq - 1), "0" * 64)
    for e in entries:
        if e.seq < seq:
            continue
        body = json.loads(e.payload)
        change(e, body)
        if e.seq == entries[-1].seq:
            body["state"] = store.state_digest(conn)
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        h = entry_hash(e.seq, e.at, e.actor, e.action, text, prev_hash)
        conn.execute("UPDATE audit SET payload=?, prev_hash=?, hash=? WHERE seq=?",
                     (text, prev_hash, h, e.seq))
        prev_hash = h
    conn.executescript(GUARDS)


def _planted_trigger(conn: sqlite3.Connection) -> None:
    conn.executescript("CREATE TRIGGER tally_bonus AFTER INSERT ON tally_vote BEGIN "
                       "UPDATE tally_vote SET votes = votes + 50 WHERE rowid = new.rowid; END;")


def _no_op_guards(conn: sqlite3.Connection) -> None:
    conn.executescript("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; "
                       "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT 1; "
                       "END; CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN "
                       "SELECT 1; END;")


def _planted_view(conn: sqlite3.Connection) -> None:
    conn.executescript("CREATE VIEW totals AS SELECT * FROM contest; "
                       "CREATE INDEX by_name ON precinct(name);")


def _last_action_deleted(conn: sqlite3.Connection) -> None:
    """The last action (a recorded request) and its audit entry removed, the guards put back
    as they were: the data is exactly as the entry before recorded it."""
    conn.executescript("DROP TRIGGER audit_no_delete; "
                       "DELETE FROM request_voter WHERE request_id = (SELECT max(id) FROM "
                       "recount_request); DELETE FROM recount_request WHERE id = (SELECT max(id) "
                       "FROM recount_request); DELETE FROM audit WHERE seq = (SELECT max(seq) "
                       "FROM audit);" + GUARDS.split(";\n")[1] + ";")


def _last_entry_rewritten(conn: sqlite3.Connection) -> None:
    last = _entries(conn)[-1]

    def who(e: AuditEntry, body: dict[str, object]) -> None:
        body["data"] = {**body["data"], "override_reason": "mallory was here"}  # type: ignore[dict-item]

    _rewrite_from(conn, last.seq, who)


def _canvass_plus_500(conn: sqlite3.Connection) -> None:
    cid, width, blob = conn.execute("SELECT choice_id, width, votes FROM canvass_column "
                                    "ORDER BY choice_id LIMIT 1").fetchone()
    votes = array({4: "i", 8: "q"}[width])
    votes.frombytes(blob)
    votes[0] += 500
    conn.execute("UPDATE canvass_column SET votes=? WHERE choice_id=?", (votes.tobytes(), cid))
    digest = store.stored_canvass_digest(conn)
    conn.execute("UPDATE canvass_import SET digest=?", (digest,))
    first = next(e for e in _entries(conn) if e.action == "import canvass")

    def fix(e: AuditEntry, body: dict[str, object]) -> None:
        if e.seq == first.seq:
            body["data"] = {**body["data"], "canvass_digest": digest}  # type: ignore[dict-item]

    _rewrite_from(conn, first.seq, fix)


def _forged_entry(conn: sqlite3.Connection, *, same_writer: bool) -> None:
    prev = _entries(conn)[-1]
    writer = json.loads(prev.payload).get("writer") if same_writer else "f0f0f0f0f0f0f0f0"
    conn.execute("UPDATE contest SET seats = 2 WHERE id = (SELECT min(id) FROM contest)")
    e = make_entry(prev, "2018-11-22T10:00:00+00:00", "clerk", "set contest settings",
                   {"data": {"seats": 2}, "state": store.state_digest(conn), "writer": writer})
    conn.execute("INSERT INTO audit VALUES (?,?,?,?,?,?,?)",
                 (e.seq, e.at, e.actor, e.action, e.payload, e.prev_hash, e.hash))


# what was done to the file -> what verify must say
KINDS: dict[str, tuple[Callable[[sqlite3.Connection], None], str]] = {
    "a planted trigger that adds 50 votes": (_planted_trigger,
                                             "trigger tally_bonus on table tally_vote"),
    "guard triggers replaced by same-named no-ops": (_no_op_guards,
                                                     "trigger audit_no_update was altered"),
    "a planted view and index": (_planted_view, "view totals"),
    "the last action and its entry deleted": (_last_action_deleted, "rolled back"),
    "the last entry rewritten, its digest recomputed": (_last_entry_rewritten, "rewritten"),
    "500 votes added, canvass digest and chain recomputed": (_canvass_plus_500, "rewritten"),
    "an appended entry claiming this workstation": (
        lambda c: _forged_entry(c, same_writer=True), "never wrote it"),
}


def _tamper(path: Path, how: Callable[[sqlite3.Connection], None]) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        how(conn)
    finally:
        conn.close()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", list(KINDS), ids=list(KINDS))
def test_tampering_is_reported_by_verify_opening_and_the_report(case: Path, kind: str,
                                                                tmp_path: Path) -> None:
    how, expected = KINDS[kind]
    _tamper(case, how)
    before = _sha(case)
    result = verify_case(case)
    assert not result.ok
    assert expected in result.summary(), result.summary()
    assert _sha(case) == before  # verify changes nothing
    problems = check_after_open(case)  # what the window runs once a case is shown
    assert any(expected in p for p in problems), problems
    with open_case(case, readonly=True) as c, pytest.raises(report.ReportNotReady,
                                                             match=expected):
        report.make_report(c, report.default_contest(c, demo=True) or 0,
                           tmp_path / "r.pdf")
    assert not (tmp_path / "r.pdf").exists()
    assert _sha(case) == before


def test_an_older_copy_put_back_is_a_rollback(case: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.recount"
    shutil.copy(case, older)
    with open_case(case, actor=SUPERVISOR) as c:
        rid = contests.overview(c)[0].id
        contests.record_request(
            c, rid, requester=Requester.CANDIDATE, candidate=None, voters=[],
            filed_at=datetime(2018, 11, 21, 9, 5), filed_with=Office.COUNTY_CLERK,
            override_reason="acknowledged work")
    assert verify_case(case).ok
    shutil.copy(older, case)
    for suffix in ("-wal", "-shm"):
        Path(str(case) + suffix).unlink(missing_ok=True)
    result = verify_case(case)
    assert not result.ok and "rolled back" in result.summary()


def test_a_rollback_is_found_through_a_backup_when_the_data_folder_record_is_gone(
        case: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.recount"
    shutil.copy(case, older)
    with open_case(case, actor=SUPERVISOR) as c:
        rid = contests.overview(c)[0].id
        contests.record_request(
            c, rid, requester=Requester.CANDIDATE, candidate=None, voters=[],
            filed_at=datetime(2018, 11, 21, 9, 5), filed_with=Office.COUNTY_CLERK,
            override_reason="acknowledged work")
    assert check_after_open(case) == []  # sound: a backup is kept
    shutil.rmtree(tmp_path / "data" / "anchors")
    shutil.copy(older, case)
    result = verify_case(case)
    assert not result.ok and "the backup" in result.summary(), result.summary()


def test_an_entry_written_elsewhere_is_named_but_not_called_forged(case: Path) -> None:
    _tamper(case, lambda c: _forged_entry(c, same_writer=False))
    result = verify_case(case)
    assert result.ok  # an offline workstation cannot tell another workstation from a forger
    assert "not written on this workstation" in result.summary()


def test_a_case_seen_on_no_workstation_is_checked_by_what_it_holds(case: Path,
                                                                  tmp_path: Path) -> None:
    """On another workstation (no record, no backups) the chain and digests still hold,
    and a rollback cannot be seen: what the README says verify cannot prove."""
    os.environ["RECOUNT_DESK_DATA"] = str(tmp_path / "elsewhere")
    _tamper(case, _last_action_deleted)
    assert verify_case(case).ok


def test_the_report_prints_the_chain_head_on_every_page(case: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader

    with open_case(case, actor=SUPERVISOR) as c:
        last = store.last_entry(c.conn)  # the head the report is made from (not a report)
        assert last is not None and last.action != report.GENERATED
        res = report.make_report(c, report.default_contest(c, demo=True) or 0,
                                 tmp_path / "r.pdf")
    assert last is not None
    pages = PdfReader(res.path).pages
    head = last.hash[:8]
    assert len(pages) > 1
    assert all(head in (p.extract_text() or "").replace("\n", "") for p in pages)
