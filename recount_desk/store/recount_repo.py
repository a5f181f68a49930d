"""Reading and writing the recount's tables (schema V2); callers wrap writes in ``transaction``.

Values go in and come out as ``core.recount`` types. Re-entered values are appended and the
earlier rows marked superseded, so what an officer typed is never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import struct
import sys
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from recount_desk.core.recount import (
    BoardKind,
    BoardMember,
    BoardRole,
    CostItem,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeRecord,
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
from recount_desk.core.retab import CanvassColumns, SheetColumns, UnitColumns

from . import pg
from .blobs import int_values, same_width_blobs
from .db import Tx
from .repo import contest_counts, precinct_names

# --------------------------------------------------------------------------------------
# Lookups
# --------------------------------------------------------------------------------------


def choice_ids(conn: sqlite3.Connection, contest_id: int) -> dict[str, int]:
    """Choice name → id for one contest, in ballot order."""
    return {n: i for i, n in conn.execute(
        "SELECT id, name FROM choice WHERE contest_id=? ORDER BY position", (contest_id,))}


def contest_precincts(conn: sqlite3.Connection, contest_id: int) -> list[str]:
    """The precincts with canvass votes in this contest, in canvass order."""
    ids: set[int] = set()
    for _, pids, _ in contest_counts(conn, contest_id):
        ids.update(pids)
    names = precinct_names(conn)
    return [names[i] for i in sorted(ids)]


def contest_canvass(conn: sqlite3.Connection, contest_id: int
                    ) -> tuple[list[str], dict[str, dict[str, int]]]:
    """``contest_precincts`` and ``canvass_by_precinct`` of one contest, read once."""
    names = precinct_names(conn)
    by_id: dict[int, dict[str, int]] = {}
    for cname, pids, votes in contest_counts(conn, contest_id):
        for pid, n in zip(pids, votes, strict=True):
            got = by_id.get(pid)
            if got is None:
                got = by_id[pid] = {}
            got[cname] = n
    return [names[i] for i in sorted(by_id)], {names[i]: v for i, v in by_id.items()}


def contest_canvass_columns(conn: sqlite3.Connection, contest_id: int,
                            names: Mapping[int, str] | None = None
                            ) -> tuple[list[str], CanvassColumns]:
    """``contest_canvass`` by choice (choice → precinct → votes): each choice's stored
    column as it is, with no dictionary per precinct. ``names``: precinct id → name, when
    the caller has read them."""
    names = precinct_names(conn) if names is None else names
    counts = list(contest_counts(conn, contest_id))
    if counts and all(p == counts[0][1] for _, p, _ in counts) and \
            _ascending(counts[0][1].tolist(), strict=True) and \
            len({c for c, _, _ in counts}) == len(counts):
        # every choice in the same precincts, in order (as a case stores a canvass): the
        # columns as they are, no dictionary made unless asked for
        order = list(map(names.__getitem__, counts[0][1]))
        return order, CanvassColumns.in_order(order, {c: v for c, _, v in counts})
    ids: set[int] = set()
    by: dict[str, dict[str, int]] = {}
    for cname, pids, votes in counts:
        by.setdefault(cname, {}).update(zip(map(names.__getitem__, pids), votes, strict=True))
        ids.update(pids)
    return list(map(names.__getitem__, sorted(ids))), CanvassColumns(by)


def precinct_ids(conn: sqlite3.Connection) -> dict[str, int]:
    return {n: i for i, n in precinct_names(conn).items()}


def canvass_by_precinct(conn: sqlite3.Connection, contest_id: int) -> dict[str, dict[str, int]]:
    """precinct → choice → canvass votes, for one contest."""
    names = precinct_names(conn)
    out: dict[str, dict[str, int]] = {}
    for cname, pids, votes in contest_counts(conn, contest_id):
        for pid, n in zip(pids, votes, strict=True):
            out.setdefault(names[pid], {})[cname] = n
    return out


# --------------------------------------------------------------------------------------
# Settings and units
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredRecount:
    contest_id: int
    method: RecountMethod
    entry_mode: EntryMode
    unit_kind: UnitKind
    started_at: str
    started_by: str
    no_envelopes_confirmed: bool
    no_envelopes_note: str


def get_recount(conn: sqlite3.Connection, contest_id: int) -> StoredRecount | None:
    row = conn.execute("SELECT contest_id, method, entry_mode, unit_kind, started_at, "
                       "started_by, no_envelopes_confirmed, no_envelopes_note FROM recount "
                       "WHERE contest_id=?", (contest_id,)).fetchone()
    if row is None:
        return None
    return StoredRecount(row[0], RecountMethod(row[1]), EntryMode(row[2]), UnitKind(row[3]),
                         row[4], row[5], bool(row[6]), row[7])


def recount_contest_ids(conn: sqlite3.Connection) -> list[int]:
    return [r[0] for r in conn.execute("SELECT contest_id FROM recount ORDER BY contest_id")]


def save_recount(tx: Tx, contest_id: int, *, method: RecountMethod,
                 entry_mode: EntryMode, unit_kind: UnitKind, units: Sequence[RecountUnit],
                 started_at: str, started_by: str) -> list[int]:
    """Create (or, before any entry, replace) a contest's recount settings and units."""
    tx.execute("DELETE FROM recount_unit WHERE contest_id=?", (contest_id,))
    tx.execute(
        "INSERT INTO recount(contest_id, method, entry_mode, unit_kind, started_at, started_by) "
        "VALUES (?,?,?,?,?,?) ON CONFLICT(contest_id) DO UPDATE SET method=excluded.method, "
        "entry_mode=excluded.entry_mode, unit_kind=excluded.unit_kind, "
        "started_at=excluded.started_at, started_by=excluded.started_by",
        (contest_id, method.value, entry_mode.value, unit_kind.value, started_at, started_by))
    pids = precinct_ids(tx.conn)
    ids = []
    for pos, u in enumerate(units):
        cur = tx.execute("INSERT INTO recount_unit(contest_id, position, name) VALUES (?,?,?)",
                           (contest_id, pos, u.name.strip()))
        uid = int(cur.lastrowid or 0)
        ids.append(uid)
        tx.executemany("INSERT INTO unit_precinct(unit_id, precinct_id, contest_id) "
                         "VALUES (?,?,?)", ((uid, pids[p], contest_id) for p in u.precincts))
    return ids


def set_no_envelopes(tx: Tx, contest_id: int, confirmed: bool,
                     note: str) -> None:
    tx.execute("UPDATE recount SET no_envelopes_confirmed=?, no_envelopes_note=? "
                 "WHERE contest_id=?", (int(confirmed), note, contest_id))


@dataclass(frozen=True)
class StoredUnit:
    id: int
    position: int
    unit: RecountUnit
    variance_note: str


