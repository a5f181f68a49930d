"""A case on a counting-center PostgreSQL server: everything that differs from SQLite, here.

The counting center keeps one case in one PostgreSQL database, addressed by a
``postgresql://`` URL wherever a case file's path is taken. The schema is the SQLite one:
the tables are the case file's own, as the migrations make them, written in PostgreSQL's
dialect (``INTEGER`` is ``BIGINT``, ``BLOB`` is ``BYTEA``). The repository functions are the
same for both engines: :class:`PgCaseConnection` takes their SQL as it is (``?``
placeholders, ``cursor.lastrowid``) and answers as ``sqlite3`` does (integers for booleans,
``sqlite3`` exceptions), so ``store`` and ``actions`` have one code path.

What the server adds, and how SQLite's guarantees are kept:

- **One chain.** Every write transaction first takes the case's transaction-level advisory
  lock (``pg_advisory_xact_lock``): the stations' actions are applied one after another,
  each on the state the previous one committed, so each audit entry follows the one before
  it — the chain is never forked. (SQLite's ``BEGIN IMMEDIATE`` does the same for a file.)
- **Ids as SQLite gives them.** A row inserted without an id gets the table's largest id
  plus one (a trigger), as SQLite's rowid does; under the lock no two stations draw the
  same id, and a case moved between the engines keeps its ids and its state digest.
- **Check before write.** Every statement that changes a case table counts itself in
  ``rd_case.changes`` (a statement trigger); every audited commit records the count it left
  and its audit entry's hash. When they still agree at the next action, nothing changed the
  case since an audited action: the check is two queries, as with SQLite's ``data_version``.
  Otherwise the case is checked in full against its log.
- **A save need not read the whole case.** Every row a case table gains, loses or changes
  is written by a row trigger to ``rd_row_log`` (its values as JSON, with the number of the
  audit entry being written and the transaction's id), in the same transaction. A station
  holds the per-table row sums (store/digest.py) of the state it last checked in full or
  wrote itself; at its next save it adds the rows logged since — the other stations'
  actions, then its own — instead of reading every row. What it reads there is checked, not
  trusted: the sums it reaches for the newest entry before its own must give that entry's
  recorded state digest (the chain vouches for it), and its own rows must carry its own
  transaction's id; otherwise it computes the sums from every row, as ``verify`` does.
- **Read-only outside an action.** The session's transactions are read-only by default;
  only ``transaction()`` begins a read-write one, so a write without its audit entry fails.
- **Stations hear each save.** Every audited commit announces its entry's number on the
  ``recount_desk_saved`` channel (``NOTIFY``, delivered when it commits); a station
  listens on a connection of its own (:class:`SaveListener`) and reads the case again at
  once, instead of at its next look at the server.
- **A lost connection** raises :class:`ServerUnavailable` (an ``sqlite3.OperationalError``):
  the action was not saved, or — when the connection broke during the commit itself — it
  cannot be known from here whether it was; it is never reported as saved.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from recount_desk.core.audit import AuditEntry

SCHEMES = ("postgresql://", "postgres://")
# The advisory lock every write transaction of a case takes (one case per database).
CHAIN_LOCK = 0x52434E54  # "RCNT", the case file's application id
# Tables of the server's own bookkeeping: not part of the case's state digest.
OWN_TABLES = ("rd_case", "rd_row_log")
# The channel every audited commit notifies with its entry's number.
SAVED_CHANNEL = "recount_desk_saved"
# Audit entries' rows kept in rd_row_log (older ones are pruned: a station that far behind
# computes its sums from every row once).
LOG_KEEP = 2048


def is_url(location: object) -> bool:
    """Whether ``location`` addresses a case on a server rather than a case file."""
    if isinstance(location, CaseURL):
        return True
    return isinstance(location, str) and location.lower().startswith(SCHEMES)


def location(path: str | Path | CaseURL) -> Path | CaseURL:
    """A case's address as given by the user: a ``postgresql://`` URL or a file path."""
    if isinstance(path, CaseURL):
        return path
    return CaseURL(str(path)) if is_url(path) else Path(path)


