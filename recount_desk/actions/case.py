"""Opening, creating and describing a case file: the user's first actions."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from recount_desk import store
from recount_desk.core.calendar import ClosedDay, holiday_name
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.rules import Edition, edition_for
from recount_desk.store import lock, repo
from recount_desk.store.backup import list_backups, make_backup
from recount_desk.store.backup import restore as restore_file


@dataclass
class Case:
    """An open case file. Each thread that touches it opens its own ``Case``."""

    path: Path
    conn: sqlite3.Connection
    readonly: bool = False
    actor: str = field(default_factory=store.actor_name)
    readonly_reason: str | None = None

    def close(self) -> None:
        self.conn.close()
        if not self.readonly:
            lock.release(self.path)

    def __enter__(self) -> Case:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _election_row(self) -> tuple[Election, str | None]:
        got = repo.get_election(self.conn)
        if got is None:
            raise store.CaseFileError(f"{self.path.name} holds no election.")
        return got

    @property
    def election(self) -> Election:
        return self._election_row()[0]

    @property
    def edition(self) -> Edition:
        """The edition of 20A-4-401 applied: the case's override, else by election date."""
        election, override = self._election_row()
        return Edition(override) if override else edition_for(election.date)

    @property
    def edition_overridden(self) -> bool:
        return self._election_row()[1] is not None

    @property
    def closed_days(self) -> tuple[ClosedDay, ...]:
        """Days the governor proclaimed legal holidays (63G-1-301), entered for this case;
        every deadline of the case counts them as holidays."""
        return repo.closed_days(self.conn)


@dataclass(frozen=True)
class FieldError:
    field: str
    message: str


def validate_election(name: str, election_date: date | None, kind: str, jurisdiction: str,
                      canvass_completed: datetime | None) -> list[FieldError]:
    """Field-by-field checks for a new case, with the reason to show beside each field."""
    errors = []
    if not name.strip():
        errors.append(FieldError("name", "Give the election a name, e.g. “2026 General "
                                 "Election”."))
    if election_date is None:
        errors.append(FieldError("date", "Enter the election date."))
    elif not (1990 <= election_date.year <= 2100):
        errors.append(FieldError("date", "The election date looks wrong."))
    if kind not in {k.value for k in ElectionKind}:
        errors.append(FieldError("kind", "Choose the kind of election."))
    if not jurisdiction.strip():
        errors.append(FieldError("jurisdiction", "Name the county, city or district, e.g. "
                                 "“Grand County”."))
    if canvass_completed is not None and election_date is not None:
        if canvass_completed.date() < election_date:
            errors.append(FieldError("canvass_completed", "The canvass cannot be completed "
                                     "before the election."))
        elif (canvass_completed.date() - election_date).days > 60:
            errors.append(FieldError("canvass_completed", "The canvass is normally completed "
                                     "7–14 days after the election (20A-4-301); check the "
                                     "date."))
    return errors


def create_case(path: Path | str, election: Election, *, edition: Edition | None = None,
                actor: str | None = None) -> Case:
    """Create a case file for ``election`` (first audit entry: the election itself)."""
    path = Path(path)
    errs = validate_election(election.name, election.date, election.kind.value,
                             election.jurisdiction, election.canvass_completed)
    if errs:
        raise store.CaseFileError("; ".join(e.message for e in errs))
    conn = store.create(path)
    case = Case(path, conn, actor=actor or store.actor_name())
    lock.acquire(path, case.actor)
    with store.transaction(conn, case.actor, "create case") as tx:
        repo.set_election(tx, election, edition.value if edition else None)
        tx.update(_election_payload(election, edition))
    return case


def _election_payload(e: Election, edition: Edition | None) -> dict[str, object]:
    return {"name": e.name, "date": e.date.isoformat(), "kind": e.kind.value,
            "jurisdiction": e.jurisdiction,
            "canvass_completed": e.canvass_completed.isoformat(timespec="minutes")
            if e.canvass_completed else None,
            "officer": e.officer, "edition": edition.value if edition else None}