def _only(column: str, values: Sequence[object] | None) -> tuple[str, tuple[object, ...]]:
    """An SQL condition keeping the rows whose ``column`` is one of ``values`` (all: None)."""
    if values is None:
        return "", ()
    return f" AND {column} IN ({', '.join('?' * len(values)) or 'NULL'})", tuple(values)


def units(conn: sqlite3.Connection, contest_id: int,
          names: Sequence[str] | None = None) -> list[StoredUnit]:
    """The contest's units in order (or only those named): two statements whatever their
    number (by index for named units)."""
    only, args = _only("name", names)
    rows = conn.execute("SELECT id, position, name, variance_note FROM recount_unit WHERE "
                        f"contest_id=?{only} ORDER BY position", (contest_id, *args)).fetchall()
    where: str
    wargs: tuple[object, ...]
    if names is None:
        where, wargs = "up.contest_id=?", (contest_id,)
    else:
        where, wargs = _only("up.unit_id", [r[0] for r in rows])
        where = where.removeprefix(" AND ")
    prec: dict[int, list[str]] = {}
    for uid, pname in conn.execute(
            "SELECT up.unit_id, p.name FROM unit_precinct up JOIN precinct p ON "
            f"p.id = up.precinct_id WHERE {where} ORDER BY p.id", wargs):
        prec.setdefault(uid, []).append(pname)
    return [StoredUnit(uid, pos, RecountUnit(name, tuple(prec.get(uid, []))), note)
            for uid, pos, name, note in rows]


@dataclass(frozen=True)
class UnitTable:
    """A contest's units as columns, in order: their ids beside ``units`` (names and
    precincts, as ``units`` gives them)."""

    ids: Sequence[int]
    units: UnitColumns


def unit_table(conn: sqlite3.Connection, contest_id: int,
               names: Mapping[int, str] | None = None) -> UnitTable:
    """``units`` as columns, in two statements and without an object per unit (a countywide
    race has thousands). ``names``: precinct id → name, when the caller has read them."""
    ids, unames, member_units, member_pids = _unit_columns(conn, contest_id)
    if not ids:
        return UnitTable([], UnitColumns([], []))
    pname = precinct_name_map(conn) if names is None else names
    # One precinct a unit (most recounts): its precinct rows in the units' order, as the
    # recount's start wrote them, or as they come.
    of_unit = None if member_units == ids else dict(zip(member_units, member_pids, strict=True))
    if of_unit is None or len(of_unit) == len(member_units) == len(ids):
        try:
            one = list(map(pname.__getitem__, member_pids if of_unit is None else
                           map(of_unit.__getitem__, ids)))
        except KeyError:
            pass
        else:
            return UnitTable(ids, UnitColumns(unames, one=one))
    prec: dict[int, list[int]] = {u: [] for u in ids}
    for uid, pid in zip(member_units, member_pids, strict=True):
        got = prec.get(uid)
        if got is not None and pid in pname:
            got.append(pid)
    return UnitTable(ids, UnitColumns(unames, [tuple(pname[p] for p in sorted(prec[u]))
                                               for u in ids]))


def _unit_columns(conn: sqlite3.Connection, contest_id: int
                  ) -> tuple[list[int], list[str], list[int], list[int]]:
    """The contest's units (ids and names, in order: by place, then id) and their precincts
    (unit id and precinct id, in any order), each a list. On a file each is read as one
    JSON array, the table scanned in its own order (no index, no sort: a countywide
    race's thousands of units in half a millisecond), then put in order if it is not."""
    if not pg.is_pg(conn):
        # (no ORDER BY: a sort of the scan's rows costs as much as the scan; units in
        # strictly rising places need none, and the others are sorted here, by both keys)
        units_ = _json_columns(conn, ("id", "name", "position"),
                               "FROM recount_unit WHERE +contest_id=?", (contest_id,))
        members = _json_columns(conn, ("unit_id", "precinct_id"),
                                "FROM unit_precinct WHERE +contest_id=?", (contest_id,))
        if units_ is not None and members is not None:
            ids, names, positions = units_
            if not _ascending(positions, strict=True):  # by place, then by id
                order = sorted(range(len(ids)), key=lambda i: (positions[i], ids[i]))
                ids, names = [ids[i] for i in order], [names[i] for i in order]
            return ids, names, members[0], members[1]
    ids, names = [], []
    for uid, uname in conn.execute("SELECT id, name FROM recount_unit WHERE contest_id=? "
                                   "ORDER BY position, id", (contest_id,)):
        ids.append(uid)
        names.append(uname)
    units_of, pids = [], []
    for uid, pid in conn.execute("SELECT unit_id, precinct_id FROM unit_precinct WHERE "
                                 "contest_id=?", (contest_id,)):
        units_of.append(uid)
        pids.append(pid)
    return ids, names, units_of, pids


def _json_columns(conn: sqlite3.Connection, columns: Sequence[str], rest: str,
                  args: Sequence[object] = ()) -> list[list[Any]] | None:
    """The columns of ``SELECT columns rest`` (SQLite), each one list, read as one JSON
    array per column in one row: thousands of rows without a tuple each. None when they
    cannot be read so (a value JSON cannot hold): then they are read row by row."""
    inner = "SELECT " + ", ".join(f"{c} AS c{i}" for i, c in enumerate(columns)) + " " + rest
    outer = "SELECT " + ", ".join(f"json_group_array(c{i})" for i in range(len(columns)))
    try:
        row = conn.execute(f"{outer} FROM ({inner})", tuple(args)).fetchone()
        out = [json.loads(v) for v in row]
    except (sqlite3.Error, ValueError, TypeError):
        return None
    if any(not isinstance(c, list) or len(c) != len(out[0]) for c in out):
        return None
    return out


def _ascending(values: list[int], *, strict: bool = False) -> bool:
    return values == sorted(values) and (not strict or len(set(values)) == len(values))


def precinct_name_map(conn: sqlite3.Connection) -> dict[int, str]:
    """Precinct id → name (``repo.precinct_names``), read as two JSON arrays on a file."""
    got = None if pg.is_pg(conn) else _json_columns(conn, ("id", "name"), "FROM precinct")
    if got is None:
        return precinct_names(conn)
    return dict(zip(got[0], got[1], strict=True))


def has_tallies(conn: sqlite3.Connection) -> bool:
    """Whether any unit of the case has a tally entry or a loaded tally (of any contest)."""
    return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM tally_entry) OR EXISTS (SELECT 1 "
                             "FROM retab_tally)").fetchone()[0])


def units_with_entries(conn: sqlite3.Connection, contest_id: int) -> set[int]:
    """The units with current tally entries (rows of tally_entry: hand-entered, or loaded
    before case format 9)."""
    return _units_with_entries(conn, contest_id, None)