class CaseURL:
    """The address of a case on a counting-center server, as the window and the messages
    show it: ``name`` is "the case «slco» on server host", ``str()`` the URL without its
    password. ``url`` is the full URL (with any password) to connect with."""

    def __init__(self, url: str | CaseURL) -> None:
        self.url: str = url.url if isinstance(url, CaseURL) else str(url)
        parts = urlsplit(self.url)
        self.database = unquote(parts.path.lstrip("/")) or unquote(parts.username or "")
        host = parts.hostname or "localhost"
        if host.startswith("%2f") or host.startswith("%2F") or host.startswith("/"):
            host = "this computer"
        self.host = host
        self.name = f"the case «{self.database}» on the server {host}"
        self.stem = self.database
        netloc = parts.netloc.rsplit("@", 1)
        if len(netloc) == 2:
            user = netloc[0].split(":", 1)[0]
            netloc = [f"{user}@{netloc[1]}"]
        self._shown = urlunsplit((parts.scheme, netloc[0], parts.path, parts.query, ""))

    def __str__(self) -> str:
        return self._shown

    def __repr__(self) -> str:
        return f"CaseURL({self._shown!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaseURL) and other.url == self.url

    def __hash__(self) -> int:
        return hash(self.url)

    def resolve(self) -> CaseURL:
        return self


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as e:  # pragma: no cover - psycopg is a dependency of the package
        from .db import ServerUnavailable

        raise ServerUnavailable("This installation of Recount Desk has no PostgreSQL driver "
                                "(psycopg); reinstall it to work with a counting-center "
                                "server.") from e
    return psycopg


# --- the connection ---------------------------------------------------------------------


class PgCursor:
    """A finished statement's results, read as from an ``sqlite3.Cursor``."""

    def __init__(self, rows: list[tuple[Any, ...]] | None, rowcount: int,
                 lastrowid: int | None) -> None:
        self._rows = rows or []
        self._i = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._i >= len(self._rows):
            return None
        self._i += 1
        return self._rows[self._i - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        out = self._rows[self._i:]
        self._i = len(self._rows)
        return out

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        while (row := self.fetchone()) is not None:
            yield row


_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+\"?(\w+)\"?", re.IGNORECASE)


@cache
def translate(sql: str) -> str:
    """The store's SQL (``?`` placeholders) as psycopg takes it (``%s``; ``%`` doubled),
    with the one comparison PostgreSQL spells differently (``IS [NOT] ?``)."""
    out: list[str] = []
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            out.append("%%" if ch == "%" else ch)
            if ch == quote:
                quote = None
            continue
        if ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "?":
            out.append("%s")
        elif ch == "%":
            out.append("%%")
        else:
            out.append(ch)
    text = "".join(out)
    text = re.sub(r"\bIS\s+NOT\s+%s", "IS DISTINCT FROM %s", text, flags=re.IGNORECASE)
    return re.sub(r"\bIS\s+%s", "IS NOT DISTINCT FROM %s", text, flags=re.IGNORECASE)


def _translate_error(e: Exception, during_commit: bool = False) -> sqlite3.Error:
    """A psycopg error as the ``sqlite3`` error the store and the actions already handle."""
    from .db import ServerUnavailable

    psycopg = _psycopg()
    errors = psycopg.errors
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    if isinstance(e, errors.ReadOnlySqlTransaction):
        return sqlite3.OperationalError(f"attempt to write a readonly database ({text}): "
                                        "only an audited action writes to a case")
    if isinstance(e, (errors.IntegrityError, errors.RaiseException)):
        return sqlite3.IntegrityError(text)
    if isinstance(e, errors.DiskFull):
        return sqlite3.OperationalError(f"database or disk is full ({text})")
    if isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)) and not isinstance(
            e, errors.QueryCanceled):
        if during_commit:
            return ServerUnavailable(
                "The connection to the counting-center server was lost while this action was "
                "being saved: it cannot be known from here whether it was saved. Reconnect and "
                f"look before doing it again ({text}).")
        return ServerUnavailable(f"The counting-center server cannot be reached ({text}): "
                                 "this action was NOT saved. Reconnect and do it again.")
    if isinstance(e, psycopg.ProgrammingError):
        return sqlite3.OperationalError(text)
    return sqlite3.DatabaseError(text)


