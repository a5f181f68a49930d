"""The case file: creation, refusal of foreign or damaged files, audit and verify."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions.canvass import ImportRefused, import_canvass, read_file
from recount_desk.actions.case import create_case, open_case
from recount_desk.actions.contests import overview, set_contest_settings
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import Election, ElectionKind, PassRule, Scope, VotingMethod
from recount_desk.store import repo
from tests.store.outside import is_server, outside_edit

GRAND = Path(__file__).parents[1] / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"
ELECTION = Election("2018 General", date(2018, 11, 6), ElectionKind.GENERAL, "Grand County",
                    datetime(2018, 11, 20, 10, 0), "Clerk")


@pytest.fixture
def case_path(new_case_at) -> Path:  # type: ignore[no-untyped-def]
    """The Grand County case, on each engine (a case file; a database on the test server)."""
    path = new_case_at("grand.recount")
    with create_case(path, ELECTION) as case:
        import_canvass(case, read_file(GRAND))
    return path  # type: ignore[no-any-return]


@pytest.fixture
def file_path(tmp_path: Path) -> Path:
    """The Grand County case as a case file (for what only a file has)."""
    path = tmp_path / "grand.recount"
    with create_case(path, ELECTION) as case:
        import_canvass(case, read_file(GRAND))
    return path


def test_case_file_holds_election_and_canvass(case_path: Path) -> None:
    with open_case(case_path) as case:
        assert case.election == ELECTION
        rows = overview(case)
        # The file calls Grand's U.S. House race district 1; the case keeps it as read and
        # the overview names it by the district table (Grand lies only in district 3).
        assert [sc.totals.contest.key.label() for sc in repo.contests(case.conn)] == [
            "U.S. Senate", "U.S. House — District 1", "State House — District 69",
            "State House — District 70"]
        assert [r.check.totals.contest.key.label() for r in rows] == [
            "U.S. Senate", "U.S. House — District 3", "State House — District 69",
            "State House — District 70"]
        hd69 = rows[2].check
        assert {c.choice.name: c.votes for c in hd69.totals.choices} == {
            "Tim Glenn": 843, "Christine Watkins": 841}
        names, choices, table = repo.precinct_table(case.conn, rows[2].id)
        assert len(names) == 8
        assert set(choices) == {"Tim Glenn", "Christine Watkins"}
        assert sum(r[choices.index("Tim Glenn")] for r in table) == 843
    assert verify_case(case_path).ok


def test_journal_and_durability_settings(file_path: Path) -> None:
    with open_case(file_path) as case:
        assert case.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert case.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert case.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_every_action_appends_one_audit_entry(case_path: Path) -> None:
    with open_case(case_path) as case:
        before = len(list(store.audit_entries(case.conn)))
        rid = overview(case)[2].id
        set_contest_settings(case, rid, seats=1, scope=Scope.MULTICOUNTY,
                             voting_method=VotingMethod.PLURALITY, pass_rule=PassRule.MAJORITY)
        entries = list(store.audit_entries(case.conn))
        assert len(entries) == before + 1
        assert entries[-1].action == "change contest settings"
    assert verify_case(case_path).ok


def test_second_import_is_refused_unless_replace(case_path: Path) -> None:
    with open_case(case_path) as case:
        with pytest.raises(ImportRefused, match="already holds"):
            import_canvass(case, read_file(GRAND))
        import_canvass(case, read_file(GRAND), replace=True)
        assert len(overview(case)) == 4
    assert verify_case(case_path).ok


def test_failed_action_leaves_the_case_as_it_was(case_path: Path) -> None:
    with open_case(case_path) as case:
        n = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        def bad_action() -> None:
            with store.transaction(case.conn, "t", "bad") as payload:
                payload["x"] = 1
                case.conn.execute("UPDATE contest SET seats=0")  # violates CHECK

        with pytest.raises(sqlite3.IntegrityError):
            bad_action()
        assert case.conn.execute("SELECT count(*) FROM audit").fetchone()[0] == n
        assert case.conn.execute("SELECT min(seats) FROM contest").fetchone()[0] == 1


@pytest.mark.parametrize(
    ("sql", "pg_sql", "message"),
    [
        ("UPDATE canvass_column SET votes = zeroblob(length(votes)) WHERE choice_id = 7",
         "UPDATE canvass_column SET votes = decode(repeat('00', length(votes)), 'hex') "
         "WHERE choice_id = 7", "canvass votes were changed"),
        ("UPDATE choice SET canvass_total = 900 WHERE name = 'Tim Glenn'", None,
         "changed outside Recount Desk"),
        ("DELETE FROM precinct WHERE id = 18",
         "SET session_replication_role = replica; DELETE FROM precinct WHERE id = 18",
         "changed outside Recount Desk"),
        ("DROP TRIGGER audit_no_update; UPDATE audit SET actor = 'x' WHERE seq = 1",
         "DROP TRIGGER audit_no_update ON audit; UPDATE audit SET actor = 'x' WHERE seq = 1",
         "audit entry 1 is broken"),
        ("DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE seq = 1",
         "DROP TRIGGER audit_no_delete ON audit; DELETE FROM audit WHERE seq = 1",
         "audit entry 2 is broken"),
    ],
    ids=["vote", "total", "deleted-row", "audit-edited", "audit-deleted"],
)
def test_verify_detects_a_hand_edit(case_path: Path, sql: str, pg_sql: str | None,
                                    message: str) -> None:
    outside_edit(case_path, sql, pg_sql)
    result = verify_case(case_path)
    assert not result.ok
    assert message in result.summary()


def test_audit_log_is_append_only(case_path: Path) -> None:
    if is_server(case_path):
        import psycopg

        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            outside_edit(case_path, "UPDATE audit SET actor='x'")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            outside_edit(case_path, "TRUNCATE audit")
        return
    conn = sqlite3.connect(case_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE audit SET actor='x'")
    conn.close()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"county,precinct\n", "not a Recount Desk case file"),
        (b"", "not a Recount Desk case file"),
        (b"SQLite format 3\x00" + b"\x00" * 200, "damaged"),
    ],
    ids=["csv", "empty", "truncated-sqlite"],
)
def test_foreign_or_damaged_files_are_refused(tmp_path: Path, content: bytes,
                                              message: str) -> None:
    p = tmp_path / "x.recount"
    p.write_bytes(content)
    with pytest.raises(store.CaseFileError, match=message):
        open_case(p)


def test_other_sqlite_database_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "other.db"
    sqlite3.connect(p).execute("CREATE TABLE t(x)").connection.commit()
    with pytest.raises(store.CaseFileError, match="not a Recount Desk case file"):
        open_case(p)


def test_newer_version_is_refused(case_path: Path) -> None:
    outside_edit(case_path, "PRAGMA user_version=999",
                 "UPDATE rd_case SET schema_version = 999")
    with pytest.raises(store.CaseFileError, match="newer version"):
        open_case(case_path)


def test_replacing_canvass_is_refused_once_a_recount_started() -> None:
    from recount_desk.actions.demo import open_demo_case

    with open_demo_case() as case, pytest.raises(ImportRefused, match="recount has been started"):
        import_canvass(case, read_file(GRAND), replace=True)


def test_a_creation_cut_short_leaves_no_half_case(tmp_path: Path) -> None:
    """A crash after the schema but before the first audited action (the election) commits
    nothing: the file is refused plainly, never opened as a case without its first entry."""
    p = tmp_path / "cut.recount"
    conn = store.create(p)
    conn.close()  # as if the program died here: the open transaction is lost
    with pytest.raises(store.CaseFileError, match="not a Recount Desk case file"):
        open_case(p)
