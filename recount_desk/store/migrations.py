"""The case file's schema, as forward migrations: MIGRATIONS[n] takes version n to n + 1.

SQL stays portable (no SQLite-only types) so a case can also live in PostgreSQL.
"""

from __future__ import annotations

APPLICATION_ID = 0x52434E54  # "RCNT"

V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE election (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    election_date TEXT NOT NULL,
    kind TEXT NOT NULL,
    jurisdiction TEXT NOT NULL,
    canvass_completed TEXT,
    officer TEXT NOT NULL DEFAULT '',
    edition TEXT
);

CREATE TABLE canvass_import (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    family TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    rows INTEGER NOT NULL,
    primary_election INTEGER NOT NULL,
    digest TEXT NOT NULL
);

CREATE TABLE import_issue (
    id INTEGER PRIMARY KEY,
    import_id INTEGER NOT NULL REFERENCES canvass_import(id) ON DELETE CASCADE,
    file TEXT NOT NULL,
    sheet TEXT,
    row_number INTEGER,
    column_name TEXT,
    severity TEXT NOT NULL,
    message TEXT NOT NULL
);

CREATE TABLE precinct (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE contest (
    id INTEGER PRIMARY KEY,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    district TEXT NOT NULL DEFAULT '',
    party TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL,
    seats INTEGER NOT NULL DEFAULT 1 CHECK (seats >= 1),
    seats_from_file INTEGER NOT NULL DEFAULT 0,
    scope TEXT NOT NULL DEFAULT 'county',
    voting_method TEXT NOT NULL DEFAULT 'plurality',
    pass_rule TEXT NOT NULL DEFAULT 'majority',
    precincts INTEGER NOT NULL DEFAULT 0,
    over_votes INTEGER,
    under_votes INTEGER,
    blank_votes INTEGER,
    UNIQUE (title, district, party)
);

CREATE TABLE choice (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    party TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL,
    canvass_total INTEGER NOT NULL,
    UNIQUE (contest_id, name)
);

CREATE TABLE canvass_vote (
    choice_id INTEGER NOT NULL,
    precinct_id INTEGER NOT NULL,
    votes INTEGER NOT NULL CHECK (votes >= 0),
    PRIMARY KEY (choice_id, precinct_id)
) WITHOUT ROWID;

CREATE TABLE canvass_extra (
    contest_id INTEGER NOT NULL,
    precinct_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    votes INTEGER NOT NULL,
    PRIMARY KEY (contest_id, precinct_id, kind)
) WITHOUT ROWID;

CREATE TABLE recount_request (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id),
    requester TEXT NOT NULL,
    candidate TEXT,
    filed_at TEXT NOT NULL,
    filed_with TEXT NOT NULL,
    timely INTEGER NOT NULL,
    eligible INTEGER NOT NULL,
    right_office INTEGER NOT NULL,
    accepted INTEGER NOT NULL,
    override_reason TEXT,
    findings TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE request_voter (
    request_id INTEGER NOT NULL REFERENCES recount_request(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    voted_confirmed INTEGER NOT NULL,
    PRIMARY KEY (request_id, position)
);

CREATE TABLE audit (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);

CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""

MIGRATIONS: list[str] = [V1]
SCHEMA_VERSION = len(MIGRATIONS)
