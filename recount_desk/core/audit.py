"""The hash-chained audit log: each entry's SHA-256 covers its content and the previous hash.

An edit to any past entry, a deleted entry or a reordered one breaks the chain at that
point, which is what ``recount-desk verify`` reports.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """One text for one value: sorted keys, no spaces, UTF-8 as is (what ``json.dumps``
    gives with these options; one encoder is kept because the state digest encodes every
    row of the case)."""
    return _CANONICAL.encode(value)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    seq: int
    at: str  # UTC, ISO 8601
    actor: str
    action: str
    payload: str  # canonical JSON
    prev_hash: str
    hash: str


def entry_hash(seq: int, at: str, actor: str, action: str, payload: str, prev_hash: str) -> str:
    body = canonical_json([seq, at, actor, action, payload, prev_hash])
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def make_entry(prev: AuditEntry | None, at: str, actor: str, action: str,
               payload: dict[str, Any]) -> AuditEntry:
    seq = 1 if prev is None else prev.seq + 1
    prev_hash = GENESIS if prev is None else prev.hash
    text = canonical_json(payload)
    return AuditEntry(seq, at, actor, action, text, prev_hash,
                      entry_hash(seq, at, actor, action, text, prev_hash))


@dataclass(frozen=True, slots=True)
class AcceptedChange:
    """An audited "accept the file as it is": the case had been changed outside the program
    and the officer chose to go on from the file as found, for the reason given. The report
    shows every one of these."""

    seq: int  # the audit entry that records the acceptance
    at: str  # UTC, ISO 8601
    person: str
    login: str
    reason: str
    differences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChainBreak:
    seq: int
    reason: str


def verify_chain(entries: Iterable[AuditEntry]) -> ChainBreak | None:
    """The first broken link, or None when the whole chain holds."""
    prev_hash = GENESIS
    expected_seq = 1
    for e in entries:
        if e.seq != expected_seq:
            return ChainBreak(e.seq, f"entry {expected_seq} is missing (found {e.seq} next)")
        if e.prev_hash != prev_hash:
            return ChainBreak(e.seq, "its link to the previous entry does not match")
        if entry_hash(e.seq, e.at, e.actor, e.action, e.payload, e.prev_hash) != e.hash:
            return ChainBreak(e.seq, "its content was changed after it was written")
        prev_hash = e.hash
        expected_seq += 1
    return None
