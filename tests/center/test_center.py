"""The counting center: a case on a PostgreSQL server, several stations at once (issue 18).

Every test here runs against a real server (the session's throwaway cluster, or
``RECOUNT_DESK_TEST_PG``): see tests/pg_cluster.py."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from recount_desk import cli, store
from recount_desk.actions import case as case_actions
from recount_desk.actions import center
from recount_desk.actions import recount as rc
from recount_desk.actions.case import open_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet
from tests.actions.test_recount_actions import RACE, make_case


def sheet(ada: int, ben: int) -> TallySheet:
    return TallySheet(ada + ben, {"Ada": ada, "Ben": ben}, 0, 0, 0)


@pytest.fixture
def url(pg_server) -> str:  # type: ignore[no-untyped-def]
    """A case on the server: the test county's election, its recount started (double entry,
    the three precincts as units), the roster tester (officer), Dana, Marcus, Sup."""
    where = pg_server.new_database()
    with make_case(where) as case:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT,
                         entry_mode=EntryMode.DOUBLE)
    return str(where)


def test_the_demo_case_goes_to_the_server_and_back_with_the_same_state_digest(
        pg_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from recount_desk.actions.demo import open_demo_case

    with open_demo_case() as demo:
        path = Path(demo.path)
        digest = store.state_digest(demo.conn)
        head = store.last_entry(demo.conn)
        canvass = store.stored_canvass_digest(demo.conn)
    url = pg_server.new_database()
    pushed = center.push(path, url)
    assert (pushed.digest, pushed.head) == (digest, head.hash if head else "")
    back = tmp_path / "back.recount"
    pulled = center.pull(url, back)
    assert (pulled.digest, pulled.head, pulled.entries) == (digest, pushed.head,
                                                            pushed.entries)
    for where in (url, back):
        assert verify_case(where).ok, verify_case(where).problems
        with open_case(where, readonly=True) as case:
            assert store.state_digest(case.conn) == digest
            assert store.stored_canvass_digest(case.conn) == canvass
            assert store.last_entry(case.conn) == head
    # The work goes on on the server: the case there is the same case, as a station sees it.
    with open_case(url) as case:
        assert case.on_server and case.roster.election_officer is not None


def test_push_and_pull_refuse_what_they_cannot_do_and_write_nothing(
        pg_server, tmp_path: Path, url: str) -> None:  # type: ignore[no-untyped-def]
    file = tmp_path / "t.recount"
    with make_case(file):
        pass
    with pytest.raises(store.CaseFileError, match="already holds a case"):
        center.push(file, url)
    taken = tmp_path / "taken.recount"
    taken.write_text("x")
    with pytest.raises(center.MoveRefused, match="already exists"):
        center.pull(url, taken)
    assert taken.read_text() == "x"
    with pytest.raises(center.MoveRefused, match="postgresql://"):
        center.push(url, file)
    # A case changed outside Recount Desk is not spread further.
    from tests.store.outside import outside_edit

    outside_edit(url, "UPDATE election SET name = 'Forged'")
    with pytest.raises(center.MoveRefused, match="does not verify"):
        center.pull(url, tmp_path / "forged.recount")
    assert not (tmp_path / "forged.recount").exists()


def test_the_command_line_takes_a_url_wherever_it_takes_a_case(
        pg_server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    url = pg_server.new_database()
    assert cli.main(["new", url, "--name", "2024 General", "--date", "2024-11-05",
                     "--kind", "general", "--jurisdiction", "Test County",
                     "--officer", "Test Clerk"]) == 0
    assert cli.main(["status", url]) == 0
    assert cli.main(["verify", url]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "password" not in out
    back = tmp_path / "back.recount"
    assert cli.main(["pull", url, str(back)]) == 0
    assert "the same on both sides" in capsys.readouterr().out
    other = pg_server.new_database()
    assert cli.main(["push", str(back), other]) == 0
    assert cli.main(["verify", other]) == 0
    capsys.readouterr()
    assert cli.main(["status", pg_server.url("no_such_database")]) == 1
    err = capsys.readouterr().err
    assert "Cannot connect" in err and "Traceback" not in err


def test_a_station_joins_as_a_person_of_the_roster(url: str) -> None:
    with pytest.raises(case_actions.WhoAreYou):
        open_case(url, actor="Somebody Else")
    with open_case(url, actor="Dana") as case:
        assert case.person is not None and case.person.name == "Dana"
        with pytest.raises(case_actions.RosterRefused, match="Only the election officer"):
            case_actions.add_person(case, "Eve", case_actions.Role.DEPUTY)


def test_stations_enter_at_once_and_the_chain_stays_one_chain(url: str) -> None:
    """Four stations (each its own connection) enter the three units' first and second
    entries at once, many times over: every save is one audit entry, numbered one after
    another, and verify passes."""
    with open_case(url) as case:
        before = center.latest_entry(case)
    errors: list[BaseException] = []
    saves = [0]
    lock = threading.Lock()

    def work(person: str, entry: int, rounds: int) -> None:
        try:
            with open_case(url, actor=person) as case:
                for i in range(rounds):
                    for unit in ("P1", "P2", "P3"):
                        rc.enter_tally(case, RACE, unit, entry=entry, officer=person,
                                       sheet=sheet(10 + i, 9))
                        with lock:
                            saves[0] += 1
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=a) for a in
               (("Dana", 1, 6), ("Marcus", 2, 6), ("Sup", 1, 6), ("tester", 2, 6))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with open_case(url, readonly=True) as case:
        entries = list(store.audit_entries(case.conn))
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert len(entries) == before + saves[0] == before + 72
        assert sum(e.action == "enter tally" for e in entries) == 72
    assert verify_case(url).ok


def test_a_unit_taken_by_another_station_meanwhile_is_refused_not_overwritten(
        url: str) -> None:
    with open_case(url, actor="Dana") as a, open_case(url, actor="Marcus") as b:
        rc.enter_tally(a, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9),
                       expect_new=True)
        # Marcus's list still showed P1 free: his save is refused, Dana's stays.
        with pytest.raises(rc.AlreadyEntered, match="Dana"):
            rc.enter_tally(b, RACE, "P1", entry=1, officer="Marcus", sheet=sheet(1, 1),
                           expect_new=True)
        assert rc.entry_of(b, RACE, "P1", 1).officer == "Dana"  # type: ignore[union-attr]
        # The blind second entry, from the other station: it never showed entry 1.
        rc.enter_tally(b, RACE, "P1", entry=2, officer="Marcus", sheet=sheet(10, 8),
                       expect_new=True)
        assert {(d.label, d.first, d.second) for d in rc.differences(a, RACE, "P1")} == {
            ("Ben", 9, 8), ("Ballots counted", 19, 18)}
    assert verify_case(url).ok


def test_each_station_sees_the_others_work(url: str) -> None:
    with open_case(url, actor="Dana") as a, open_case(url, actor="Marcus") as b:
        seen = center.latest_entry(b)
        rc.enter_tally(a, RACE, "P2", entry=1, officer="Dana", sheet=sheet(10, 10))
        assert center.latest_entry(b) == seen + 1
        rows = {r.name: r for r in rc.unit_list(b, RACE)}
        assert rows["P2"].first_officer == "Dana"


def test_a_lost_connection_saves_nothing_loses_nothing_and_says_so(
        pg_server, url: str) -> None:  # type: ignore[no-untyped-def]
    with open_case(url, actor="Dana") as case:
        rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        done = center.latest_entry(case)
        database = url.rsplit("/", 1)[1]
        pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                        f"datname = '{database}' AND pid <> pg_backend_pid()")
        with pytest.raises(case_actions.ServerUnavailable, match="NOT saved") as lost:
            rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=sheet(3, 3))
        assert center.connection_lost(lost.value)
        center.reconnect(case)
        assert case.person is not None and case.person.name == "Dana"
        assert center.latest_entry(case) == done  # the refused save left no trace
        assert rc.entry_of(case, RACE, "P1", 1) is not None  # the acknowledged one is there
        assert rc.entry_of(case, RACE, "P2", 1) is None
        rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=sheet(3, 3))
    assert verify_case(url).ok


@pytest.mark.parametrize("ddl", [
    "CREATE FUNCTION plus50() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "NEW.votes := NEW.votes + 50; RETURN NEW; END $$; CREATE TRIGGER plus50 BEFORE INSERT "
    "ON tally_vote FOR EACH ROW EXECUTE FUNCTION plus50()",
    "ALTER TABLE audit DISABLE TRIGGER audit_no_update",
    "ALTER TABLE tally_vote ADD COLUMN extra BIGINT",
    "CREATE RULE no_votes AS ON INSERT TO tally_vote DO INSTEAD NOTHING",
], ids=["planted-trigger", "guard-disabled", "added-column", "rewrite-rule"])
def test_a_schema_changed_on_the_server_while_a_station_works_is_refused(
        url: str, ddl: str) -> None:
    """DDL fires no trigger: the cheap check compares the schema too, so the next action is
    checked in full and refused, never absorbed."""
    from tests.store.outside import outside_edit

    with open_case(url, actor="Dana") as case:
        rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        before = center.latest_entry(case)
        outside_edit(url, ddl)
        with pytest.raises(store.CaseChangedOutside, match=r"schema|guard"):
            rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=sheet(10, 9))
        assert center.latest_entry(case) == before
    assert not verify_case(url).ok


def test_the_readme_set_up_works_a_station_role_that_owns_nothing(
        pg_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """As README's "Setting up the server": the officer's role owns the database and pushes
    the case; the stations' role, granted only reads and writes of rows, enters tallies and
    cannot change the schema nor the log."""
    import uuid

    import psycopg

    tag = uuid.uuid4().hex[:8]
    clerk, station, db = f"clerk_{tag}", f"station_{tag}", f"slco_{tag}"
    pg_server.admin(f"CREATE ROLE {clerk} LOGIN")
    pg_server.admin(f"CREATE ROLE {station} LOGIN")
    pg_server.admin(f"CREATE DATABASE {db} OWNER {clerk} ENCODING 'UTF8' TEMPLATE template0")
    base = pg_server.url(db)
    as_clerk = base.replace("postgres@", f"{clerk}@", 1)
    as_station = base.replace("postgres@", f"{station}@", 1)
    file = tmp_path / "slco.recount"
    with make_case(file) as case:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    center.push(file, as_clerk)
    with psycopg.connect(as_clerk, autocommit=True) as c:
        c.execute(f"GRANT CONNECT ON DATABASE {db} TO {station}")
        c.execute(f"GRANT USAGE ON SCHEMA public TO {station}")
        c.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "
                  f"{station}")
    with open_case(as_station, actor="Dana") as case:
        rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
    with psycopg.connect(as_station, autocommit=True) as c:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            c.execute("ALTER TABLE audit DISABLE TRIGGER audit_no_update")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            c.execute("DELETE FROM audit")
    assert verify_case(as_station).ok


def _count_full_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from recount_desk.store import db

    calls: list[int] = []
    real = db.row_sums

    def counted(conn: object) -> dict[str, int]:
        calls.append(1)
        return real(conn)  # type: ignore[arg-type]

    monkeypatch.setattr(db, "row_sums", counted)
    return calls


def test_stations_saving_in_turn_add_the_logged_rows_and_read_no_table_in_full(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each station checks the case in full once; after that its saves bring its sums up to
    date from the rows logged since (the others' and its own), reading no table in full, and
    the digest each save records is the one computed from every row."""
    from recount_desk.store import db

    with open_case(url, actor="Dana") as a, open_case(url, actor="Marcus") as b:
        rc.enter_tally(a, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        rc.enter_tally(b, RACE, "P1", entry=2, officer="Marcus", sheet=sheet(10, 8))
        calls = _count_full_reads(monkeypatch)
        rc.enter_tally(a, RACE, "P2", entry=1, officer="Dana", sheet=sheet(12, 9))
        rc.enter_tally(b, RACE, "P2", entry=2, officer="Marcus", sheet=sheet(12, 9))
        rc.resolve_mismatch(a, RACE, "P1", kind=rc.ResolutionKind.KEEP_FIRST, by="Sup",
                            note="Tape re-read")
        rc.enter_tally(b, RACE, "P3", entry=1, officer="Marcus", sheet=sheet(5, 5))
        rc.enter_tally(b, RACE, "P3", entry=1, officer="Marcus", sheet=sheet(5, 6))
        rc.enter_tally(a, RACE, "P3", entry=2, officer="Dana", sheet=sheet(5, 6))
        assert calls == []
        monkeypatch.undo()
        assert a.conn.sums[1] == db.row_sums(a.conn)  # type: ignore[attr-defined]
        rc.enter_tally(b, RACE, "P2", entry=2, officer="Marcus", sheet=sheet(12, 8))
        assert b.conn.sums[1] == db.row_sums(b.conn)  # type: ignore[attr-defined]
    assert verify_case(url).ok


@pytest.mark.parametrize("edit", [
    "UPDATE rd_row_log SET vals = replace(vals, '\"votes\":9', '\"votes\":99') "
    "WHERE tbl = 'tally_vote'",
    "DELETE FROM rd_row_log WHERE tbl = 'tally_vote'",
    "INSERT INTO rd_row_log(seq, tx, tbl, sign, vals) SELECT max(seq), 0, 'meta', 1, "
    "'{\"key\":\"planted\",\"value\":\"x\"}' FROM audit",
], ids=["changed-row", "rows-removed", "row-added"])
def test_an_edited_row_log_is_never_trusted(url: str, edit: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The log only saves reading every row: what a station reads there must lead to the
    state digest the chain recorded, or it computes the sums from every row."""
    from recount_desk.store import db
    from tests.store.outside import outside_edit

    with open_case(url, actor="Dana") as a, open_case(url, actor="Marcus") as b:
        rc.enter_tally(a, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        rc.enter_tally(b, RACE, "P1", entry=2, officer="Marcus", sheet=sheet(10, 9))
        rc.enter_tally(a, RACE, "P2", entry=1, officer="Dana", sheet=sheet(10, 9))
        outside_edit(url, edit)  # the log is the server's bookkeeping, not the case
        calls = _count_full_reads(monkeypatch)
        rc.enter_tally(b, RACE, "P2", entry=2, officer="Marcus", sheet=sheet(10, 9))
        assert calls == [1]
        monkeypatch.undo()
        assert b.conn.sums[1] == db.row_sums(b.conn)  # type: ignore[attr-defined]
    assert verify_case(url).ok


def test_a_station_hears_each_save_as_it_is_committed(  # type: ignore[no-untyped-def]
        url: str, pg_server, tmp_path: Path) -> None:
    """The server announces every audited commit (NOTIFY): a station's watcher says so at
    once, without waiting and without reading the case; a rolled-back action says nothing."""
    import select

    with open_case(url, actor="Dana") as a, open_case(url, actor="Marcus") as b:
        watcher = center.watch_saves(b)
        assert watcher is not None
        try:
            assert not watcher.heard()
            rc.enter_tally(a, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
            ready, _, _ = select.select([watcher.fileno()], [], [], 10)
            assert ready and watcher.heard()
            assert not watcher.heard()  # each save is heard once
            with pytest.raises(rc.RecountError):  # refused: nothing was saved, nothing said
                rc.enter_tally(a, RACE, "P9", entry=1, officer="Dana", sheet=sheet(1, 1))
            assert not select.select([watcher.fileno()], [], [], 0.3)[0] or not watcher.heard()
            database = url.rsplit("/", 1)[1]
            pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                            f"datname = '{database}' AND application_name LIKE "
                            "'%listening%'")
            select.select([watcher.fileno()], [], [], 10)
            with pytest.raises(store.ServerUnavailable):
                watcher.heard()
        finally:
            watcher.close()
    with make_case(tmp_path / "t.recount") as local:
        assert center.watch_saves(local) is None


def test_a_case_made_before_the_row_log_gets_it_at_open_and_verifies(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server case made by an earlier version (no rd_row_log) is read as it is, gets the
    log when opened for writing, and its saves then read no table in full."""
    from recount_desk.store import pg
    from tests.store.outside import outside_edit

    outside_edit(url, "; ".join(
        [f"DROP TRIGGER {t}_logged ON {t}" for t in pg.logged_tables()]
        + ["DROP FUNCTION rd_log_row()", "DROP TABLE rd_row_log"]))
    assert verify_case(url).ok  # the older layout is sound as it is
    with open_case(url, actor="Dana") as a:
        rc.enter_tally(a, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        calls = _count_full_reads(monkeypatch)
        rc.enter_tally(a, RACE, "P2", entry=1, officer="Dana", sheet=sheet(10, 9))
        assert calls == []
        monkeypatch.undo()
    assert verify_case(url).ok


def test_the_row_log_added_to_an_older_case_is_granted_to_the_stations_role(
        pg_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import uuid

    import psycopg

    from recount_desk.store import pg

    tag = uuid.uuid4().hex[:8]
    clerk, station, db = f"clerk_{tag}", f"station_{tag}", f"old_{tag}"
    pg_server.admin(f"CREATE ROLE {clerk} LOGIN")
    pg_server.admin(f"CREATE ROLE {station} LOGIN")
    pg_server.admin(f"CREATE DATABASE {db} OWNER {clerk} ENCODING 'UTF8' TEMPLATE template0")
    base = pg_server.url(db)
    as_clerk = base.replace("postgres@", f"{clerk}@", 1)
    as_station = base.replace("postgres@", f"{station}@", 1)
    file = tmp_path / "old.recount"
    with make_case(file) as case:
        rc.start_recount(case, RACE, method=RecountMethod.HAND_COUNT)
    center.push(file, as_clerk)
    with psycopg.connect(as_clerk, autocommit=True) as c:
        for t in pg.logged_tables():  # as an earlier version made it
            c.execute(f"DROP TRIGGER {t}_logged ON {t}")
        c.execute("DROP FUNCTION rd_log_row()")
        c.execute("DROP TABLE rd_row_log")
        c.execute(f"GRANT CONNECT ON DATABASE {db} TO {station}")
        c.execute(f"GRANT USAGE ON SCHEMA public TO {station}")
        c.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "
                  f"{station}")
    with open_case(as_clerk, actor="tester"):
        pass  # the officer opens it: the log is added
    with open_case(as_station, actor="Dana") as case:
        rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=sheet(10, 9))
        rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=sheet(10, 9))
    assert verify_case(as_station).ok
