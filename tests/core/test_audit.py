"""The hash chain finds any change, deletion or reordering of audit entries."""

from __future__ import annotations

import dataclasses

import pytest

from recount_desk.core.audit import GENESIS, make_entry, verify_chain


def chain(n: int):
    entries, prev = [], None
    for i in range(n):
        prev = make_entry(prev, f"2026-11-20T10:00:0{i}", "clerk", f"action {i}", {"i": i})
        entries.append(prev)
    return entries


def test_intact_chain_verifies() -> None:
    entries = chain(5)
    assert entries[0].prev_hash == GENESIS
    assert verify_chain(entries) is None


@pytest.mark.parametrize(
    ("mutate", "seq"),
    [
        (lambda es: es.__setitem__(2, dataclasses.replace(es[2], payload='{"i":99}')), 3),
        (lambda es: es.__setitem__(1, dataclasses.replace(es[1], actor="mallory")), 2),
        (lambda es: es.pop(3), 5),
        (lambda es: es.insert(1, es.pop(2)), 3),
    ],
    ids=["payload-edited", "actor-edited", "entry-deleted", "entries-swapped"],
)
def test_tampering_is_found_at_the_first_broken_link(mutate, seq: int) -> None:
    entries = chain(5)
    mutate(entries)
    brk = verify_chain(entries)
    assert brk is not None
    assert brk.seq == seq