class PgCaseConnection:
    """A case's connection to the server, with the interface of the SQLite one that the
    store uses (``execute``, ``executemany``, ``in_transaction``, ``close``) and its
    ``verified``, ``after_commit`` and ``writer`` attributes."""

    engine = "postgresql"

    def __init__(self, raw: Any, address: CaseURL, readonly: bool = False) -> None:
        self.raw = raw
        self.address = address
        self.readonly = readonly
        # The schema as last checked in full (its marker) and what was read of it then.
        self.schema_mark: str | None = None
        self.layout: dict[str, Any] = {}
        # The audit entries this connection wrote (a station tells its own saves apart).
        self.written: set[int] = set()
        self.verified: tuple[int, str] | None = None
        # The per-table row sums (store/digest.py) of the state as of the audit entry whose
        # hash and number are beside them: from this station's own full check or its own
        # last save, brought up to date at the next save from rd_row_log.
        self.sums: tuple[str, dict[str, int]] | None = None
        self.sums_seq = 0
        self.after_commit: Any = None
        self.writer: str | None = None

    @property
    def in_transaction(self) -> bool:
        status = self.raw.info.transaction_status
        tx = _psycopg().pq.TransactionStatus
        return bool(status in (tx.INTRANS, tx.INERROR, tx.ACTIVE))

    @property
    def closed(self) -> bool:
        return bool(self.raw.closed) or self.raw.broken

    def execute(self, sql: str, args: Sequence[Any] = ()) -> PgCursor:
        q = translate(sql)
        m = _INSERT.match(sql)
        returning = m is not None and m.group(1) in id_tables() and "RETURNING" not in q.upper()
        if returning:
            q += " RETURNING id"
        commit = sql.strip().upper() == "COMMIT"
        try:
            cur = self.raw.execute(q, tuple(args))
            rows = cur.fetchall() if cur.description is not None else None
        except Exception as e:  # psycopg errors become the sqlite3 ones the callers know
            if isinstance(e, _psycopg().Error):
                raise _translate_error(e, during_commit=commit) from e
            raise
        lastrowid = int(rows[0][0]) if returning and rows else None
        return PgCursor(None if returning else rows, cur.rowcount, lastrowid)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> PgCursor:
        data = [tuple(r) for r in rows]
        if not data:
            return PgCursor(None, 0, None)
        try:
            with self.raw.cursor() as cur:
                cur.executemany(translate(sql), data)
                count = cur.rowcount
        except Exception as e:
            if isinstance(e, _psycopg().Error):
                raise _translate_error(e) from e
            raise
        return PgCursor(None, count, None)

    def script(self, sql: str) -> None:
        """Run DDL as it is (no placeholders)."""
        try:
            self.raw.execute(sql)
        except Exception as e:
            if isinstance(e, _psycopg().Error):
                raise _translate_error(e) from e
            raise

    def close(self) -> None:
        self.raw.close()


def is_pg(conn: object) -> bool:
    return getattr(conn, "engine", None) == "postgresql"


def _adapt(raw: Any) -> None:
    """Answer as SQLite does: booleans are the integers 0 and 1 both ways, and a sum is
    an integer (the schema holds no fractions)."""
    psycopg = _psycopg()
    from psycopg.adapt import Dumper, Loader

    class BoolAsInt(Dumper):
        oid = psycopg.adapters.types["int8"].oid

        def dump(self, obj: Any) -> bytes:
            return b"1" if obj else b"0"

    class IntFromBool(Loader):
        def load(self, data: Any) -> int:
            return 1 if bytes(data) == b"t" else 0

    class IntFromNumeric(Loader):
        def load(self, data: Any) -> int:
            return int(bytes(data).split(b".")[0])

    raw.adapters.register_dumper(bool, BoolAsInt)
    raw.adapters.register_loader("bool", IntFromBool)
    raw.adapters.register_loader("numeric", IntFromNumeric)


def connect(location: str | CaseURL, *, readonly: bool = False,
            timeout: int = 10) -> PgCaseConnection:
    """A connection to the case at ``location``; refused with a clear message when the
    server or the database cannot be reached."""
    psycopg = _psycopg()
    address = location if isinstance(location, CaseURL) else CaseURL(location)
    try:
        raw = psycopg.connect(address.url, autocommit=True, connect_timeout=timeout,
                              application_name="Recount Desk")
    except psycopg.Error as e:
        from .db import CaseFileError

        first = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
        raise CaseFileError(f"Cannot connect to {address.name} ({address}): {first}. Check "
                            "the server's address, the database's name, your role and "
                            "password, and that the server is running.") from e
    _adapt(raw)
    raw.execute("SET default_transaction_read_only = on")
    # Text compared byte by byte (as SQLite's BINARY), whatever the database's locale.
    raw.execute("SET TIME ZONE 'UTC'")
    return PgCaseConnection(raw, address, readonly)


# --- the schema ---------------------------------------------------------------------------


@cache
def _sqlite_tables() -> tuple[tuple[str, str], ...]:
    """(name, CREATE TABLE text) of every table of the current case format, in an order
    where a table comes after those it references."""
    from .schema import expected_schema

    tables = {n: sql or "" for (t, n), (_, sql) in expected_schema() if t == "table"}
    out: list[tuple[str, str]] = []
    done: set[str] = set()

    def visit(name: str) -> None:
        if name in done:
            return
        done.add(name)
        for ref in re.findall(r"REFERENCES\s+(\w+)", tables[name]):
            if ref != name and ref in tables:
                visit(ref)
        out.append((name, tables[name]))

    for name in sorted(tables):
        visit(name)
    return tuple(out)


