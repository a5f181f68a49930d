"""A case file changed outside Recount Desk is caught by ``verify_case``, whatever was changed."""

from __future__ import annotations

import shutil
import sqlite3
from array import array
from datetime import datetime
from pathlib import Path

import pytest

from recount_desk.actions import canvass, contests, demo
from recount_desk.actions.case import create_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.audit import AuditEntry, make_entry
from recount_desk.core.model import PassRule, Scope, VotingMethod
from recount_desk.core.rules import Office, Requester


def _last(conn: sqlite3.Connection) -> AuditEntry:
    return AuditEntry(*conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash "
                                    "FROM audit ORDER BY seq DESC LIMIT 1").fetchone())


def _append_fake(conn: sqlite3.Connection, *, well_formed: bool) -> None:
    prev = _last(conn)
    e = make_entry(prev, "2018-11-22T10:00:00+00:00", "mallory", "record recount request",
                   {"data": {"request_id": 99}, "state": "0" * 64})
    conn.execute("INSERT INTO audit VALUES (?,?,?,?,?,?,?)",
                 (e.seq, e.at, e.actor, e.action, e.payload, e.prev_hash,
                  e.hash if well_formed else "f" * 64))


def _one_count(conn: sqlite3.Connection) -> None:
    """One precinct's count of the first choice raised by one vote (counts are little-endian
    integers of the column's width, one blob per choice)."""
    cid, width, blob = conn.execute("SELECT choice_id, width, votes FROM canvass_column "
                                    "ORDER BY choice_id LIMIT 1").fetchone()
    votes = array({4: "i", 8: "q"}[width])
    votes.frombytes(blob)
    votes[-1] += 1
    conn.execute("UPDATE canvass_column SET votes = ? WHERE choice_id = ?",
                 (votes.tobytes(), cid))
    conn.commit()


# Each tampering is SQL run on the closed case file with the sqlite3 shell's powers.
TAMPERINGS: dict[str, object] = {
    "a canvass vote": _one_count,
    "a forged over-vote count": "INSERT INTO canvass_extra SELECT min(c.id), min(p.id), 'over', "
                                "5 FROM contest c, precinct p",
    "a deleted canvass vote": "UPDATE canvass_column SET rows = rows - 1, precincts = "
                              "substr(precincts, 1, length(precincts) - width), votes = "
                              "substr(votes, 1, length(votes) - width) WHERE choice_id = "
                              "(SELECT max(choice_id) FROM canvass_column)",
    "a contest's seats": "UPDATE contest SET seats = 2 WHERE id = (SELECT min(id) FROM contest)",
    "a contest setting (scope)": "UPDATE contest SET scope = 'county'",
    "a candidate's name": "UPDATE choice SET name = 'Someone Else' WHERE id = "
                          "(SELECT min(id) FROM choice)",
    "the election's name": "UPDATE election SET name = 'Another election'",
    "a request's filing time": "UPDATE recount_request SET filed_at = '2018-11-30T16:59'",
    "a deleted request": "DELETE FROM recount_request",
    "a request's voter": "UPDATE request_voter SET name = 'Mallory'",
    "an inserted precinct": "INSERT INTO precinct(name) VALUES ('Ghost precinct')",
    "an edited audit entry": "DROP TRIGGER audit_no_update; UPDATE audit SET actor = 'mallory' "
                             "WHERE seq = 2",
    "a deleted audit entry in the middle": "DROP TRIGGER audit_no_delete; DELETE FROM audit "
                                           "WHERE seq = 2",
    "the last audit entry deleted": "DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE "
                                    "seq = (SELECT max(seq) FROM audit)",
    "a dropped append-only trigger": "DROP TRIGGER audit_no_update",
    "a dropped delete trigger": "DROP TRIGGER audit_no_delete",
    "an appended fake audit entry (bad hash)":
        lambda conn: _append_fake(conn, well_formed=False),
    "an appended fake audit entry (valid hash, wrong state)":
        lambda conn: _append_fake(conn, well_formed=True),
    "a truncated file": None,  # handled below: the file cut in half
}


@pytest.fixture(scope="module")
def sound_case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tamper") / "sound.recount"
    spec = demo.demo_spec()
    with create_case(path, spec.election, actor="clerk") as case:
        canvass.import_canvass(case, canvass.read_file(spec.canvass))
        row = next(r for r in contests.overview(case)
                   if r.check.totals.contest.key.district == "32")
        contests.set_contest_settings(case, row.id, seats=1, scope=Scope.MULTICOUNTY,
                                      voting_method=VotingMethod.PLURALITY,
                                      pass_rule=PassRule.MAJORITY)
        contests.record_request(
            case, row.id, requester=Requester.VOTERS, candidate=None,
            voters=[(f"Voter {i}", True) for i in range(10)],
            filed_at=datetime(2016, 11, 28, 9, 0), filed_with=Office.LIEUTENANT_GOVERNOR,
            override_reason="test")
    assert verify_case(path).ok
    return path


def _tamper(path: Path, how: object) -> None:
    if how is None:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        if callable(how):
            how(conn)
        else:
            conn.executescript(str(how))
    finally:
        conn.close()


def test_every_tampering_is_detected_by_verify(sound_case: Path, tmp_path: Path) -> None:
    detected = []
    for i, (what, how) in enumerate(TAMPERINGS.items()):
        path = tmp_path / f"t{i}.recount"
        shutil.copy(sound_case, path)
        _tamper(path, how)
        if not verify_case(path).ok:
            detected.append(what)
    assert detected == list(TAMPERINGS), set(TAMPERINGS) - set(detected)
    assert len(detected) == len(TAMPERINGS) == 19


def test_an_untouched_copy_still_verifies(sound_case: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.recount"
    shutil.copy(sound_case, path)
    assert verify_case(path).ok