def set_variance_note(tx: Tx, unit_id: int, note: str) -> None:
    tx.execute("UPDATE recount_unit SET variance_note=? WHERE id=?", (note, unit_id))


# --------------------------------------------------------------------------------------
# Tally entries and resolutions
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredEntry:
    id: int
    unit_id: int
    entry: TallyEntry
    entered_at: str
    entered_by: str


def _votes_of(conn: sqlite3.Connection, table: str, key: str, row_id: int
              ) -> dict[str, int | None]:
    return {n: v for n, v in conn.execute(
        f"SELECT c.name, t.votes FROM {table} t JOIN choice c ON c.id = t.choice_id "
        f"WHERE t.{key}=? ORDER BY c.position", (row_id,))}


def add_entry(tx: Tx, unit_id: int, entry: TallyEntry,
              choice_id_of: Mapping[str, int], entered_at: str, entered_by: str) -> int:
    """Append an entry; the unit's earlier entry with the same number is superseded."""
    tx.execute("UPDATE tally_entry SET superseded=1 WHERE unit_id=? AND entry_no=? "
                 "AND superseded=0", (unit_id, entry.number))
    s = entry.sheet
    cur = tx.execute(
        "INSERT INTO tally_entry(unit_id, entry_no, officer, ballots, write_ins, over_votes, "
        "under_votes, warning_note, entered_at, entered_by) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (unit_id, entry.number, entry.officer, s.ballots, s.write_ins, s.over, s.under,
         entry.warning_note, entered_at, entered_by))
    eid = int(cur.lastrowid or 0)
    tx.executemany("INSERT INTO tally_vote(entry_id, choice_id, votes) VALUES (?,?,?)",
                     ((eid, choice_id_of[n], v) for n, v in s.votes.items()))
    return eid


def _votes_by(conn: sqlite3.Connection, sql: str, args: Sequence[object]
              ) -> dict[int, dict[str, int | None]]:
    out: dict[int, dict[str, int | None]] = {}
    for rid, name, votes in conn.execute(sql, args):
        out.setdefault(rid, {})[name] = votes
    return out


def current_entries(conn: sqlite3.Connection, contest_id: int,
                    unit_ids: Sequence[int] | None = None
                    ) -> dict[int, dict[int, StoredEntry]]:
    """unit id → entry number → the current (not superseded) entry, of every unit or of
    ``unit_ids``: two statements whatever the number of units."""
    only, args = _only("e.unit_id", unit_ids)
    votes = _votes_by(conn, "SELECT t.entry_id, c.name, t.votes FROM tally_vote t "
                      "JOIN tally_entry e ON e.id = t.entry_id JOIN recount_unit u ON "
                      "u.id = e.unit_id JOIN choice c ON c.id = t.choice_id WHERE "
                      f"u.contest_id=? AND e.superseded=0{only} ORDER BY t.entry_id, "
                      "c.position", (contest_id, *args))
    out: dict[int, dict[int, StoredEntry]] = {}
    for (eid, uid, no, officer, ballots, wi, over, under, note, at, by) in conn.execute(
            "SELECT e.id, e.unit_id, e.entry_no, e.officer, e.ballots, e.write_ins, "
            "e.over_votes, e.under_votes, e.warning_note, e.entered_at, e.entered_by "
            "FROM tally_entry e JOIN recount_unit u ON u.id = e.unit_id "
            f"WHERE u.contest_id=? AND e.superseded=0{only}", (contest_id, *args)).fetchall():
        sheet = TallySheet(ballots, votes.get(eid, {}), wi, over, under)
        out.setdefault(uid, {})[no] = StoredEntry(eid, uid, TallyEntry(no, officer, sheet, note),
                                                  at, by)
    # the units whose tally is a load's stored tallies (case format 9)
    for uid, se in loaded_entries(conn, contest_id, unit_ids, set(out)).items():
        out[uid] = {1: se}
    return out


def entry_count(conn: sqlite3.Connection, contest_id: int) -> int:
    """How many tally entries the contest's recount has had (current or not), a load's
    stored tallies counting one per unit."""
    rows = int(conn.execute("SELECT count(*) FROM tally_entry e JOIN recount_unit u ON "
                            "u.id = e.unit_id WHERE u.contest_id=?", (contest_id,)).fetchone()[0])
    loaded = sum(len(t.units) for t in _load_tallies(conn, contest_id))
    return rows + loaded


@dataclass(frozen=True)
class StoredResolution:
    id: int
    unit_id: int
    first_entry_id: int
    second_entry_id: int
    resolution: Resolution
    resolved_at: str


def add_resolution(tx: Tx, unit_id: int, first_entry_id: int,
                   second_entry_id: int, resolution: Resolution,
                   choice_id_of: Mapping[str, int], resolved_at: str) -> int:
    s = resolution.sheet
    cur = tx.execute(
        "INSERT INTO tally_resolution(unit_id, first_entry_id, second_entry_id, kind, ballots, "
        "write_ins, over_votes, under_votes, note, resolved_by, resolved_at, joint) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (unit_id, first_entry_id, second_entry_id, resolution.kind.value, s.ballots,
         s.write_ins, s.over, s.under, resolution.note, resolution.by, resolved_at,
         int(resolution.joint)))
    rid = int(cur.lastrowid or 0)
    tx.executemany("INSERT INTO resolution_vote(resolution_id, choice_id, votes) "
                     "VALUES (?,?,?)", ((rid, choice_id_of[n], v) for n, v in s.votes.items()))
    return rid


def current_resolutions(conn: sqlite3.Connection, contest_id: int,
                        entries: Mapping[int, Mapping[int, StoredEntry]],
                        unit_ids: Sequence[int] | None = None
                        ) -> dict[int, StoredResolution]:
    """unit id → its latest resolution, if that resolution settled the current entries (a
    re-entered sheet makes an earlier resolution stale); two statements."""
    only, args = _only("r.unit_id", unit_ids)
    votes = _votes_by(conn, "SELECT v.resolution_id, c.name, v.votes FROM resolution_vote v "
                      "JOIN tally_resolution r ON r.id = v.resolution_id JOIN recount_unit u "
                      "ON u.id = r.unit_id JOIN choice c ON c.id = v.choice_id WHERE "
                      f"u.contest_id=?{only} ORDER BY v.resolution_id, c.position",
                      (contest_id, *args))
    out: dict[int, StoredResolution] = {}
    for (rid, uid, e1, e2, kind, ballots, wi, over, under, note, by, at, joint) in conn.execute(
            "SELECT r.id, r.unit_id, r.first_entry_id, r.second_entry_id, r.kind, r.ballots, "
            "r.write_ins, r.over_votes, r.under_votes, r.note, r.resolved_by, r.resolved_at, "
            "r.joint "
            "FROM tally_resolution r JOIN recount_unit u ON u.id = r.unit_id "
            f"WHERE u.contest_id=?{only} ORDER BY r.id", (contest_id, *args)).fetchall():
        cur = entries.get(uid, {})
        if 1 not in cur or 2 not in cur or cur[1].id != e1 or cur[2].id != e2:
            continue
        sheet = TallySheet(ballots, votes.get(rid, {}), wi, over, under)
        out[uid] = StoredResolution(rid, uid, e1, e2,
                                    Resolution(ResolutionKind(kind), sheet, by, note,
                                               bool(joint)), at)
    return out


