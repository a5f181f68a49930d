"""Reading and writing the case file's tables; callers wrap writes in ``db.transaction``."""

from __future__ import annotations

import json
import sqlite3
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from recount_desk.core.calendar import ClosedDay
from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    Election,
    ElectionKind,
    ExtraKind,
    Issue,
    PassRule,
    Scope,
    Severity,
    VoteColumn,
    VotingMethod,
)

from .blobs import column_blobs, int_values
from .db import Tx, canvass_digest


def set_election(tx: Tx, e: Election, edition: str | None = None) -> None:
    tx.execute(
        "INSERT INTO election(id, name, election_date, kind, jurisdiction, canvass_completed, "
        "officer, edition) VALUES (1,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET "
        "name=excluded.name, election_date=excluded.election_date, kind=excluded.kind, "
        "jurisdiction=excluded.jurisdiction, canvass_completed=excluded.canvass_completed, "
        "officer=excluded.officer, edition=excluded.edition",
        (e.name, e.date.isoformat(), e.kind.value, e.jurisdiction,
         e.canvass_completed.isoformat(timespec="minutes") if e.canvass_completed else None,
         e.officer, edition),
    )


def get_election(conn: sqlite3.Connection) -> tuple[Election, str | None] | None:
    row = conn.execute("SELECT name, election_date, kind, jurisdiction, canvass_completed, "
                       "officer, edition FROM election WHERE id=1").fetchone()
    if row is None:
        return None
    name, d, kind, jur, cc, officer, edition = row
    return (Election(name, date.fromisoformat(d), ElectionKind(kind), jur,
                     datetime.fromisoformat(cc) if cc else None, officer), edition)


def closed_days(conn: sqlite3.Connection) -> tuple[ClosedDay, ...]:
    """The days the officer entered as proclaimed holidays (63G-1-301), oldest first."""
    row = conn.execute("SELECT value FROM meta WHERE key='closed_days'").fetchone()
    if row is None:
        return ()
    return tuple(sorted(ClosedDay(date.fromisoformat(d["day"]), d["reason"])
                        for d in json.loads(row[0])))


def set_closed_days(tx: Tx, days: Sequence[ClosedDay]) -> None:
    value = json.dumps([{"day": d.day.isoformat(), "reason": d.reason} for d in sorted(days)],
                       ensure_ascii=False, sort_keys=True)
    tx.execute("INSERT INTO meta(key, value) VALUES ('closed_days', ?) ON CONFLICT(key) DO "
                 "UPDATE SET value=excluded.value", (value,))


@dataclass(frozen=True)
class ImportInfo:
    id: int
    file: str
    sha256: str
    family: str
    imported_at: str
    rows: int
    primary: bool
    digest: str


def current_import(conn: sqlite3.Connection) -> ImportInfo | None:
    row = conn.execute("SELECT id, file, sha256, family, imported_at, rows, primary_election, "
                       "digest FROM canvass_import ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        return None
    return ImportInfo(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])


def clear_canvass(tx: Tx) -> None:
    """Remove the canvass (before a replacement import), keeping the election."""
    for t in ("canvass_column", "canvass_extra", "request_voter", "recount_request", "choice",
              "import_issue", "contest", "precinct", "canvass_import"):
        tx.execute(f"DELETE FROM {t}")