@cache
def id_tables() -> frozenset[str]:
    """The tables whose rows are numbered by an ``id`` column SQLite fills in."""
    return frozenset(n for n, sql in _sqlite_tables()
                     if re.search(r"\bid INTEGER PRIMARY KEY\b", sql))


def case_tables() -> list[str]:
    return sorted(n for n, _ in _sqlite_tables())


def case_tables_in_order() -> list[str]:
    """The case's tables, each after the tables it references."""
    return [n for n, _ in _sqlite_tables()]


def _pg_table(sql: str) -> str:
    sql = re.sub(r"\)\s*WITHOUT ROWID\s*$", ")", sql.strip())
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    return re.sub(r"\bBLOB\b", "BYTEA", sql)


_FUNCTIONS = {
    "rd_append_only": "BEGIN RAISE EXCEPTION 'the audit log is append-only'; END",
    "rd_next_id": "BEGIN EXECUTE format('SELECT coalesce(max(id), 0) + 1 FROM %I', "
                  "TG_TABLE_NAME) INTO NEW.id; RETURN NEW; END",
    "rd_changed": "BEGIN UPDATE rd_case SET changes = changes + 1; RETURN NULL; END",
    # (rd.seq is set by the audited action, store.db.transaction; rows changed outside one
    # are not logged, and the statement counter above already sees them)
    "rd_log_row": "DECLARE s text := current_setting('rd.seq', true); BEGIN "
                  "IF s IS NULL OR s = '' THEN RETURN NULL; END IF; "
                  "IF TG_OP <> 'INSERT' THEN INSERT INTO rd_row_log(seq, tx, tbl, sign, vals) "
                  "VALUES (s::bigint, txid_current(), TG_TABLE_NAME, -1, "
                  "row_to_json(OLD)::text); END IF; "
                  "IF TG_OP <> 'DELETE' THEN INSERT INTO rd_row_log(seq, tx, tbl, sign, vals) "
                  "VALUES (s::bigint, txid_current(), TG_TABLE_NAME, 1, "
                  "row_to_json(NEW)::text); END IF; RETURN NULL; END",
}

_ROW_LOG_DDL = (
    "CREATE TABLE rd_row_log (seq BIGINT NOT NULL, tx BIGINT NOT NULL, tbl TEXT NOT NULL, "
    "sign BIGINT NOT NULL, vals TEXT NOT NULL)",
    "CREATE INDEX rd_row_log_seq ON rd_row_log(seq)",
)


def logged_tables() -> list[str]:
    """The case tables whose rows the state digest covers (and rd_row_log records)."""
    from .db import BULK_TABLES

    return [t for t in case_tables() if t not in ("audit", *BULK_TABLES)]


def _expected_triggers() -> dict[tuple[str, str], str]:
    """(table, trigger) → function, every trigger a case's database has."""
    out = {("audit", "audit_no_update"): "rd_append_only",
           ("audit", "audit_no_delete"): "rd_append_only",
           ("audit", "audit_no_truncate"): "rd_append_only"}
    for t in case_tables():
        out[(t, f"{t}_changed")] = "rd_changed"
        if t in id_tables():
            out[(t, f"{t}_id")] = "rd_next_id"
    for t in logged_tables():
        out[(t, f"{t}_logged")] = "rd_log_row"
    return out


def _trigger_ddl(table: str, trig: str, fn: str) -> str:
    if trig.endswith("_no_truncate"):
        return (f"CREATE TRIGGER {trig} BEFORE TRUNCATE ON {table} FOR EACH STATEMENT "
                f"EXECUTE FUNCTION {fn}()")
    if trig.startswith("audit_no_"):
        event = "UPDATE" if trig.endswith("update") else "DELETE"
        return (f"CREATE TRIGGER {trig} BEFORE {event} ON {table} FOR EACH ROW "
                f"EXECUTE FUNCTION {fn}()")
    if trig.endswith("_id"):
        return (f"CREATE TRIGGER {trig} BEFORE INSERT ON {table} FOR EACH ROW "
                f"WHEN (NEW.id IS NULL) EXECUTE FUNCTION {fn}()")
    if trig.endswith("_logged"):
        return (f"CREATE TRIGGER {trig} AFTER INSERT OR UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {fn}()")
    return (f"CREATE TRIGGER {trig} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {fn}()")