# --------------------------------------------------------------------------------------
# Witnesses
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Witness:
    """A representative who watched the recount ((2)(e), or designated by a candidate)."""

    id: int
    name: str
    designated_by: str
    side: str
    designated_at: datetime | None
    attended_from: datetime | None
    attended_to: datetime | None


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat(timespec="minutes") if dt else None


def add_witness(tx: Tx, contest_id: int, *, name: str, designated_by: str,
                side: str, designated_at: datetime | None, attended_from: datetime | None,
                attended_to: datetime | None, recorded_by: str, recorded_at: str) -> int:
    cur = tx.execute(
        "INSERT INTO witness(contest_id, name, designated_by, side, designated_at, "
        "attended_from, attended_to, recorded_by, recorded_at) VALUES (?,?,?,?,?,?,?,?,?)",
        (contest_id, name, designated_by, side, _iso(designated_at), _iso(attended_from),
         _iso(attended_to), recorded_by, recorded_at))
    return int(cur.lastrowid or 0)


def set_witness_attendance(tx: Tx, witness_id: int,
                           attended_from: datetime | None, attended_to: datetime | None) -> None:
    tx.execute("UPDATE witness SET attended_from=?, attended_to=? WHERE id=?",
                 (_iso(attended_from), _iso(attended_to), witness_id))


def witnesses(conn: sqlite3.Connection, contest_id: int) -> list[Witness]:
    return [Witness(i, n, d, s, _dt(da), _dt(af), _dt(at)) for i, n, d, s, da, af, at in
            conn.execute("SELECT id, name, designated_by, side, designated_at, attended_from, "
                         "attended_to FROM witness WHERE contest_id=? ORDER BY id",
                         (contest_id,))]


# --------------------------------------------------------------------------------------
# Envelopes
# --------------------------------------------------------------------------------------

_CHECK_COLUMNS = tuple(c.value for c in EnvelopeCheck)


@dataclass(frozen=True)
class StoredEnvelope:
    id: int
    record: EnvelopeRecord
    postmarked: date | None
    received_at: datetime | None
    check_note: str
    checked_by: str
    source: str


def add_envelopes(tx: Tx, contest_id: int,
                  rows: Sequence[tuple[str, str, str]], source: str, added_at: str,
                  added_by: str) -> list[int]:
    """Insert (envelope id, precinct name, original reason) rows; precincts must exist."""
    pids = precinct_ids(tx.conn)
    ids = []
    for no, precinct, reason in rows:
        cur = tx.execute(
            "INSERT INTO envelope(contest_id, envelope_no, precinct_id, original_reason, "
            "source, added_at, added_by) VALUES (?,?,?,?,?,?,?)",
            (contest_id, no, pids[precinct], reason, source, added_at, added_by))
        ids.append(int(cur.lastrowid or 0))
    return ids


def envelope_numbers(conn: sqlite3.Connection, contest_id: int) -> set[str]:
    return {r[0] for r in conn.execute("SELECT envelope_no FROM envelope WHERE contest_id=?",
                                       (contest_id,))}


def add_envelope_check(tx: Tx, envelope_id: int,
                       checks: Mapping[EnvelopeCheck, bool | None], postmarked: date | None,
                       received_at: datetime | None, note: str, checked_by: str,
                       checked_at: str) -> int:
    vals = [None if checks.get(c) is None else int(bool(checks.get(c))) for c in EnvelopeCheck]
    cur = tx.execute(
        f"INSERT INTO envelope_check(envelope_id, {', '.join(_CHECK_COLUMNS)}, postmarked, "
        "received_at, note, checked_by, checked_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (envelope_id, *vals, postmarked.isoformat() if postmarked else None,
         _iso(received_at), note, checked_by, checked_at))
    return int(cur.lastrowid or 0)


def add_envelope_decision(tx: Tx, envelope_id: int,
                          outcome: EnvelopeOutcome, reason: RejectionReason | None,
                          reason_text: str, votes: EnvelopeVotes | None,
                          choice_id_of: Mapping[str, int], decided_by: str,
                          decided_at: str) -> int:
    cur = tx.execute(
        "INSERT INTO envelope_decision(envelope_id, outcome, reason, reason_text, write_ins, "
        "over_votes, under_votes, decided_by, decided_at) VALUES (?,?,?,?,?,?,?,?,?)",
        (envelope_id, outcome.value, reason.value if reason else None, reason_text,
         votes.write_ins if votes else 0, votes.over if votes else 0,
         votes.under if votes else 0, decided_by, decided_at))
    did = int(cur.lastrowid or 0)
    if votes is not None:
        tx.executemany("INSERT INTO envelope_vote(decision_id, choice_id, votes) "
                         "VALUES (?,?,?)",
                         ((did, choice_id_of[n], v) for n, v in votes.votes.items()))
    return did


def envelopes(conn: sqlite3.Connection, contest_id: int) -> list[StoredEnvelope]:
    """Every envelope of a contest with its latest checks and latest decision."""
    out = []
    for eid, no, pname, reason, source in conn.execute(
            "SELECT e.id, e.envelope_no, p.name, e.original_reason, e.source FROM envelope e "
            "JOIN precinct p ON p.id = e.precinct_id WHERE e.contest_id=? ORDER BY e.id",
            (contest_id,)).fetchall():
        chk = conn.execute(
            f"SELECT {', '.join(_CHECK_COLUMNS)}, postmarked, received_at, note, checked_by "
            "FROM envelope_check WHERE envelope_id=? ORDER BY id DESC LIMIT 1",
            (eid,)).fetchone()
        checks: dict[EnvelopeCheck, bool | None] = {}
        postmarked = received = None
        note = checked_by = ""
        if chk is not None:
            for c, v in zip(EnvelopeCheck, chk[:len(_CHECK_COLUMNS)], strict=True):
                checks[c] = None if v is None else bool(v)
            pm, ra, note, checked_by = chk[len(_CHECK_COLUMNS):]
            postmarked = date.fromisoformat(pm) if pm else None
            received = _dt(ra)
        dec = conn.execute(
            "SELECT id, outcome, reason, reason_text, write_ins, over_votes, under_votes, "
            "decided_by, decided_at FROM envelope_decision WHERE envelope_id=? "
            "ORDER BY id DESC LIMIT 1", (eid,)).fetchone()
        outcome = EnvelopeOutcome.PENDING
        rej: RejectionReason | None = None
        rtext = by = at = ""
        votes: EnvelopeVotes | None = None
        if dec is not None:
            did, oc, rr, rtext, wi, ov, un, by, at = dec
            outcome = EnvelopeOutcome(oc)
            rej = RejectionReason(rr) if rr else None
            if outcome is EnvelopeOutcome.ACCEPTED:
                v = {n: int(x or 0) for n, x in _votes_of(conn, "envelope_vote", "decision_id",
                                                           did).items()}
                votes = EnvelopeVotes(v, wi, ov, un)
        rec = EnvelopeRecord(no, pname, reason, checks, outcome, rej, rtext, votes, by, at)
        out.append(StoredEnvelope(eid, rec, postmarked, received, note, checked_by, source))
    return out


