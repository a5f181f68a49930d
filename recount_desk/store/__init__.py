"""The case file: SQLite schema, migrations, transactions with their audit entries."""

from .db import (
    ACCEPT_ACTION,
    CaseChangedOutside,
    CaseConnection,
    CaseFileError,
    OlderCaseFile,
    ReadOnlyCase,
    Tx,
    accepted_changes,
    actor_name,
    audit_entries,
    check_state,
    create,
    differences,
    last_entry,
    open_case,
    replayed_clock,
    state_digest,
    stored_canvass_digest,
    transaction,
    utc_now,
)

__all__ = ["ACCEPT_ACTION", "CaseChangedOutside", "CaseConnection", "CaseFileError",
           "OlderCaseFile", "ReadOnlyCase", "Tx", "accepted_changes",
           "actor_name", "audit_entries", "check_state",
           "create", "differences", "last_entry", "open_case", "replayed_clock", "state_digest",
           "stored_canvass_digest", "transaction", "utc_now"]