def schema_ddl() -> list[str]:
    """The statements that make an empty case in an empty database (current format)."""
    from .migrations import APPLICATION_ID, SCHEMA_VERSION

    ddl = [_pg_table(sql) for _, sql in _sqlite_tables()]
    ddl.append("CREATE TABLE rd_case (id BIGINT PRIMARY KEY CHECK (id = 1), application "
               "BIGINT NOT NULL, schema_version BIGINT NOT NULL, changes BIGINT NOT NULL "
               "DEFAULT 0, audited_changes BIGINT NOT NULL DEFAULT 0, head TEXT NOT NULL "
               "DEFAULT '')")
    ddl.append(f"INSERT INTO rd_case(id, application, schema_version) VALUES "
               f"(1, {APPLICATION_ID}, {SCHEMA_VERSION})")
    ddl.extend(_ROW_LOG_DDL)
    for name, body in _FUNCTIONS.items():
        ddl.append(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                   f"$body${body}$body$")
    for (table, trig), fn in _expected_triggers().items():
        ddl.append(_trigger_ddl(table, trig, fn))
    return ddl


def _add_row_log(conn: PgCaseConnection) -> None:
    """A case made on the server before the row log: add it (the server's bookkeeping, not
    the case's data; it only saves the stations reading every row at each save)."""
    conn.script("BEGIN READ WRITE")
    try:
        conn.script(f"SELECT pg_advisory_xact_lock({CHAIN_LOCK})")
        if not _has_table(conn, "rd_row_log"):
            for stmt in _ROW_LOG_DDL:
                conn.script(stmt)
            conn.script(f"CREATE OR REPLACE FUNCTION rd_log_row() RETURNS trigger LANGUAGE "
                        f"plpgsql AS $body${_FUNCTIONS['rd_log_row']}$body$")
            for (table, trig), fn in _expected_triggers().items():
                if trig.endswith("_logged"):
                    conn.script(_trigger_ddl(table, trig, fn))
            # The stations' roles write the log with their rows (README's set-up grants them
            # the rows of every table there was when it was made).
            for (grantee,) in conn.execute(
                    "SELECT DISTINCT grantee FROM information_schema.role_table_grants WHERE "
                    "table_schema = current_schema() AND table_name = 'tally_entry' AND "
                    "privilege_type = 'INSERT' AND grantee <> current_user").fetchall():
                conn.script(f'GRANT SELECT, INSERT, DELETE ON rd_row_log TO "{grantee}"')
        conn.script("COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):
            conn.script("ROLLBACK")
        raise


def _has_table(conn: PgCaseConnection, name: str) -> bool:
    row = conn.execute("SELECT count(*) FROM information_schema.tables WHERE "
                       "table_schema = current_schema() AND table_name = ?", (name,)).fetchone()
    return bool(row and row[0])


def _has_case(conn: PgCaseConnection) -> bool:
    return _has_table(conn, "rd_case")


def create(location: str | CaseURL) -> PgCaseConnection:
    """A new case in the (empty) database at ``location``, its schema written in an open
    transaction that the first audited action commits (as :func:`store.db.create`)."""
    from .db import CaseFileError, utc_now

    conn = connect(location)
    try:
        if _has_case(conn):
            raise CaseFileError(f"{conn.address.name} already holds a case; choose another "
                                "database (create an empty one on the server first).")
        other = conn.execute("SELECT count(*) FROM information_schema.tables WHERE "
                             "table_schema = current_schema()").fetchone()
        if other and other[0]:
            raise CaseFileError(f"The database of {conn.address.name} is not empty (it holds "
                                "tables of some other program); a case needs an empty "
                                "database of its own.")
        conn.script("BEGIN READ WRITE")
        conn.script(f"SELECT pg_advisory_xact_lock({CHAIN_LOCK})")
        for stmt in schema_ddl():
            conn.script(stmt)
        import uuid

        conn.execute("INSERT INTO meta(key, value) VALUES ('created_at', ?)", (utc_now(),))
        conn.execute("INSERT INTO meta(key, value) VALUES ('case_id', ?)", (uuid.uuid4().hex,))
    except BaseException:
        conn.close()
        raise
    return conn


def open_case(location: str | CaseURL, *, readonly: bool = False) -> PgCaseConnection:
    """Open the case at ``location``, refusing a database that is not a sound case."""
    from .db import CaseFileError
    from .migrations import APPLICATION_ID, SCHEMA_VERSION

    conn = connect(location, readonly=readonly)
    try:
        if not _has_case(conn):
            raise CaseFileError(f"The database of {conn.address.name} holds no Recount Desk "
                                "case (push a case file there first: recount-desk push CASE "
                                "URL).")
        app, version = conn.execute("SELECT application, schema_version FROM rd_case"
                                    ).fetchone() or (0, 0)
        if app != APPLICATION_ID:
            raise CaseFileError(f"The database of {conn.address.name} is not a Recount Desk "
                                "case.")
        if version > SCHEMA_VERSION:
            raise CaseFileError(f"{conn.address.name} was written by a newer version of "
                                f"Recount Desk (case format {version}; this version reads up "
                                f"to {SCHEMA_VERSION}). Install the newer version on this "
                                "station.")
        if version < SCHEMA_VERSION:
            raise CaseFileError(f"{conn.address.name} is in an older case format ({version}): "
                                "pull it into a case file (recount-desk pull URL CASE), open "
                                "that file once to upgrade it, and push it to a new database.")
        missing = sorted(set(case_tables()) - set(tables(conn)))
        if missing:
            raise CaseFileError(f"{conn.address.name} is damaged: its table(s) "
                                f"{', '.join(missing)} are missing. Restore a backup.")
        if not readonly and not _has_table(conn, "rd_row_log"):
            # (a station's role that may not change the schema works without it)
            with contextlib.suppress(sqlite3.Error):
                _add_row_log(conn)
    except BaseException:
        conn.close()
        raise
    return conn


# --- what db.py asks of the engine --------------------------------------------------------


def begin(conn: PgCaseConnection) -> None:
    """Begin an action: a read-write transaction holding the case's chain lock."""
    if conn.readonly:
        raise sqlite3.OperationalError("attempt to write a readonly database (the case was "
                                       "opened read-only)")
    conn.execute("BEGIN READ WRITE")
    conn.execute(f"SELECT pg_advisory_xact_lock({CHAIN_LOCK})")


def tables(conn: PgCaseConnection) -> list[str]:
    """The case's tables (not the server's bookkeeping), by name as SQLite orders them."""
    if "tables" in conn.layout:
        return list(conn.layout["tables"])
    names = [r[0] for r in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = "
        "current_schema() AND table_type = 'BASE TABLE'")]
    found = sorted(n for n in names if n not in OWN_TABLES)
    if conn.schema_mark is not None:
        conn.layout["tables"] = found
    return found