def open_case(path: Path | str, *, readonly: bool = False, actor: str | None = None,
              backup: bool = False) -> Case:
    """Open a case file.

    A case already open in another Recount Desk, or on read-only media, is opened read-only
    and ``Case.readonly_reason`` says why. ``backup`` makes a rotating backup copy in the
    user's data folder first (the window does this on every open).
    """
    path = Path(path)
    actor = actor or store.actor_name()
    reason = None
    if not readonly:
        holder = lock.acquire(path, actor)
        if holder is not None:
            readonly = True
            reason = (f"{path.name} is open in another Recount Desk by {holder.describe()}; "
                      "it is opened read-only here. Close it there to make changes.")
        elif not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            lock.release(path)
            readonly = True
            reason = (f"{path.name} is on read-only media or in a folder you cannot write to; "
                      "it is opened read-only. Copy it to a writable folder to make changes.")
    try:
        conn = store.open_case(path, readonly=readonly)
    except BaseException:
        if not readonly:
            lock.release(path)
        raise
    case = Case(path, conn, readonly=readonly, actor=actor, readonly_reason=reason)
    if backup and not readonly:
        from .demo import user_data_dir

        try:
            make_backup(conn, path, user_data_dir())
        except (OSError, sqlite3.Error):
            case.readonly_reason = None  # a failed backup must not stop the work
    return case


def check_after_open(path: Path | str) -> list[str]:
    """What the window runs in the background once a case is shown: verify it, and if it is
    sound keep a rotating backup copy (a tampered file must not push good copies out).
    Returns the problems verification found (empty when the file is sound)."""
    from .demo import user_data_dir
    from .verify import verify_case

    path = Path(path)
    result = verify_case(path)
    if not result.ok:
        return result.problems
    try:
        conn = store.open_case(path, readonly=True)
        try:
            make_backup(conn, path, user_data_dir())
        finally:
            conn.close()
    except (OSError, sqlite3.Error, store.CaseFileError):
        pass  # a failed backup must not stop the work; the next open tries again
    return []


def backups(path: Path | str) -> list[Path]:
    """The automatic backups of a case, newest first."""
    from .demo import user_data_dir

    return list_backups(user_data_dir(), Path(path))


def restore_backup(path: Path | str, backup: Path | str) -> Path:
    """Replace a case with one of its backups (after verifying it); returns where the
    replaced file was kept."""
    from .verify import verify_case

    path, backup = Path(path), Path(backup)
    result = verify_case(backup)
    if not result.ok:
        raise store.CaseFileError(f"The backup {backup.name} does not verify: "
                                  + "; ".join(result.problems))
    holder = lock.acquire(path, store.actor_name())
    if holder is not None:
        raise store.CaseFileError(f"{path.name} is open in Recount Desk by "
                                  f"{holder.describe()}; close it before restoring.")
    try:
        return restore_file(backup, path)
    finally:
        lock.release(path)


class ElectionDetailsRefused(Exception):
    """A change to the election that the case's state does not allow; the message says why."""


def update_election(case: Case, election: Election) -> None:
    """Change the election's details (name, dates, kind, officer) as one audited action;
    an override of the law applied stays as it is. The fields are checked as for a new
    case. The election's date and kind decide which law, office and deadlines apply, so
    they cannot change under a signed recount (reopen it first)."""
    old, override = case._election_row()
    errors = validate_election(election.name, election.date, election.kind.value,
                               election.jurisdiction, election.canvass_completed)
    if errors:
        raise ElectionDetailsRefused(" ".join(e.message for e in errors))
    signed = case.conn.execute("SELECT count(*) FROM recount_signing WHERE active=1"
                               ).fetchone()[0]
    if signed and (old.date, old.kind) != (election.date, election.kind):
        raise ElectionDetailsRefused(
            f"{signed} signed recount(s) rest on the election's date and kind; reopen them "
            "before changing either. Nothing was changed.")
    with store.transaction(case.conn, case.actor, "update election") as tx:
        repo.set_election(tx, election, override)
        tx.update(_election_payload(election, Edition(override) if override else None))


class AcceptRefused(Exception):
    """An "accept the file as it is" that cannot be recorded; the message says why."""


def changed_outside(case: Case) -> list[str]:
    """What differs between the case and its audit log (empty when they match). While it is
    not empty every action is refused, until a backup is restored or the file is accepted
    as it is."""
    return store.differences(case.conn)