def envelope_id(conn: sqlite3.Connection, contest_id: int, envelope_no: str) -> int | None:
    row = conn.execute("SELECT id FROM envelope WHERE contest_id=? AND envelope_no=?",
                       (contest_id, envelope_no)).fetchone()
    return int(row[0]) if row else None


# --------------------------------------------------------------------------------------
# Declaration and lot
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredDeclaration:
    id: int
    contest_id: int
    result: str
    elected: tuple[str, ...]
    tied: tuple[str, ...]
    totals: dict[str, int]
    text: str
    basis: str
    complete: bool
    override_reason: str | None
    declared_by: str
    declared_at: str
    lot: Lot | None
    lot_deadline: date | None
    lot_late: bool


def add_declaration(tx: Tx, contest_id: int, *, result: str,
                    elected: Sequence[str], tied: Sequence[str], totals: Mapping[str, int],
                    text: str, basis: str, complete: bool, override_reason: str | None,
                    declared_by: str, declared_at: str) -> int:
    """Append a declaration; an earlier one for the contest is superseded."""
    tx.execute("UPDATE declaration SET superseded=1 WHERE contest_id=? AND superseded=0",
                 (contest_id,))
    cur = tx.execute(
        "INSERT INTO declaration(contest_id, result, elected, tied, totals, text, basis, "
        "complete, override_reason, declared_by, declared_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (contest_id, result, json.dumps(list(elected), ensure_ascii=False),
         json.dumps(list(tied), ensure_ascii=False),
         json.dumps(dict(totals), ensure_ascii=False), text, basis, int(complete),
         override_reason, declared_by, declared_at))
    return int(cur.lastrowid or 0)


def add_lot(tx: Tx, declaration_id: int, lot: Lot, deadline: date | None,
            late: bool, basis: str) -> int:
    cur = tx.execute(
        "INSERT INTO lot(declaration_id, drawn_by, drawn_at, place, method, witnesses, chosen, "
        "deadline, late, basis) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (declaration_id, lot.drawn_by, _iso(lot.drawn_at), lot.place, lot.method,
         json.dumps(list(lot.witnesses), ensure_ascii=False),
         json.dumps(list(lot.chosen), ensure_ascii=False),
         deadline.isoformat() if deadline else None, int(late), basis))
    return int(cur.lastrowid or 0)


def withdraw_declaration(tx: Tx, contest_id: int) -> None:
    tx.execute("UPDATE declaration SET superseded=1 WHERE contest_id=? AND superseded=0",
                 (contest_id,))


def current_declaration(conn: sqlite3.Connection, contest_id: int) -> StoredDeclaration | None:
    row = conn.execute(
        "SELECT id, contest_id, result, elected, tied, totals, text, basis, complete, "
        "override_reason, declared_by, declared_at FROM declaration WHERE contest_id=? AND "
        "superseded=0 ORDER BY id DESC LIMIT 1", (contest_id,)).fetchone()
    if row is None:
        return None
    lot_row = conn.execute("SELECT drawn_by, drawn_at, place, method, witnesses, chosen, "
                           "deadline, late FROM lot WHERE declaration_id=?",
                           (row[0],)).fetchone()
    lot = None
    deadline = None
    late = False
    if lot_row is not None:
        lot = Lot(lot_row[0], datetime.fromisoformat(lot_row[1]), lot_row[2], lot_row[3],
                  tuple(json.loads(lot_row[4])), tuple(json.loads(lot_row[5])))
        deadline = date.fromisoformat(lot_row[6]) if lot_row[6] else None
        late = bool(lot_row[7])
    return StoredDeclaration(row[0], row[1], row[2], tuple(json.loads(row[3])),
                             tuple(json.loads(row[4])), json.loads(row[5]), row[6], row[7],
                             bool(row[8]), row[9], row[10], row[11], lot, deadline, late)


# --------------------------------------------------------------------------------------
# Costs
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredCost:
    id: int
    item: CostItem
    added_by: str
    added_at: str


def add_cost(tx: Tx, contest_id: int, item: CostItem, added_by: str,
             added_at: str) -> int:
    cur = tx.execute(
        "INSERT INTO cost_item(contest_id, kind, description, hours_hundredths, rate_cents, "
        "amount_cents, added_by, added_at) VALUES (?,?,?,?,?,?,?,?)",
        (contest_id, item.kind.value, item.description, item.hours_hundredths,
         item.rate_cents, item.amount_cents, added_by, added_at))
    return int(cur.lastrowid or 0)


def remove_cost(tx: Tx, contest_id: int, cost_id: int) -> bool:
    cur = tx.execute("UPDATE cost_item SET removed=1 WHERE id=? AND contest_id=? AND "
                       "removed=0", (cost_id, contest_id))
    return cur.rowcount == 1


def costs(conn: sqlite3.Connection, contest_id: int) -> list[StoredCost]:
    return [StoredCost(i, CostItem(CostKind(k), d, amt, h, r), by, at)
            for i, k, d, h, r, amt, by, at in conn.execute(
                "SELECT id, kind, description, hours_hundredths, rate_cents, amount_cents, "
                "added_by, added_at FROM cost_item WHERE contest_id=? AND removed=0 "
                "ORDER BY id", (contest_id,))]


# --------------------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredConvening:
    board_kind: BoardKind
    body_size: int
    convened_at: datetime
    place: str
    recorded_by: str


def set_board_members(tx: Tx, contest_id: int,
                      members: Sequence[BoardMember]) -> None:
    """Replace the member list (earlier rows are kept, marked removed)."""
    tx.execute("UPDATE board_member SET removed=1 WHERE contest_id=? AND removed=0",
                 (contest_id,))
    tx.executemany(
        "INSERT INTO board_member(contest_id, position, name, title, role, present) "
        "VALUES (?,?,?,?,?,?)",
        ((contest_id, i, m.name, m.title, m.role.value, int(m.present))
         for i, m in enumerate(members)))