def _columns(conn: PgCaseConnection, table: str, *, fresh: bool = False
             ) -> list[tuple[str, str]]:
    key = f"columns:{table}"
    if key in conn.layout and not fresh:
        return list(conn.layout[key])
    found = [(n, t) for n, t in conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))]
    if conn.schema_mark is not None and not fresh:
        conn.layout[key] = found
    return found


# Everything of the case's schema that could change what is stored or read: the columns,
# triggers (and whether they are enabled), functions, constraints and rewrite rules. DDL
# fires no trigger, so the cheap check compares this digest with the one last checked.
_SCHEMA_MARK = """
SELECT md5(coalesce(string_agg(x, ',' ORDER BY x), '')) FROM (
  SELECT 'a:' || c.relname || '.' || a.attname || ':' || a.atttypid || ':' || a.attnum AS x
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p', 'f')
      AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT 't:' || t.tgname || ':' || t.tgrelid || ':' || t.tgfoid || ':' || t.tgenabled::text
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = current_schema()
  UNION ALL
  SELECT 'f:' || p.proname || ':' || md5(p.prosrc) FROM pg_proc p
    JOIN pg_namespace s ON s.oid = p.pronamespace WHERE s.nspname = current_schema()
  UNION ALL
  SELECT 'r:' || r.rulename || ':' || r.ev_class FROM pg_rewrite r
    JOIN pg_class c ON c.oid = r.ev_class JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = current_schema()
  UNION ALL
  SELECT 'p:' || c.relname || ':' || c.relrowsecurity || ':' || c.relforcerowsecurity
    FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = current_schema() AND c.relkind = 'r'
) q"""


def schema_marker(conn: PgCaseConnection) -> str:
    row = conn.execute(_SCHEMA_MARK).fetchone()
    return str(row[0]) if row else ""


def cheap_check(conn: PgCaseConnection, head: str) -> bool:
    """True when the case cannot have changed but by audited actions since this connection
    last checked it in full: the schema is as it was then, and every change since is
    counted as audited, up to the newest entry (the check is three queries)."""
    mark = schema_marker(conn)
    if mark != conn.schema_mark:
        conn.schema_mark = None
        conn.layout.clear()
        return False
    return unchanged_since_audited(conn, head)


def checked_in_full(conn: PgCaseConnection) -> None:
    """The full check passed: remember the schema it passed with."""
    conn.layout.clear()
    conn.schema_mark = schema_marker(conn)


def columns(conn: PgCaseConnection, table: str) -> list[str]:
    return [n for n, _ in _columns(conn, table)]


