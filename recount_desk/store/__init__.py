"""The case file: SQLite schema, migrations, transactions with their audit entries."""

from .db import (
    CaseFileError,
    OlderCaseFile,
    ReadOnlyCase,
    actor_name,
    audit_entries,
    create,
    last_entry,
    open_case,
    replayed_clock,
    state_digest,
    stored_canvass_digest,
    transaction,
    utc_now,
)

__all__ = ["CaseFileError", "OlderCaseFile", "ReadOnlyCase", "actor_name", "audit_entries",
           "create", "last_entry", "open_case", "replayed_clock", "state_digest",
           "stored_canvass_digest", "transaction", "utc_now"]