def board_members(conn: sqlite3.Connection, contest_id: int) -> list[BoardMember]:
    return [BoardMember(n, t, BoardRole(r), bool(p)) for n, t, r, p in conn.execute(
        "SELECT name, title, role, present FROM board_member WHERE contest_id=? AND removed=0 "
        "ORDER BY position", (contest_id,))]


def set_convening(tx: Tx, contest_id: int, *, board_kind: BoardKind,
                  body_size: int, convened_at: datetime, place: str, recorded_by: str,
                  recorded_at: str) -> None:
    tx.execute(
        "INSERT INTO board_convening(contest_id, board_kind, body_size, convened_at, place, "
        "recorded_by, recorded_at) VALUES (?,?,?,?,?,?,?) ON CONFLICT(contest_id) DO UPDATE "
        "SET board_kind=excluded.board_kind, body_size=excluded.body_size, "
        "convened_at=excluded.convened_at, place=excluded.place, "
        "recorded_by=excluded.recorded_by, recorded_at=excluded.recorded_at",
        (contest_id, board_kind.value, body_size, _iso(convened_at), place, recorded_by,
         recorded_at))


def convening(conn: sqlite3.Connection, contest_id: int) -> StoredConvening | None:
    row = conn.execute("SELECT board_kind, body_size, convened_at, place, recorded_by FROM "
                       "board_convening WHERE contest_id=?", (contest_id,)).fetchone()
    if row is None:
        return None
    return StoredConvening(BoardKind(row[0]), row[1], datetime.fromisoformat(row[2]), row[3],
                           row[4])


# --------------------------------------------------------------------------------------
# Signing, locking and reopening
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredSigning:
    id: int
    signed_at: datetime
    signers: tuple[str, ...]
    state_digest: str
    recorded_by: str
    active: bool
    place: str = ""


@dataclass(frozen=True)
class StoredReopen:
    id: int
    signing_id: int
    reason: str
    reopened_by: str
    reopened_at: str


def add_signing(tx: Tx, contest_id: int, signed_at: datetime,
                signers: Sequence[str], digest: str, recorded_by: str, recorded_at: str,
                place: str = "") -> int:
    cur = tx.execute(
        "INSERT INTO recount_signing(contest_id, signed_at, signers, state_digest, "
        "recorded_by, recorded_at, place) VALUES (?,?,?,?,?,?,?)",
        (contest_id, _iso(signed_at), json.dumps(list(signers), ensure_ascii=False), digest,
         recorded_by, recorded_at, place))
    return int(cur.lastrowid or 0)


def active_signing(conn: sqlite3.Connection, contest_id: int) -> StoredSigning | None:
    row = conn.execute("SELECT id, signed_at, signers, state_digest, recorded_by, active, "
                       "place FROM recount_signing WHERE contest_id=? AND active=1 ORDER BY "
                       "id DESC LIMIT 1", (contest_id,)).fetchone()
    if row is None:
        return None
    return StoredSigning(row[0], datetime.fromisoformat(row[1]), tuple(json.loads(row[2])),
                         row[3], row[4], bool(row[5]), row[6])


def reopen(tx: Tx, contest_id: int, signing_id: int, reason: str,
           reopened_by: str, reopened_at: str) -> int:
    tx.execute("UPDATE recount_signing SET active=0 WHERE id=?", (signing_id,))
    cur = tx.execute("INSERT INTO recount_reopen(contest_id, signing_id, reason, reopened_by, "
                       "reopened_at) VALUES (?,?,?,?,?)",
                       (contest_id, signing_id, reason, reopened_by, reopened_at))
    return int(cur.lastrowid or 0)


def reopen_log(conn: sqlite3.Connection, contest_id: int) -> list[StoredReopen]:
    return [StoredReopen(*r) for r in conn.execute(
        "SELECT id, signing_id, reason, reopened_by, reopened_at FROM recount_reopen WHERE "
        "contest_id=? ORDER BY id", (contest_id,))]


def canvass_extras_by_precinct(conn: sqlite3.Connection, contest_id: int
                               ) -> dict[str, dict[str, int]]:
    """precinct → extra kind ("over", "under", "blank") → canvass count, for one contest."""
    names = precinct_names(conn)
    out: dict[str, dict[str, int]] = {}
    for pid, kind, votes in conn.execute(
            "SELECT precinct_id, kind, votes FROM canvass_extra WHERE contest_id=?",
            (contest_id,)):
        out.setdefault(names[pid], {})[kind] = int(votes)
    return out


# --------------------------------------------------------------------------------------
# Re-tabulation loads (schema V4)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredLoad:
    """One load of a re-tabulated statement of votes as the recount's tallies."""

    id: int
    contest_id: int
    file: str
    sha256: str
    family: str
    sheet: str | None
    file_contest: str
    units: int
    loaded_at: str
    loaded_by: str


def add_load(tx: Tx, contest_id: int, *, file: str, sha256: str,
             family: str, sheet: str | None, file_contest: str, units: int, loaded_at: str,
             loaded_by: str) -> int:
    cur = tx.execute(
        "INSERT INTO retab_load(contest_id, file, sha256, family, sheet, file_contest, units, "
        "loaded_at, loaded_by) VALUES (?,?,?,?,?,?,?,?,?)",
        (contest_id, file, sha256, family, sheet, file_contest, units, loaded_at, loaded_by))
    return int(cur.lastrowid or 0)


def loads(conn: sqlite3.Connection, contest_id: int) -> list[StoredLoad]:
    return [StoredLoad(*r) for r in conn.execute(
        "SELECT id, contest_id, file, sha256, family, sheet, file_contest, units, loaded_at, "
        "loaded_by FROM retab_load WHERE contest_id=? ORDER BY id", (contest_id,))]


# A load's tallies (case format 9): one row of retab_tally per load, each field a column of
# integers (store/blobs.py), one value per unit in the load's order; the votes are one such
# column per choice, one after the other. A value the sheet does not give is stored as -1
# (None) or -2 (a choice the sheet leaves out); real counts are never negative.
_NONE, _ABSENT = -1, -2
TALLY_TAG = b"recount-desk-load-tallies/1"


def _uncode(value: int) -> int | None:
    return None if value < 0 else value


def tally_digest(width: int, blobs: Sequence[bytes]) -> str:
    """SHA-256 of a load's stored tallies (its blobs in column order, each with its length),
    as the load's audit entry records it."""
    h = hashlib.sha256(TALLY_TAG)
    h.update(struct.pack("<q", width))
    for b in blobs:
        h.update(struct.pack("<q", len(b)))
        h.update(b)
    return h.hexdigest()


