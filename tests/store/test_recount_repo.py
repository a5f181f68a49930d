"""store.recount_repo and schema V2: migration from V1, and the recount tables' round trips."""

from __future__ import annotations

import functools
import hashlib
import sqlite3
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk import store
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import (
    Choice,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestTotals,
    Election,
    ElectionKind,
    VoteColumn,
)
from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    BoardRole,
    CostItem,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeVotes,
    Lot,
    RecountMethod,
    RecountUnit,
    RejectionReason,
    Resolution,
    ResolutionKind,
    TallyEntry,
    TallySheet,
    UnitKind,
)
from recount_desk.store import db, repo
from recount_desk.store import recount_repo as rr
from recount_desk.store.db import _statements
from recount_desk.store.migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

V2_TABLES = {"recount", "recount_unit", "unit_precinct", "tally_entry", "tally_vote",
             "tally_resolution", "resolution_vote", "witness", "envelope", "envelope_check",
             "envelope_decision", "envelope_vote", "declaration", "lot", "cost_item",
             "board_member", "board_convening", "recount_signing", "recount_reopen"}


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


@contextmanager
def old_state_digest() -> Iterator[None]:
    """Audit entries written as case formats 1 and 2 wrote them (state hashed row by row)."""
    real = db.state_parts
    db.state_parts = functools.partial(real, per_row=True)  # type: ignore[assignment]
    try:
        yield
    finally:
        db.state_parts = real  # type: ignore[assignment]