def table_rows(conn: PgCaseConnection, table: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` in the order SQLite sorts them: NULL first, text byte by
    byte."""
    order = ", ".join(f'"{n}" COLLATE "C" NULLS FIRST' if t in ("text", "character varying")
                      else f'"{n}" NULLS FIRST' for n, t in _columns(conn, table))
    return conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}').fetchall()


def all_rows(conn: PgCaseConnection, table: str) -> list[tuple[Any, ...]]:
    """Every row of ``table``, in no particular order (for the sums, which need none)."""
    return conn.execute(f'SELECT * FROM "{table}"').fetchall()


def start_logging(conn: PgCaseConnection) -> int:
    """In an action's transaction, after its check: the rows it changes are logged under
    the number its audit entry will have (returned)."""
    row = conn.execute("SELECT set_config('rd.seq', (SELECT coalesce(max(seq), 0) + 1 "
                       "FROM audit)::text, true)").fetchone()
    return int(row[0]) if row else 0


def _decoder(conn: PgCaseConnection, table: str) -> list[bool]:
    """Which of the table's columns are blobs (hex text in the log's JSON)."""
    return [t == "bytea" for _, t in _columns(conn, table)]


def logged_rows(conn: PgCaseConnection, after: int
                ) -> list[tuple[int, bool, str, int, tuple[Any, ...]]]:
    """(entry number, logged by this transaction, table, +1 or -1, the row's values as a
    ``SELECT *`` gives them) of every row change logged after entry ``after``, in order.
    ``None`` values stand for SQL NULL; a column the table does not have (the log was
    edited) raises ``ValueError``."""
    out: list[tuple[int, bool, str, int, tuple[Any, ...]]] = []
    blobs: dict[str, list[bool]] = {}
    for seq, own, tbl, sign, vals in conn.execute(
            "SELECT seq, tx = txid_current(), tbl, sign, vals FROM rd_row_log WHERE seq > ? "
            "ORDER BY seq", (after,)):
        kinds = blobs.get(tbl)
        if kinds is None:
            kinds = blobs[tbl] = _decoder(conn, tbl)
        values = list(json.loads(vals).values())
        if len(values) != len(kinds):
            raise ValueError(f"a logged row of {tbl} does not have the table's columns")
        row = tuple(bytes.fromhex(v[2:]) if blob and isinstance(v, str) else v
                    for v, blob in zip(values, kinds, strict=True))
        out.append((int(seq), bool(own), str(tbl), int(sign), row))
    return out


def change_marker(conn: PgCaseConnection) -> int:
    """How many statements have changed the case since it was made."""
    row = conn.execute("SELECT changes FROM rd_case").fetchone()
    return int(row[0]) if row else -1


def unchanged_since_audited(conn: PgCaseConnection, head: str) -> bool:
    """Whether nothing but audited actions changed the case, the newest of them ``head``."""
    row = conn.execute("SELECT changes, audited_changes, head FROM rd_case").fetchone()
    return row is not None and row[0] == row[1] and row[2] == head


def note_audited(conn: PgCaseConnection, entry: AuditEntry) -> int:
    """In the action's transaction, after its audit entry: record that every change so far
    is audited, up to this entry."""
    conn.execute("UPDATE rd_case SET audited_changes = changes, head = ?", (entry.hash,))
    conn.written.add(entry.seq)
    conn.execute("SELECT pg_notify(?, ?)", (SAVED_CHANNEL, str(entry.seq)))
    if entry.seq % 256 == 0:  # the log is for stations catching up, not a history
        conn.execute("DELETE FROM rd_row_log WHERE seq <= ?", (entry.seq - LOG_KEEP,))
    if conn.schema_mark is None:  # a new case: its schema is the one just written
        conn.schema_mark = schema_marker(conn)
    return change_marker(conn)


def schema_version(conn: PgCaseConnection) -> int:
    row = conn.execute("SELECT schema_version FROM rd_case").fetchone()
    return int(row[0]) if row else 0


def schema_problems(conn: PgCaseConnection) -> list[str]:
    """Every way the case's schema on the server differs from the program's: its tables'
    columns, the triggers (an added one could change what is stored without the log seeing
    it; a missing guard lets the log be rewritten) and the trigger functions' bodies."""
    problems: list[str] = []
    found = {(t, n): f for t, n, f in conn.execute(
        "SELECT c.relname, t.tgname, p.proname FROM pg_trigger t JOIN pg_class c ON "
        "c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_namespace s ON "
        "s.oid = c.relnamespace WHERE NOT t.tgisinternal AND s.nspname = current_schema() "
        "AND t.tgenabled <> 'D'")}
    want = _expected_triggers()
    if not _has_table(conn, "rd_row_log"):  # a case made before the row log (read-only)
        want = {k: f for k, f in want.items() if f != "rd_log_row"}
    for (t, n), f in sorted(found.items()):
        if (t, n) not in want:
            problems.append(f"the schema was changed outside Recount Desk: a trigger {n} on "
                            f"table {t} that Recount Desk never makes was added (it could "
                            "change what is stored without the log seeing it)")
        elif want[(t, n)] != f:
            problems.append(f"the schema was changed outside Recount Desk: the trigger {n} "
                            "was altered (its definition is not the one Recount Desk wrote)")
    for (_, n) in sorted(set(want) - set(found)):
        if n.startswith("audit_no_"):
            problems.append("the audit log's append-only guard was removed or disabled "
                            f"outside Recount Desk (trigger {n} is missing)")
        else:
            problems.append(f"the schema was changed outside Recount Desk: the trigger {n} "
                            "is missing or disabled")
    bodies: dict[str, str] = dict(conn.execute(
        "SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace s ON s.oid = "
        "p.pronamespace WHERE s.nspname = current_schema()"))
    for name, body in _FUNCTIONS.items():
        if name == "rd_log_row" and name not in bodies and "rd_log_row" not in want.values():
            continue
        if bodies.get(name) != body:
            problems.append(f"the schema was changed outside Recount Desk: the function {name} "
                            "was altered or removed")
    expected = _expected_columns()
    extra = sorted(set(tables(conn)) - set(case_tables()))
    if extra:
        problems.append("the schema was changed outside Recount Desk: table(s) "
                        f"{', '.join(extra)} that Recount Desk never makes were added")
    rules = [r[0] for r in conn.execute(
        "SELECT r.rulename FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class JOIN "
        "pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = current_schema()")]
    if rules:
        problems.append("the schema was changed outside Recount Desk: rewrite rule(s) "
                        f"{', '.join(sorted(rules))} were added (they could change what is "
                        "stored or read without the log seeing it)")
    hidden = [r[0] for r in conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace "
        "WHERE s.nspname = current_schema() AND c.relkind = 'r' AND c.relrowsecurity")]
    if hidden:
        problems.append("the schema was changed outside Recount Desk: row-level security "
                        f"was turned on for {', '.join(sorted(hidden))} (it could hide rows "
                        "from the check)")
    for t in case_tables():
        have = _columns(conn, t, fresh=True)
        if have and have != expected[t]:
            problems.append(f"the schema was changed outside Recount Desk: the columns of "
                            f"table {t} are not the ones Recount Desk wrote")
    return problems


@cache
def _expected_columns() -> dict[str, list[tuple[str, str]]]:
    """What information_schema says of each case table's columns, from the SQLite schema."""
    from .schema import expected_schema

    conn = sqlite3.connect(":memory:")
    try:
        for (t, _), (_, sql) in expected_schema():
            if t == "table" and sql:
                conn.execute(sql)
        names = {"INTEGER": "bigint", "TEXT": "text", "BLOB": "bytea"}
        return {t: [(r[1], names[r[2].upper()]) for r in conn.execute(f'PRAGMA table_info("{t}")')]
                for t in case_tables()}
    finally:
        conn.close()


class SaveListener:
    """A connection of its own on which a station hears every save on the case (the
    ``NOTIFY`` each audited commit sends): its socket (``fileno``) becomes readable when one
    arrives, and :meth:`heard` says, without waiting for one, whether any did since last
    asked."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self._heard = False
        raw.add_notify_handler(self._note)

    def _note(self, _notify: Any) -> None:
        self._heard = True

    def fileno(self) -> int:
        return int(self.raw.pgconn.socket)

    def heard(self) -> bool:
        """Whether a save was announced since the last call. Raises ``ServerUnavailable``
        when the connection is gone (one short round trip to the server tells)."""
        psycopg = _psycopg()
        try:
            pgconn = self.raw.pgconn
            pgconn.consume_input()
            while pgconn.notifies() is not None:
                self._heard = True
            self.raw.execute("SELECT 1")  # (notifications met on the way are noted too)
        except psycopg.Error as e:
            raise _translate_error(e) from e
        got, self._heard = self._heard, False
        return got

    def close(self) -> None:
        self.raw.close()


def listen(location: str | CaseURL) -> SaveListener:
    """Listen for the saves on the case at ``location`` (a connection of its own)."""
    psycopg = _psycopg()
    address = location if isinstance(location, CaseURL) else CaseURL(location)
    try:
        raw = psycopg.connect(address.url, autocommit=True, connect_timeout=10,
                              application_name="Recount Desk (listening)")
        raw.execute(f"LISTEN {SAVED_CHANNEL}")
    except psycopg.Error as e:
        raise _translate_error(e) from e
    return SaveListener(raw)
