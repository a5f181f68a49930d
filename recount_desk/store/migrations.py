"""The case file's schema, as forward migrations: MIGRATIONS[n] takes version n to n + 1.

Each step is an SQL script, or a function when data must be reshaped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from .blobs import column_blobs

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

# V2: the recount itself (issue 5): settings, units, tally entries with double entry and
# resolutions, witnesses, unopened envelopes, declaration and lot, costs, the board,
# signing and reopening. Rows are appended, not overwritten, where a user may re-enter a
# value (tally entries, resolutions, checks, decisions, declarations): the current one is
# the latest not superseded, and the history stays readable beside the audit log.
V2 = """
CREATE TABLE recount (
    contest_id INTEGER PRIMARY KEY REFERENCES contest(id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    entry_mode TEXT NOT NULL,
    unit_kind TEXT NOT NULL,
    started_at TEXT NOT NULL,
    started_by TEXT NOT NULL,
    no_envelopes_confirmed INTEGER NOT NULL DEFAULT 0,
    no_envelopes_note TEXT NOT NULL DEFAULT ''
);

CREATE TABLE recount_unit (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    variance_note TEXT NOT NULL DEFAULT '',
    UNIQUE (contest_id, name)
);

CREATE TABLE unit_precinct (
    unit_id INTEGER NOT NULL REFERENCES recount_unit(id) ON DELETE CASCADE,
    precinct_id INTEGER NOT NULL REFERENCES precinct(id) ON DELETE CASCADE,
    contest_id INTEGER NOT NULL,
    PRIMARY KEY (unit_id, precinct_id),
    UNIQUE (contest_id, precinct_id)
);

CREATE TABLE tally_entry (
    id INTEGER PRIMARY KEY,
    unit_id INTEGER NOT NULL REFERENCES recount_unit(id) ON DELETE CASCADE,
    entry_no INTEGER NOT NULL CHECK (entry_no IN (1, 2)),
    officer TEXT NOT NULL,
    ballots INTEGER CHECK (ballots >= 0),
    write_ins INTEGER CHECK (write_ins >= 0),
    over_votes INTEGER CHECK (over_votes >= 0),
    under_votes INTEGER CHECK (under_votes >= 0),
    warning_note TEXT NOT NULL DEFAULT '',
    entered_at TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    superseded INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE tally_vote (
    entry_id INTEGER NOT NULL REFERENCES tally_entry(id) ON DELETE CASCADE,
    choice_id INTEGER NOT NULL REFERENCES choice(id) ON DELETE CASCADE,
    votes INTEGER CHECK (votes >= 0),
    PRIMARY KEY (entry_id, choice_id)
);

CREATE TABLE tally_resolution (
    id INTEGER PRIMARY KEY,
    unit_id INTEGER NOT NULL REFERENCES recount_unit(id) ON DELETE CASCADE,
    first_entry_id INTEGER NOT NULL REFERENCES tally_entry(id) ON DELETE CASCADE,
    second_entry_id INTEGER NOT NULL REFERENCES tally_entry(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    ballots INTEGER,
    write_ins INTEGER,
    over_votes INTEGER,
    under_votes INTEGER,
    note TEXT NOT NULL DEFAULT '',
    resolved_by TEXT NOT NULL,
    resolved_at TEXT NOT NULL
);

CREATE TABLE resolution_vote (
    resolution_id INTEGER NOT NULL REFERENCES tally_resolution(id) ON DELETE CASCADE,
    choice_id INTEGER NOT NULL REFERENCES choice(id) ON DELETE CASCADE,
    votes INTEGER,
    PRIMARY KEY (resolution_id, choice_id)
);

CREATE TABLE witness (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    designated_by TEXT NOT NULL,
    side TEXT NOT NULL,
    designated_at TEXT,
    attended_from TEXT,
    attended_to TEXT,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);

CREATE TABLE envelope (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    envelope_no TEXT NOT NULL,
    precinct_id INTEGER NOT NULL REFERENCES precinct(id) ON DELETE CASCADE,
    original_reason TEXT NOT NULL,
    source TEXT NOT NULL,
    added_at TEXT NOT NULL,
    added_by TEXT NOT NULL,
    UNIQUE (contest_id, envelope_no)
);

CREATE TABLE envelope_check (
    id INTEGER PRIMARY KEY,
    envelope_id INTEGER NOT NULL REFERENCES envelope(id) ON DELETE CASCADE,
    affidavit_complete INTEGER,
    signature_consistent INTEGER,
    registered_in_precinct INTEGER,
    not_already_voted INTEGER,
    returned_in_time INTEGER,
    id_digits INTEGER,
    postmarked TEXT,
    received_at TEXT,
    note TEXT NOT NULL DEFAULT '',
    checked_by TEXT NOT NULL,
    checked_at TEXT NOT NULL
);

CREATE TABLE envelope_decision (
    id INTEGER PRIMARY KEY,
    envelope_id INTEGER NOT NULL REFERENCES envelope(id) ON DELETE CASCADE,
    outcome TEXT NOT NULL,
    reason TEXT,
    reason_text TEXT NOT NULL DEFAULT '',
    write_ins INTEGER NOT NULL DEFAULT 0,
    over_votes INTEGER NOT NULL DEFAULT 0,
    under_votes INTEGER NOT NULL DEFAULT 0,
    decided_by TEXT NOT NULL,
    decided_at TEXT NOT NULL
);

CREATE TABLE envelope_vote (
    decision_id INTEGER NOT NULL REFERENCES envelope_decision(id) ON DELETE CASCADE,
    choice_id INTEGER NOT NULL REFERENCES choice(id) ON DELETE CASCADE,
    votes INTEGER NOT NULL CHECK (votes >= 0),
    PRIMARY KEY (decision_id, choice_id)
);

CREATE TABLE declaration (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    result TEXT NOT NULL,
    elected TEXT NOT NULL,
    tied TEXT NOT NULL,
    totals TEXT NOT NULL,
    text TEXT NOT NULL,
    basis TEXT NOT NULL,
    complete INTEGER NOT NULL,
    override_reason TEXT,
    declared_by TEXT NOT NULL,
    declared_at TEXT NOT NULL,
    superseded INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE lot (
    id INTEGER PRIMARY KEY,
    declaration_id INTEGER NOT NULL UNIQUE REFERENCES declaration(id) ON DELETE CASCADE,
    drawn_by TEXT NOT NULL,
    drawn_at TEXT NOT NULL,
    place TEXT NOT NULL,
    method TEXT NOT NULL,
    witnesses TEXT NOT NULL,
    chosen TEXT NOT NULL,
    deadline TEXT,
    late INTEGER NOT NULL DEFAULT 0,
    basis TEXT NOT NULL
);

CREATE TABLE cost_item (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    description TEXT NOT NULL,
    hours_hundredths INTEGER,
    rate_cents INTEGER,
    amount_cents INTEGER NOT NULL,
    added_by TEXT NOT NULL,
    added_at TEXT NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE board_member (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    role TEXT NOT NULL,
    present INTEGER NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE board_convening (
    contest_id INTEGER PRIMARY KEY REFERENCES contest(id) ON DELETE CASCADE,
    board_kind TEXT NOT NULL,
    body_size INTEGER NOT NULL,
    convened_at TEXT NOT NULL,
    place TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);

CREATE TABLE recount_signing (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    signed_at TEXT NOT NULL,
    signers TEXT NOT NULL,
    state_digest TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE recount_reopen (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    signing_id INTEGER NOT NULL REFERENCES recount_signing(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    reopened_by TEXT NOT NULL,
    reopened_at TEXT NOT NULL
);
"""

def v3_canvass_columns(conn: sqlite3.Connection) -> None:
    """V3: the canvass votes as one row per choice holding two integer columns (precinct ids
    and votes, 4 bytes each where they fit) instead of one row per count: a statewide canvass
    of a million counts is written in milliseconds instead of a second. The digest of a
    canvass imported before stays computed the format-2 way (``digest_scheme`` 2), so what
    the audit log recorded then still verifies."""
    conn.execute("""
        CREATE TABLE canvass_column (
            choice_id INTEGER PRIMARY KEY REFERENCES choice(id) ON DELETE CASCADE,
            rows INTEGER NOT NULL CHECK (rows >= 0),
            width INTEGER NOT NULL CHECK (width IN (4, 8)),
            precincts BLOB NOT NULL CHECK (length(precincts) = width * rows),
            votes BLOB NOT NULL CHECK (length(votes) = width * rows)
        )""")
    conn.execute("ALTER TABLE canvass_import ADD COLUMN digest_scheme INTEGER NOT NULL "
                 "DEFAULT 2")
    current: int | None = None
    pids: list[int] = []
    votes: list[int] = []
    out: list[tuple[int, int, int, bytes, bytes]] = []

    def flush() -> None:
        if current is not None:
            out.append((current, len(pids), *column_blobs(pids, votes)))

    for cid, pid, n in conn.execute("SELECT choice_id, precinct_id, votes FROM canvass_vote "
                                    "ORDER BY choice_id, precinct_id"):
        if cid != current:
            flush()
            current, pids, votes = cid, [], []
        pids.append(pid)
        votes.append(n)
    flush()
    conn.executemany("INSERT INTO canvass_column(choice_id, rows, width, precincts, votes) "
                     "VALUES (?,?,?,?,?)", out)
    conn.execute("DROP TABLE canvass_vote")


# V4: the recount loaded from the tabulators' re-tabulated statement of votes (issue 15):
# each load (file, SHA-256, the contest in it, who, when), and which tally entry came from
# which load; a unit replaced by a hand count keeps the officer's note.
V4 = """
CREATE TABLE retab_load (
    id INTEGER PRIMARY KEY,
    contest_id INTEGER NOT NULL REFERENCES contest(id) ON DELETE CASCADE,
    file TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    family TEXT NOT NULL,
    sheet TEXT,
    file_contest TEXT NOT NULL,
    units INTEGER NOT NULL,
    loaded_at TEXT NOT NULL,
    loaded_by TEXT NOT NULL
);

ALTER TABLE tally_entry ADD COLUMN load_id INTEGER REFERENCES retab_load(id);

ALTER TABLE recount_unit ADD COLUMN source_note TEXT NOT NULL DEFAULT '';
"""

# V5: what the verdict rests on (issue 12): whether a contest's totals are the file's own
# official totals, and the precinct counts the file hides (privacy marks or blanks) with
# what they could hold (JSON {choice: most, or null for no known limit}), and what the
# precincts add up to where they disagree with the official totals (JSON {choice: votes}).
V5 = """
ALTER TABLE contest ADD COLUMN official_totals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contest ADD COLUMN hidden_cells INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contest ADD COLUMN hidden_max TEXT;
ALTER TABLE contest ADD COLUMN precinct_sums TEXT;
"""

def people_roster(conn: sqlite3.Connection) -> None:
    """The case's roster of people (issue 13): the election officer, supervisors, deputies,
    board members. An older file's roster starts with its election officer: the officer
    named in the election's details, else whoever created the case (its first audit entry's
    actor); the upgrade's audit entry says so."""
    conn.execute("""
        CREATE TABLE person (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            active INTEGER NOT NULL DEFAULT 1,
            added_at TEXT NOT NULL,
            added_by TEXT NOT NULL
        )""")
    # A difference settled by the two officers together is recorded as such.
    conn.execute("ALTER TABLE tally_resolution ADD COLUMN joint INTEGER NOT NULL DEFAULT 0")
    row = conn.execute("SELECT officer FROM election WHERE id=1").fetchone()
    name = (row[0] or "").strip() if row else ""
    if not name:
        first = conn.execute("SELECT actor, at FROM audit ORDER BY seq LIMIT 1").fetchone()
        name = first[0] if first else ""
    if name:
        conn.execute("INSERT INTO person(name, role, added_at, added_by) VALUES (?, "
                     "'election_officer', datetime('now'), 'the upgrade of the case file')",
                     (name,))


# V7: where the report was signed (20A-4-401(4)(b)(ii)), recorded with the signing itself.
V7 = """
ALTER TABLE recount_signing ADD COLUMN place TEXT NOT NULL DEFAULT '';
"""

# V8: from this format the state digest is the sum of the rows' hashes (store/digest.py),
# which a save keeps up to date without reading the case (the file is checked against its
# log by the old rule before the upgrade, store.db); and a unit's entries and resolutions
# are found by index, so saving one tally sheet costs the same in a recount of any size.
V8 = """
CREATE INDEX tally_entry_unit ON tally_entry(unit_id, superseded);
CREATE INDEX tally_resolution_unit ON tally_resolution(unit_id);
"""

# V9: a re-tabulation load's tallies are stored compactly (issue 15): one row per load, each
# field a column of integers in a blob (store/blobs.py; -1 where the file gives no figure),
# the units in the load's order, instead of one tally entry per unit and one row per vote
# (a countywide load wrote and hashed some 21,000 rows; it now writes one). The row is in
# the state digest like any other, and the load's audit entry records the SHA-256 of its
# tallies. A loaded unit set aside for a hand count is one row of retab_set_aside. Loads
# made before stay as they were stored (tally entries marked with their load).
V9 = """
CREATE TABLE retab_tally (
    load_id INTEGER PRIMARY KEY REFERENCES retab_load(id) ON DELETE CASCADE,
    officer TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    width INTEGER NOT NULL CHECK (width IN (4, 8)),
    units BLOB NOT NULL,
    choices BLOB NOT NULL,
    ballots BLOB NOT NULL,
    write_ins BLOB NOT NULL,
    over_votes BLOB NOT NULL,
    under_votes BLOB NOT NULL,
    votes BLOB NOT NULL
);

CREATE TABLE retab_set_aside (
    unit_id INTEGER NOT NULL REFERENCES recount_unit(id) ON DELETE CASCADE,
    load_id INTEGER NOT NULL REFERENCES retab_load(id) ON DELETE CASCADE,
    set_aside_at TEXT NOT NULL,
    set_aside_by TEXT NOT NULL,
    PRIMARY KEY (unit_id, load_id)
);
"""

# V10: an error in how one contest's figures hang together as one contest (a candidate
# spelled three ways, two contests under one title) no longer stops the import of the
# others (issue 16): the contest it is bound to is recorded with it, and that contest's
# verdict is withheld (core.rules.unread_counts) until the file is corrected. Any other
# error (a cell that cannot be read) still refuses the whole file.
V10 = """
ALTER TABLE import_issue ADD COLUMN contest_id INTEGER REFERENCES contest(id);
"""

MIGRATIONS: list[str | Callable[[sqlite3.Connection], None]] = [V1, V2, v3_canvass_columns,
                                                                 V4, V5, people_roster, V7,
                                                                 V8, V9, V10]
SCHEMA_VERSION = len(MIGRATIONS)