def insert_canvass(
    tx: Tx,
    *,
    file: str,
    sha256: str,
    family: str,
    imported_at: str,
    primary: bool,
    precincts: Sequence[str],
    totals: Sequence[ContestTotals],
    columns: Sequence[VoteColumn],
    extras: Sequence[tuple[int, int, str, int]],
    issues: Sequence[Issue],
) -> tuple[int, str]:
    """Insert a whole canvass; returns (import id, canvass digest).

    ``columns`` hold each choice's votes by precinct number (1-based), in (contest, choice)
    order with ascending precincts; they are stored as one row per choice, and the digest
    is :func:`~recount_desk.store.db.canvass_digest` (scheme 3).
    """
    tx.executemany("INSERT INTO precinct(id, name) VALUES (?,?)",
                     ((i + 1, p) for i, p in enumerate(precincts)))
    choice_base: list[int] = []
    next_choice = 1
    contest_rows = []
    choice_rows = []
    for ci, t in enumerate(totals):
        c = t.contest
        contest_rows.append((ci + 1, ci, c.key.title, c.key.district, c.key.party, c.kind.value,
                             c.seats, int(c.seats_from_file), c.scope.value,
                             c.voting_method.value, c.pass_rule.value, t.precincts,
                             t.extras.get(ExtraKind.OVER), t.extras.get(ExtraKind.UNDER),
                             t.extras.get(ExtraKind.BLANK), int(t.official), t.hidden_cells,
                             json.dumps(dict(t.hidden_max), sort_keys=True, ensure_ascii=False)
                             if t.hidden_max else None,
                             json.dumps(dict(t.precinct_sums), sort_keys=True,
                                        ensure_ascii=False) if t.precinct_sums else None))
        choice_base.append(next_choice)
        for k, ct in enumerate(t.choices):
            choice_rows.append((next_choice + k, ci + 1, k, ct.choice.name, ct.choice.party,
                                ct.choice.kind.value, ct.votes))
        next_choice += len(t.choices)
    tx.executemany("INSERT INTO contest(id, position, title, district, party, kind, seats, "
                     "seats_from_file, scope, voting_method, pass_rule, precincts, over_votes, "
                     "under_votes, blank_votes, official_totals, hidden_cells, hidden_max, "
                     "precinct_sums) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     contest_rows)
    tx.executemany("INSERT INTO choice(id, contest_id, position, name, party, kind, "
                     "canvass_total) VALUES (?,?,?,?,?,?,?)", choice_rows)
    stored = [(choice_base[col.contest] + col.choice, *column_blobs(col.precincts, col.votes))
              for col in columns]
    tx.executemany("INSERT INTO canvass_column(choice_id, rows, width, precincts, votes) "
                     "VALUES (?,?,?,?,?)", ((c, len(v) // w, w, p, v) for c, w, p, v in stored))
    ext = sorted((c + 1, p + 1, k, v) for p, c, k, v in extras)
    tx.executemany("INSERT INTO canvass_extra(contest_id, precinct_id, kind, votes) "
                     "VALUES (?,?,?,?)", ext)
    digest = canvass_digest(stored, ext)
    rows = sum(len(v) // w for _, w, _, v in stored)
    cur = tx.execute("INSERT INTO canvass_import(file, sha256, family, imported_at, rows, "
                       "primary_election, digest, digest_scheme) VALUES (?,?,?,?,?,?,?,3)",
                       (file, sha256, family, imported_at, rows, int(primary), digest))
    import_id = int(cur.lastrowid or 0)
    contest_ids = {t.contest.key: ci + 1 for ci, t in enumerate(totals)}
    tx.executemany("INSERT INTO import_issue(import_id, file, sheet, row_number, column_name, "
                     "severity, message, contest_id) VALUES (?,?,?,?,?,?,?,?)",
                     ((import_id, i.file, i.sheet, i.row, i.column, i.severity.value, i.message,
                       contest_ids.get(i.contest) if i.only_contest and i.contest else None)
                      for i in issues))
    return import_id, digest


def import_issues(conn: sqlite3.Connection) -> list[Issue]:
    """The import's findings, each with the contest whose figures it is bound to."""
    return [Issue(f, m, s, r, c, Severity(sev),
                  contest=ContestKey(t, d, p) if t is not None else None,
                  only_contest=t is not None)
            for f, s, r, c, sev, m, t, d, p in conn.execute(
                "SELECT i.file, i.sheet, i.row_number, i.column_name, i.severity, i.message, "
                "c.title, c.district, c.party FROM import_issue i "
                "LEFT JOIN contest c ON c.id = i.contest_id ORDER BY i.id")]


def withheld_contests(conn: sqlite3.Connection) -> dict[int, int]:
    """The errors bound to each contest's own figures, by contest id (the contests imported
    with no verdict on them: core.rules.unread_counts)."""
    return dict(conn.execute(
        "SELECT contest_id, count(*) FROM import_issue WHERE severity='error' AND "
        "contest_id IS NOT NULL GROUP BY contest_id").fetchall())


@dataclass(frozen=True)
class StoredContest:
    id: int
    totals: ContestTotals


def contests(conn: sqlite3.Connection, contest_id: int | None = None) -> list[StoredContest]:
    """Every contest (or just ``contest_id``) with its canvass totals, read from the choice
    table: no scan of the canvass votes."""
    where, args = ("WHERE contest_id=?", (contest_id,)) if contest_id is not None else ("", ())
    choices: dict[int, list[ChoiceTotal]] = {}
    for cid, name, party, kind, total in conn.execute(
            "SELECT contest_id, name, party, kind, canvass_total FROM choice "
            f"{where} ORDER BY contest_id, position", args):
        choices.setdefault(cid, []).append(ChoiceTotal(Choice(name, party, ChoiceKind(kind)),
                                                       total))
    out = []
    for row in conn.execute(
            "SELECT id, title, district, party, kind, seats, seats_from_file, scope, "
            "voting_method, pass_rule, precincts, over_votes, under_votes, blank_votes, "
            "official_totals, hidden_cells, hidden_max, precinct_sums "
            f"FROM contest {where.replace('contest_id', 'id')} ORDER BY position", args):
        (cid, title, district, party, kind, seats, sff, scope, vm, pr, nprec,
         over, under, blank, official, hidden, hmax, psums) = row
        extras = {k: v for k, v in ((ExtraKind.OVER, over), (ExtraKind.UNDER, under),
                                    (ExtraKind.BLANK, blank)) if v is not None}
        contest = Contest(ContestKey(title, district, party), ContestKind(kind), seats,
                          Scope(scope), VotingMethod(vm), PassRule(pr), bool(sff))
        out.append(StoredContest(cid, ContestTotals(
            contest, tuple(choices.get(cid, [])), extras, nprec, official=bool(official),
            hidden_cells=hidden, hidden_max=json.loads(hmax) if hmax else {},
            precinct_sums=json.loads(psums) if psums else {})))
    return out


def contest_by_id(conn: sqlite3.Connection, contest_id: int) -> StoredContest:
    found = contests(conn, contest_id)
    if not found:
        raise KeyError(contest_id)
    return found[0]


def has_recount(conn: sqlite3.Connection) -> bool:
    """True once a recount has been started for any contest."""
    return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM recount)").fetchone()[0] == 1)


def update_contest(tx: Tx, contest_id: int, *, seats: int, scope: Scope,
                   voting_method: VotingMethod, pass_rule: PassRule,
                   kind: ContestKind | None = None) -> None:
    # The officer's settings state the seats: the verdict no longer calls them assumed.
    tx.execute("UPDATE contest SET seats=?, seats_from_file=1, scope=?, voting_method=?, "
               "pass_rule=? WHERE id=?",
               (seats, scope.value, voting_method.value, pass_rule.value, contest_id))
    if kind is not None:
        tx.execute("UPDATE contest SET kind=? WHERE id=?", (kind.value, contest_id))


def precinct_names(conn: sqlite3.Connection) -> dict[int, str]:
    """Precinct id → name."""
    return dict(conn.execute("SELECT id, name FROM precinct"))


def contest_counts(conn: sqlite3.Connection, contest_id: int
                   ) -> Iterator[tuple[str, array[int], array[int]]]:
    """(choice name, precinct ids, votes) of each choice with canvass votes in one contest,
    in ballot order."""
    for name, width, pids, votes in conn.execute(
            "SELECT c.name, v.width, v.precincts, v.votes FROM canvass_column v JOIN choice c "
            "ON c.id = v.choice_id WHERE c.contest_id=? ORDER BY c.position", (contest_id,)):
        yield name, int_values(pids, width), int_values(votes, width)


def precinct_table(conn: sqlite3.Connection, contest_id: int
                   ) -> tuple[list[str], list[str], list[list[int]]]:
    """(precinct names, choice names, votes[precinct][choice]) of one contest's canvass."""
    chs = [n for (n,) in conn.execute("SELECT name FROM choice WHERE contest_id=? "
                                      "ORDER BY position", (contest_id,))]
    col = {n: i for i, n in enumerate(chs)}
    rows: dict[int, list[int]] = {}
    for name, pids, votes in contest_counts(conn, contest_id):
        for pid, n in zip(pids, votes, strict=True):
            rows.setdefault(pid, [0] * len(chs))[col[name]] = n
    order = sorted(rows)
    names = precinct_names(conn)
    return [names[p] for p in order], chs, [rows[p] for p in order]


def add_request(tx: Tx, *, contest_id: int, requester: str,
                candidate: str | None, filed_at: datetime, filed_with: str, timely: bool,
                eligible: bool, right_office: bool, accepted: bool,
                override_reason: str | None, findings: list[dict[str, object]],
                voters: Sequence[tuple[str, bool]], recorded_by: str, recorded_at: str) -> int:
    cur = tx.execute(
        "INSERT INTO recount_request(contest_id, requester, candidate, filed_at, filed_with, "
        "timely, eligible, right_office, accepted, override_reason, findings, recorded_by, "
        "recorded_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (contest_id, requester, candidate, filed_at.isoformat(timespec="minutes"), filed_with,
         int(timely), int(eligible), int(right_office), int(accepted), override_reason,
         json.dumps(findings, ensure_ascii=False), recorded_by, recorded_at))
    rid = int(cur.lastrowid or 0)
    tx.executemany("INSERT INTO request_voter(request_id, position, name, voted_confirmed) "
                     "VALUES (?,?,?,?)",
                     ((rid, i, n, int(ok)) for i, (n, ok) in enumerate(voters)))
    return rid


@dataclass(frozen=True)
class StoredRequest:
    id: int
    contest_id: int
    requester: str
    candidate: str | None
    filed_at: datetime
    filed_with: str
    timely: bool
    eligible: bool
    right_office: bool
    accepted: bool
    override_reason: str | None
    findings: list[dict[str, object]]
    voters: list[tuple[str, bool]]
    recorded_by: str
    recorded_at: str


def requests(conn: sqlite3.Connection, contest_id: int | None = None) -> list[StoredRequest]:
    q = ("SELECT id, contest_id, requester, candidate, filed_at, filed_with, timely, eligible, "
         "right_office, accepted, override_reason, findings, recorded_by, recorded_at "
         "FROM recount_request WHERE withdrawn=0")
    args: tuple[int, ...] = ()
    if contest_id is not None:
        q += " AND contest_id=?"
        args = (contest_id,)
    out = []
    for r in conn.execute(q + " ORDER BY id", args).fetchall():
        voters = [(n, bool(ok)) for n, ok in conn.execute(
            "SELECT name, voted_confirmed FROM request_voter WHERE request_id=? "
            "ORDER BY position", (r[0],))]
        out.append(StoredRequest(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), r[5],
                                 bool(r[6]), bool(r[7]), bool(r[8]), bool(r[9]), r[10],
                                 json.loads(r[11]), voters, r[12], r[13]))
    return out