def add_load_tallies(tx: Tx, load_id: int, sheets: Sequence[tuple[int, TallySheet]],
                     choice_id_of: Mapping[str, int], officer: str, entered_at: str,
                     entered_by: str) -> str:
    """Record a load's tallies, one sheet per unit (unit id, sheet), as ONE row; any current
    entry of those units (an earlier load's, stored before case format 9) is superseded,
    kept in history. Returns the tallies' digest (``tally_digest``)."""
    names = list(choice_id_of)
    extra = set().union(*(s.votes for _, s in sheets)) - set(names)
    if extra:
        raise ValueError(f"the load names choices the contest does not have: {sorted(extra)}")
    fields: list[list[Any]] = [[s.ballots for _, s in sheets], [s.write_ins for _, s in sheets],
                               [s.over for _, s in sheets], [s.under for _, s in sheets]]
    # (a choice every sheet leaves out is one column left out; one some sheets give is a
    # column with the others' places marked)
    absent = _Absent()
    votes: list[list[Any] | None] = []
    for name in names:
        col = [s.votes.get(name, absent) for _, s in sheets]
        votes.append(None if sheets and all(v is absent for v in col) else col)
    return _write_load(tx, load_id, [u for u, _ in sheets], fields, votes, choice_id_of,
                       officer, entered_at, entered_by)


def add_load_columns(tx: Tx, load_id: int, unit_ids: Sequence[int], tallies: SheetColumns,
                     choice_id_of: Mapping[str, int], officer: str, entered_at: str,
                     entered_by: str) -> str:
    """``add_load_tallies`` of the units ``unit_ids``, their figures as columns
    (``tallies``: a choice it has no column for is one no sheet gives): the same row, the
    same digest, without a ``TallySheet`` per unit."""
    names = list(choice_id_of)
    extra = set(tallies.votes) - set(names)
    if extra:
        raise ValueError(f"the load names choices the contest does not have: {sorted(extra)}")
    n = len(unit_ids)
    fields = (tallies.ballots, tallies.write_ins, tallies.over, tallies.under)
    if any(len(c) != n for c in (*fields, *tallies.votes.values())):
        raise ValueError("the load's columns do not give one value per unit")
    return _write_load(tx, load_id, unit_ids, fields,
                       [tallies.votes.get(name) for name in names], choice_id_of, officer,
                       entered_at, entered_by)