def make_v1_file(path: Path) -> None:
    """A case file as version 1 wrote it: the V1 schema, one audited election."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("BEGIN IMMEDIATE")
    for stmt in _statements(MIGRATIONS[0]):
        conn.execute(stmt)
    conn.execute("PRAGMA user_version=1")
    conn.execute("INSERT INTO meta(key, value) VALUES ('created_at', '2024-01-01T00:00:00')")
    conn.execute("COMMIT")
    with old_state_digest(), store.transaction(conn, "v1", "create case") as payload:
        repo.set_election(payload, Election("Old", date(2022, 11, 8), ElectionKind.GENERAL,
                                         "Old County"))
        payload["name"] = "Old"
    conn.close()


def test_schema_version_is_nine() -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) == 10


def test_v1_file_migrates_to_the_current_format_with_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "old.recount"
    make_v1_file(path)
    conn = store.open_case(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert tables(conn) >= V2_TABLES
        assert repo.get_election(conn) is not None
        last = store.last_entry(conn)
        assert last is not None
        assert last.action == "migrate case file"
    finally:
        conn.close()
    backups = [p for p in tmp_path.iterdir() if "v1" in p.name and "backup" in p.name]
    assert backups
    old = sqlite3.connect(str(backups[0]))
    assert old.execute("PRAGMA user_version").fetchone()[0] == 1
    assert not V2_TABLES & tables(old)
    old.close()
    assert verify_case(path).ok


@pytest.fixture
def conn(new_case_at) -> sqlite3.Connection:  # type: ignore[no-untyped-def]
    """A case with one contest, on each engine (a file; a database on the test server)."""
    c = store.create(new_case_at("r.recount"))
    race = ContestTotals(Contest(ContestKey("Mayor")),
                         (ChoiceTotal(Choice("Ada"), 3), ChoiceTotal(Choice("Ben"), 2)), {}, 2)
    with store.transaction(c, "t", "import canvass") as tx:
        repo.set_election(tx, Election("E", date(2024, 11, 5), ElectionKind.GENERAL, "C"))
        repo.insert_canvass(tx, file="f", sha256="0", family="t", imported_at="now",
                            primary=False, precincts=["P1", "P2"], totals=[race],
                            columns=[VoteColumn(0, 0, [1, 2], [2, 1]),
                                     VoteColumn(0, 1, [1, 2], [1, 1])], extras=[], issues=[])
    yield c  # type: ignore[misc]
    c.close()


def write(conn: sqlite3.Connection, fn):  # type: ignore[no-untyped-def]
    with store.transaction(conn, "t", "test write") as tx:
        return fn(tx)


def test_contest_precincts_and_canvass(conn: sqlite3.Connection) -> None:
    assert rr.contest_precincts(conn, 1) == ["P1", "P2"]
    assert rr.canvass_by_precinct(conn, 1) == {"P1": {"Ada": 2, "Ben": 1},
                                               "P2": {"Ada": 1, "Ben": 1}}
    assert rr.choice_ids(conn, 1) == {"Ada": 1, "Ben": 2}


def _start(conn: sqlite3.Connection) -> list[int]:
    return write(conn, lambda tx: rr.save_recount(  # type: ignore[no-any-return]
        tx, 1, method=RecountMethod.HAND_COUNT, entry_mode=EntryMode.DOUBLE,
        unit_kind=UnitKind.BATCHES, units=[RecountUnit("All", ("P1", "P2"))],
        started_at="now", started_by="t"))


def test_units_and_settings_round_trip(conn: sqlite3.Connection) -> None:
    (uid,) = _start(conn)
    got = rr.get_recount(conn, 1)
    assert got is not None
    assert (got.method, got.entry_mode, got.unit_kind) == (
        RecountMethod.HAND_COUNT, EntryMode.DOUBLE, UnitKind.BATCHES)
    assert [(u.id, u.unit) for u in rr.units(conn, 1)] == [(uid, RecountUnit("All",
                                                                           ("P1", "P2")))]
    with pytest.raises(sqlite3.IntegrityError):
        write(conn, lambda tx: rr.save_recount(tx,
            1, method=RecountMethod.HAND_COUNT, entry_mode=EntryMode.DOUBLE,
            unit_kind=UnitKind.BATCHES,
            units=[RecountUnit("A", ("P1",)), RecountUnit("B", ("P1",))],
            started_at="now", started_by="t"))


@pytest.mark.parametrize("units", [
    [RecountUnit("All", ("P1", "P2"))],
    [RecountUnit("B", ("P2",)), RecountUnit("A", ("P1",))],
    [RecountUnit("A", ("P1",)), RecountUnit("B", ("P2", "P1"))][1:],
], ids=["one-batch", "one-precinct-each", "batch-out-of-order"])
def test_the_unit_table_is_the_units_as_columns(conn: sqlite3.Connection,
                                                units: list[RecountUnit]) -> None:
    write(conn, lambda tx: rr.save_recount(
        tx, 1, method=RecountMethod.RETABULATION, entry_mode=EntryMode.DOUBLE,
        unit_kind=UnitKind.BATCHES, units=units, started_at="now", started_by="t"))
    table = rr.unit_table(conn, 1)
    stored = rr.units(conn, 1)
    assert list(table.ids) == [u.id for u in stored]
    assert list(table.units.names) == [u.unit.name for u in stored]
    assert [tuple(p) for p in table.units.precincts] == [u.unit.precincts for u in stored]
    assert rr.contest_canvass_columns(conn, 1)[1].votes == {
        "Ada": {"P1": 2, "P2": 1}, "Ben": {"P1": 1, "P2": 1}}
    assert rr.precinct_name_map(conn) == repo.precinct_names(conn)
    # units whose places tie, or that come in another order than their ids
    write(conn, lambda tx: tx.execute("UPDATE recount_unit SET position = 7 - id"))
    write(conn, lambda tx: tx.execute("UPDATE recount_unit SET position = 0 WHERE id = "
                                      "(SELECT min(id) FROM recount_unit)"))
    table = rr.unit_table(conn, 1)
    stored = rr.units(conn, 1)
    assert sorted(u.position for u in stored) == [u.position for u in stored]
    assert list(table.ids) == [u.id for u in sorted(stored, key=lambda u: (u.position, u.id))]
    assert [tuple(p) for p in table.units.precincts] == [
        u.unit.precincts for u in sorted(stored, key=lambda u: (u.position, u.id))]


def test_entries_supersede_and_keep_none(conn: sqlite3.Connection) -> None:
    (uid,) = _start(conn)
    cids = rr.choice_ids(conn, 1)
    first = TallySheet(5, {"Ada": 3, "Ben": None}, 0, 0, 0)
    write(conn, lambda tx: rr.add_entry(tx, uid, TallyEntry(1, "D", first), cids, "t1", "t"))
    again = TallySheet(5, {"Ada": 3, "Ben": 2}, 0, 0, 0)
    e1 = write(conn, lambda tx: rr.add_entry(tx, uid, TallyEntry(1, "D", again), cids, "t2",
                                          "t"))
    cur = rr.current_entries(conn, 1)
    assert cur[uid][1].id == e1
    assert cur[uid][1].entry.sheet == again
    history = conn.execute("SELECT count(*) FROM tally_entry").fetchone()[0]
    assert history == 2
    stored_none = conn.execute("SELECT votes FROM tally_vote WHERE entry_id=1 AND "
                               "choice_id=2").fetchone()[0]
    assert stored_none is None


def test_resolution_is_stale_after_a_new_entry(conn: sqlite3.Connection) -> None:
    (uid,) = _start(conn)
    cids = rr.choice_ids(conn, 1)
    a = TallySheet(5, {"Ada": 3, "Ben": 2}, 0, 0, 0)
    b = TallySheet(5, {"Ada": 2, "Ben": 3}, 0, 0, 0)
    e1 = write(conn, lambda tx: rr.add_entry(tx, uid, TallyEntry(1, "D", a), cids, "t", "t"))
    e2 = write(conn, lambda tx: rr.add_entry(tx, uid, TallyEntry(2, "M", b), cids, "t", "t"))
    write(conn, lambda tx: rr.add_resolution(tx,
        uid, e1, e2, Resolution(ResolutionKind.KEEP_FIRST, a, "S", "n"), cids, "t"))
    res = rr.current_resolutions(conn, 1, rr.current_entries(conn, 1))
    assert res[uid].resolution.sheet == a
    write(conn, lambda tx: rr.add_entry(tx, uid, TallyEntry(2, "M", a), cids, "t", "t"))
    assert rr.current_resolutions(conn, 1, rr.current_entries(conn, 1)) == {}


def test_envelopes_keep_the_latest_check_and_decision(conn: sqlite3.Connection) -> None:
    _start(conn)
    (eid,) = write(conn, lambda tx: rr.add_envelopes(tx, 1, [("E1", "P2", "Signature")],
                                                  "csv", "t", "t"))
    write(conn, lambda tx: rr.add_envelope_check(tx, eid, {EnvelopeCheck.SIGNATURE: False},
                                              None, None, "", "S", "t"))
    write(conn, lambda tx: rr.add_envelope_check(tx,
        eid, dict.fromkeys(EnvelopeCheck, True), date(2024, 11, 4),
        datetime(2024, 11, 5, 9), "ok", "S", "t"))
    cids = rr.choice_ids(conn, 1)
    write(conn, lambda tx: rr.add_envelope_decision(tx,
        eid, EnvelopeOutcome.REJECTED, RejectionReason.DEFECTIVE, "", None, cids, "S",
        "t"))
    write(conn, lambda tx: rr.add_envelope_decision(tx,
        eid, EnvelopeOutcome.ACCEPTED, None, "", EnvelopeVotes({"Ben": 1}), cids, "S",
        "t"))
    (env,) = rr.envelopes(conn, 1)
    assert env.record.checks[EnvelopeCheck.SIGNATURE] is True
    assert env.postmarked == date(2024, 11, 4)
    assert env.record.outcome is EnvelopeOutcome.ACCEPTED
    assert env.record.votes == EnvelopeVotes({"Ben": 1})
    with pytest.raises(sqlite3.IntegrityError):
        write(conn, lambda tx: rr.add_envelopes(tx, 1, [("E1", "P1", "again")], "hand", "t",
                                             "t"))


def test_declaration_lot_costs_board_signing(conn: sqlite3.Connection) -> None:
    did = write(conn, lambda tx: rr.add_declaration(tx,
        1, result="tie", elected=(), tied=("Ada", "Ben"), totals={"Ada": 2, "Ben": 2},
        text="tie", basis="20A-1-304", complete=True, override_reason=None, declared_by="t",
        declared_at="t"))
    lot = Lot("Clerk", datetime(2024, 11, 25, 10), "Room", "Hat", ("W",), ("Ada",))
    write(conn, lambda tx: rr.add_lot(tx, did, lot, date(2024, 11, 25), False, "20A-1-304"))
    d = rr.current_declaration(conn, 1)
    assert d is not None
    assert d.lot == lot
    assert d.tied == ("Ada", "Ben")
    write(conn, lambda tx: rr.withdraw_declaration(tx, 1))
    assert rr.current_declaration(conn, 1) is None

    cid = write(conn, lambda tx: rr.add_cost(tx, 1, CostItem(CostKind.STAFF, "x", 250, 100,
                                                            250), "t", "t"))
    assert rr.costs(conn, 1)[0].item.amount_cents == 250
    assert write(conn, lambda tx: rr.remove_cost(tx, 1, cid))
    assert rr.costs(conn, 1) == []

    members = [BoardMember("A", "Chair"), BoardMember("K", "Clerk", BoardRole.CLERK, True)]
    write(conn, lambda tx: rr.set_board_members(tx, 1, members))
    write(conn, lambda tx: rr.set_board_members(tx, 1, members[:1]))
    assert rr.board_members(conn, 1) == members[:1]
    write(conn, lambda tx: rr.set_convening(tx, 1, board_kind=BoardKind.COUNTY, body_size=3,
                                         convened_at=datetime(2024, 11, 26, 10), place="R",
                                         recorded_by="t", recorded_at="t"))
    conv = rr.convening(conn, 1)
    assert conv is not None
    assert conv.body_size == 3

    sid = write(conn, lambda tx: rr.add_signing(tx, 1, datetime(2024, 11, 26, 11), ["A"], "d",
                                             "t", "t"))
    signing = rr.active_signing(conn, 1)
    assert signing is not None
    assert signing.id == sid
    write(conn, lambda tx: rr.reopen(tx, 1, sid, "typo", "t", "t"))
    assert rr.active_signing(conn, 1) is None
    assert rr.reopen_log(conn, 1)[0].reason == "typo"


def test_v2_canvass_rows_become_columns_and_the_recorded_digest_still_verifies(
        tmp_path: Path) -> None:
    """A format-2 file kept one row per count; format 3 keeps a blob per choice. The digest
    recorded at import (computed the format-2 way, written out here) must still match."""
    path = tmp_path / "v2.recount"
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("BEGIN IMMEDIATE")
    for script in MIGRATIONS[:2]:
        for stmt in _statements(script):
            conn.execute(stmt)
    conn.execute("PRAGMA user_version=2")
    conn.execute("INSERT INTO meta(key, value) VALUES ('created_at', '2024-01-01T00:00:00')")
    conn.execute("COMMIT")
    # Mayor: Ada 3 (P1 2, P2 1), Ben 2 (P1 1, P3 1): Ben was not on P2's count.
    rows = [(1, 1, 2), (1, 2, 1), (2, 1, 1), (2, 3, 1)]
    extras = [(1, 1, "under", 4)]
    h = hashlib.sha256()
    for k in range(3):
        h.update(array("q", [r[k] for r in rows]).tobytes())
    h.update(b'[1,1,"under",4]')
    old_digest = h.hexdigest()
    with old_state_digest(), store.transaction(conn, "v2", "import canvass") as payload:
        repo.set_election(payload, Election("Old", date(2022, 11, 8), ElectionKind.GENERAL,
                                            "C"))
        conn.executemany("INSERT INTO precinct(id, name) VALUES (?,?)",
                         [(1, "P1"), (2, "P2"), (3, "P3")])
        conn.execute("INSERT INTO contest(id, position, title, kind, precincts) "
                     "VALUES (1, 0, 'Mayor', 'race', 3)")
        conn.executemany("INSERT INTO choice(id, contest_id, position, name, kind, "
                         "canvass_total) VALUES (?,1,?,?,'candidate',?)",
                         [(1, 0, "Ada", 3), (2, 1, "Ben", 2)])
        conn.executemany("INSERT INTO canvass_vote VALUES (?,?,?)", rows)
        conn.executemany("INSERT INTO canvass_extra VALUES (?,?,?,?)", extras)
        conn.execute("INSERT INTO canvass_import(file, sha256, family, imported_at, rows, "
                     "primary_election, digest) VALUES ('f.csv', '0', 'long', 'now', 4, 0, ?)",
                     (old_digest,))
        payload["canvass_digest"] = old_digest
    conn.close()

    conn = store.open_case(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert "canvass_vote" not in tables(conn)
        assert store.stored_canvass_digest(conn) == old_digest
        assert repo.precinct_table(conn, 1) == (["P1", "P2", "P3"], ["Ada", "Ben"],
                                                [[2, 1], [1, 0], [0, 1]])
        assert rr.canvass_by_precinct(conn, 1) == {"P1": {"Ada": 2, "Ben": 1}, "P2": {"Ada": 1},
                                                   "P3": {"Ben": 1}}
    finally:
        conn.close()
    assert verify_case(path).ok
    assert (tmp_path / "v2.v2-backup.recount").exists()


def test_a_count_beyond_32_bits_is_stored_8_bytes_wide_and_verifies(tmp_path: Path) -> None:
    c = store.create(tmp_path / "wide.recount")
    race = ContestTotals(Contest(ContestKey("Mayor")),
                         (ChoiceTotal(Choice("Ada"), 2**40 + 1),), {}, 2)
    with store.transaction(c, "t", "import canvass") as tx:
        repo.set_election(tx, Election("E", date(2024, 11, 5), ElectionKind.GENERAL, "C"))
        _, digest = repo.insert_canvass(
            tx, file="f", sha256="0", family="t", imported_at="now", primary=False,
            precincts=["P1", "P2"], totals=[race], columns=[VoteColumn(0, 0, [1, 2],
                                                                       [2**40, 1])],
            extras=[], issues=[])
    try:
        assert c.execute("SELECT width FROM canvass_column").fetchone()[0] == 8
        assert repo.precinct_table(c, 1) == (["P1", "P2"], ["Ada"], [[2**40], [1]])
        assert store.stored_canvass_digest(c) == digest
    finally:
        c.close()


def test_an_older_file_verifies_on_an_upgraded_copy_and_is_left_as_it_was(
        tmp_path: Path) -> None:
    path = tmp_path / "old.recount"
    make_v1_file(path)
    result = verify_case(path)
    assert result.ok, result.problems
    assert result.upgraded_copy
    assert "checked on an upgraded copy" in result.summary()
    conn = sqlite3.connect(str(path))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()


def test_an_edit_made_before_the_upgrade_stays_on_record(tmp_path: Path) -> None:
    """The upgrade checks the data against the log by the old rules first: a change made
    outside the program to an older file is reported after the upgrade, not blessed by it."""
    path = tmp_path / "old.recount"
    make_v1_file(path)
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE election SET name = 'Another election'")
    conn.commit()
    conn.close()
    assert not verify_case(path).ok  # checked on an upgraded copy
    store.open_case(path).close()  # the upgrade itself
    result = verify_case(path)
    assert not result.ok
    assert any("before the file was upgraded" in p for p in result.problems)
    untouched = tmp_path / "clean.recount"
    make_v1_file(untouched)
    store.open_case(untouched).close()
    assert verify_case(untouched).ok


# A load's row made column by column (rr.load_blobs) against the plain, value-by-value
# reference: the same blobs at the same width, or the same refusal.
_COUNT = st.one_of(st.integers(0, 500), st.none(), st.just(-3), st.just(2**31),
                   st.just(2**40), st.just(-(2**33)))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(1, 2**31 - 1), min_size=n, max_size=n),
    st.lists(st.lists(_COUNT, min_size=n, max_size=n), min_size=4, max_size=4),
    st.lists(st.one_of(st.none(), st.lists(st.one_of(_COUNT, st.just("absent")),
                                           min_size=n, max_size=n)), min_size=1,
             max_size=3),
    st.booleans())))
def test_a_loads_blobs_are_the_plain_references(case: tuple) -> None:
    units, fields, votes, big_id = case
    if big_id and units:
        units = [*units[:-1], 2**32 + 5]  # an id 4 bytes do not hold: every column at 8
    votes = [None if c is None else [rr._Absent() if v == "absent" else v for v in c]
             for c in votes]
    choices = list(range(1, len(votes) + 1))

    def made(f):  # type: ignore[no-untyped-def]
        try:
            return f(units, choices, fields, votes)
        except ValueError as e:
            return ("refused", str(e))

    got, want = made(rr.load_blobs), made(rr.load_blobs_reference)
    assert got == want
    plain = [v for c in (*fields, *(c for c in votes if c is not None)) for v in c
             if isinstance(v, int)]
    assert (got[0] == "refused") == any(v < 0 for v in plain)