def accept_file_as_is(case: Case, reason: str) -> list[str]:
    """Record, as one audited action, that the officer goes on from the file as it was
    found after a change outside Recount Desk. The entry keeps what differed and the
    reason; the report shows it. Returns what was accepted."""
    why = (reason or "").strip()
    if not why:
        raise AcceptRefused("Give the reason for accepting the file as it is (who changed "
                            "it, why, and how you checked it); it goes in the audit log and "
                            "the report. Nothing was changed.")
    found = store.differences(case.conn)
    if not found:
        raise AcceptRefused("The file matches its audit log: there is nothing to accept.")
    with store.transaction(case.conn, case.actor, store.ACCEPT_ACTION, accept_reason=why):
        pass
    return found


def set_closed_days(case: Case, days: list[ClosedDay]) -> tuple[ClosedDay, ...]:
    """Replace the case's list of days proclaimed legal holidays by the governor
    (63G-1-301) as one audited action; every deadline of the case then counts them.

    Each day needs its reason (the proclamation); a day that is already a weekend day or a
    legal holiday is refused (it changes nothing and would hide a typing error). Deadlines
    already shown are computed again from the new list; recorded requests keep the findings
    they were recorded with."""
    seen: set[date] = set()
    for d in days:
        if not d.reason.strip():
            raise ElectionDetailsRefused(f"Give the reason for {d.day.isoformat()} (the "
                                         "governor's proclamation). Nothing was changed.")
        if d.day in seen:
            raise ElectionDetailsRefused(f"{d.day.isoformat()} is listed twice. Nothing was "
                                         "changed.")
        seen.add(d.day)
        already = holiday_name(d.day)
        if already is not None:
            raise ElectionDetailsRefused(f"{d.day.isoformat()} is already closed ({already}); "
                                         "it need not be entered. Nothing was changed.")
    clean = tuple(sorted(ClosedDay(d.day, " ".join(d.reason.split())) for d in days))
    before = case.closed_days
    with store.transaction(case.conn, case.actor, "set closed days") as tx:
        repo.set_closed_days(tx, clean)
        tx.update({
            "before": [{"day": d.day.isoformat(), "reason": d.reason} for d in before],
            "after": [{"day": d.day.isoformat(), "reason": d.reason} for d in clean],
            "basis": "63G-1-301"})
    return clean


@dataclass(frozen=True)
class CaseSummary:
    election: Election
    edition: Edition
    contests: int
    precincts: int
    rows: int
    source: str | None
    requests: int


def summary(case: Case) -> CaseSummary:
    conn = case.conn
    imp = repo.current_import(conn)
    n_contests = conn.execute("SELECT count(*) FROM contest").fetchone()[0]
    n_prec = conn.execute("SELECT count(*) FROM precinct").fetchone()[0]
    n_req = conn.execute("SELECT count(*) FROM recount_request WHERE withdrawn=0").fetchone()[0]
    return CaseSummary(case.election, case.edition, n_contests, n_prec,
                       imp.rows if imp else 0, imp.file if imp else None, n_req)


@dataclass(frozen=True)
class LastAction:
    """The newest entry of the case's audit log: its number, action and payload."""

    seq: int
    action: str
    payload: str


def last_action(case: Case) -> LastAction | None:
    """The case's newest recorded action (the window's undo says which action was last)."""
    e = store.last_entry(case.conn)
    return LastAction(e.seq, e.action, e.payload) if e else None


# The window shows these messages as they are; it never imports the store itself.
CaseFileError = store.CaseFileError
CaseChangedOutside = store.CaseChangedOutside


def save_copy(case: Case, destination: Path | str) -> Path:
    """Write a consistent copy of the open case to ``destination`` (a USB stick, a backup).

    The copy is made with SQLite's backup API, so it is whole even while the case is in use,
    and written beside the destination first so a failed copy never leaves half a file.
    """
    dest = Path(destination)
    if dest.resolve() == case.path.resolve():
        raise CaseFileError("Choose another name or folder: this is the open case itself.")
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        target = sqlite3.connect(str(part))
        try:
            case.conn.backup(target)
        finally:
            target.close()
        part.replace(dest)
    except (OSError, sqlite3.Error) as e:
        part.unlink(missing_ok=True)
        raise CaseFileError(f"The copy could not be written to {dest}: {e}.") from e
    return dest