def _write_load(tx: Tx, load_id: int, unit_ids: Sequence[int],
                fields: Sequence[Sequence[int | None]],
                votes: Sequence[Sequence[int | None] | None], choice_id_of: Mapping[str, int],
                officer: str, entered_at: str, entered_by: str) -> str:
    """The load's row: ballots, write-ins, over, under (``fields``) and the votes, one
    column per choice in ``choice_id_of``'s order (None: a choice no unit gives), coded;
    the units' current entries superseded."""
    width, blobs = load_blobs(unit_ids, [choice_id_of[n] for n in choice_id_of], fields, votes)
    current = tx.execute("SELECT EXISTS (SELECT 1 FROM tally_entry WHERE superseded=0)"
                         ).fetchone()[0]
    for i in range(0, len(unit_ids), 500) if current else ():
        part = list(unit_ids[i:i + 500])
        tx.execute("UPDATE tally_entry SET superseded=1 WHERE superseded=0 AND unit_id IN "
                   f"({','.join('?' * len(part))})", part)
    tx.execute("INSERT INTO retab_tally(load_id, officer, entered_at, entered_by, width, units, "
               "choices, ballots, write_ins, over_votes, under_votes, votes) "
               "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               (load_id, officer, entered_at, entered_by, width, *blobs))
    return tally_digest(width, blobs)


class _Absent:
    """A choice a sheet leaves out (stored as -2)."""


def load_blobs(unit_ids: Sequence[int], choice_ids: Sequence[int],
               fields: Sequence[Sequence[int | None]],
               votes: Sequence[Sequence[int | _Absent | None] | None]
               ) -> tuple[int, list[bytes]]:
    """The blobs of a load's row (``load_blobs_reference``'s, made column by column in C):
    the units, the choices, each field, the votes choice after choice (a column of None:
    a choice no unit gives), every one of one width. Refuses a negative count."""
    n = len(unit_ids)
    for code in ("i", "q"):
        try:
            out = [_int_bytes(code, unit_ids), _int_bytes(code, choice_ids)]
            out += [_count_bytes(code, c) for c in fields]
            out.append(b"".join(_count_bytes(code, c) if c is not None else
                                _int_bytes(code, [_ABSENT]) * n for c in votes))
        except OverflowError:
            if code == "i":  # a value 4 bytes do not hold: every column at 8
                continue
            return load_blobs_reference(unit_ids, choice_ids, fields, votes)  # (its error)
        except _Negative:
            return load_blobs_reference(unit_ids, choice_ids, fields, votes)  # (its error)
        return array(code).itemsize, out
    raise AssertionError("unreachable")


class _Negative(ValueError):
    pass


# The last byte of a little-endian integer below 0 is 0x80 or more: these are deleted from
# the last bytes, and what remains, if anything, is a negative value's.
_NON_NEGATIVE = bytes(range(0x80))


def _int_bytes(code: str, values: Sequence[Any]) -> bytes:
    a = array(code, values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def _count_bytes(code: str, column: Sequence[Any]) -> bytes:
    """A column of counts as stored: None (not given) as -1, a choice a sheet leaves out as
    -2; ``_Negative`` for a count below zero."""
    try:
        b = _int_bytes(code, column)
    except TypeError:  # a count not given (or left out), or a value that is no integer
        if column.count(None) == len(column):  # (none given: most statements' ballots)
            return _int_bytes(code, [_NONE]) * len(column)
        coded = [_NONE if v is None else _ABSENT if isinstance(v, _Absent) else v
                 for v in column]
        if _lowest([None if isinstance(v, _Absent) else v for v in column]) < 0:
            raise _Negative() from None
        return _int_bytes(code, coded)
    w = array(code).itemsize
    if b[w - 1::w].translate(None, _NON_NEGATIVE):
        raise _Negative()
    return b


def load_blobs_reference(unit_ids: Sequence[int], choice_ids: Sequence[int],
                         fields: Sequence[Sequence[int | None]],
                         votes: Sequence[Sequence[int | _Absent | None] | None]
                         ) -> tuple[int, list[bytes]]:
    """``load_blobs`` written plainly, value by value (what the tests hold it to, and what
    gives its errors their words): the lowest count of all first, then the blobs."""
    n = len(unit_ids)
    given = [c for c in votes if c is not None]
    low = min([_lowest([None if isinstance(v, _Absent) else v for v in c])
               for c in (*fields, *given)], default=0)
    if low < 0:
        raise ValueError(f"a loaded count cannot be negative ({low})")
    coded_votes: list[int] = []
    for c in votes:
        coded_votes += [_ABSENT] * n if c is None else [
            _NONE if v is None else _ABSENT if isinstance(v, _Absent) else v for v in c]
    columns = [unit_ids, choice_ids, *([_NONE if v is None else v for v in c] for c in fields),
               coded_votes]
    return same_width_blobs(columns)


def _lowest(column: Sequence[int | None]) -> int:
    """The lowest count of a column, None left out; 0 when it has none."""
    if None not in column:
        return min(column, default=0)  # type: ignore[type-var,return-value]
    if column.count(None) == len(column):
        return 0
    return min((v for v in column if v is not None), default=0)


@dataclass(frozen=True)
class _LoadTallies:
    """One load's stored tallies, decoded."""

    load_id: int
    officer: str
    entered_at: str
    entered_by: str
    units: Sequence[int]
    choices: Sequence[int]
    ballots: Sequence[int]
    write_ins: Sequence[int]
    over: Sequence[int]
    under: Sequence[int]
    votes: Sequence[int]

    def sheet(self, i: int, names: Mapping[int, str]) -> TallySheet:
        n = len(self.units)
        votes: dict[str, int | None] = {}
        for k, cid in enumerate(self.choices):
            v = self.votes[k * n + i]
            if v != _ABSENT:
                votes[names[cid]] = _uncode(v)
        return TallySheet(_uncode(self.ballots[i]), votes, _uncode(self.write_ins[i]),
                          _uncode(self.over[i]), _uncode(self.under[i]))


def _load_tallies(conn: sqlite3.Connection, contest_id: int) -> list[_LoadTallies]:
    """The contest's loads' tallies, oldest first."""
    out = []
    for (lid, officer, at, by, width, *blobs) in conn.execute(
            "SELECT t.load_id, t.officer, t.entered_at, t.entered_by, t.width, t.units, "
            "t.choices, t.ballots, t.write_ins, t.over_votes, t.under_votes, t.votes FROM "
            "retab_tally t JOIN retab_load l ON l.id = t.load_id WHERE l.contest_id=? "
            "ORDER BY t.load_id", (contest_id,)).fetchall():
        cols = [int_values(bytes(b), int(width)) for b in blobs]
        out.append(_LoadTallies(int(lid), officer, at, by, *cols))
    return out


def _current_loaded(conn: sqlite3.Connection, contest_id: int,
                    unit_ids: Sequence[int] | None, has_entries: set[int]
                    ) -> dict[int, tuple[_LoadTallies, int]]:
    """unit id → (the load whose tally is the unit's, the unit's place in it): the newest
    load holding the unit, unless the unit was set aside from it or has current tally
    entries of its own (a hand count after the set-aside, or a load of format 8)."""
    loads_ = _load_tallies(conn, contest_id)
    if not loads_:
        return {}
    want = None if unit_ids is None else set(unit_ids)
    newest: dict[int, tuple[_LoadTallies, int]] = {}
    for t in loads_:
        for i, u in enumerate(t.units):
            if want is None or u in want:
                newest[u] = (t, i)
    aside = {(int(u), int(lid)) for u, lid in conn.execute(
        "SELECT s.unit_id, s.load_id FROM retab_set_aside s JOIN retab_load l ON "
        "l.id = s.load_id WHERE l.contest_id=?", (contest_id,))}
    return {u: (t, i) for u, (t, i) in newest.items()
            if u not in has_entries and (u, t.load_id) not in aside}


def _units_with_entries(conn: sqlite3.Connection, contest_id: int,
                        unit_ids: Sequence[int] | None) -> set[int]:
    only, args = _only("e.unit_id", unit_ids)
    return {int(u) for (u,) in conn.execute(
        "SELECT DISTINCT e.unit_id FROM tally_entry e JOIN recount_unit u ON u.id = e.unit_id "
        f"WHERE u.contest_id=? AND e.superseded=0{only}", (contest_id, *args))}


def loaded_entries(conn: sqlite3.Connection, contest_id: int,
                   unit_ids: Sequence[int] | None = None,
                   has_entries: set[int] | None = None) -> dict[int, StoredEntry]:
    """unit id → its current loaded tally (entry 1) from a load's stored tallies. Its id is
    the load's id, negated (it is no row of tally_entry)."""
    if has_entries is None:
        has_entries = _units_with_entries(conn, contest_id, unit_ids)
    current = _current_loaded(conn, contest_id, unit_ids, has_entries)
    if not current:
        return {}
    names = {int(i): n for i, n in conn.execute("SELECT id, name FROM choice WHERE "
                                                 "contest_id=?", (contest_id,))}
    return {u: StoredEntry(-t.load_id, u, TallyEntry(1, t.officer, t.sheet(i, names)),
                           t.entered_at, t.entered_by)
            for u, (t, i) in current.items()}


def loaded_units(conn: sqlite3.Connection, contest_id: int,
                 unit_ids: Sequence[int] | None = None) -> dict[int, int]:
    """unit id → the load its current entry 1 came from (units whose tally was loaded)."""
    only, args = _only("e.unit_id", unit_ids)
    out = {int(u): int(lid) for u, lid in conn.execute(
        "SELECT e.unit_id, e.load_id FROM tally_entry e JOIN recount_unit u ON u.id = e.unit_id "
        "WHERE u.contest_id=? AND e.superseded=0 AND e.entry_no=1 AND e.load_id IS NOT NULL"
        f"{only}", (contest_id, *args))}
    has = _units_with_entries(conn, contest_id, unit_ids)
    for u, (t, _) in _current_loaded(conn, contest_id, unit_ids, has).items():
        out[u] = t.load_id
    return out


def set_aside_loaded(tx: Tx, contest_id: int, unit_id: int, at: str, by: str) -> None:
    """Set a loaded unit's tally aside (kept in history): its current entries are superseded
    (a load stored before case format 9), and it is marked set aside from the newest load
    holding it."""
    supersede_unit_entries(tx, unit_id)
    current = _current_loaded(tx.conn, contest_id, [unit_id], set())
    if unit_id in current:  # (not set aside from that load yet: else it is not current)
        tx.execute("INSERT INTO retab_set_aside(unit_id, load_id, set_aside_at, "
                   "set_aside_by) VALUES (?,?,?,?)",
                   (unit_id, current[unit_id][0].load_id, at, by))


def supersede_unit_entries(tx: Tx, unit_id: int) -> int:
    """Set aside a unit's current entries (kept in history); returns how many."""
    return tx.execute("UPDATE tally_entry SET superseded=1 WHERE unit_id=? AND superseded=0",
                        (unit_id,)).rowcount


def set_source_note(tx: Tx, unit_id: int, note: str) -> None:
    tx.execute("UPDATE recount_unit SET source_note=? WHERE id=?", (note, unit_id))


def source_notes(conn: sqlite3.Connection, contest_id: int) -> dict[int, str]:
    return {int(i): n for i, n in conn.execute(
        "SELECT id, source_note FROM recount_unit WHERE contest_id=? AND source_note != ''",
        (contest_id,))}
