"""Opening, creating and describing a case file: the user's first actions."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import cast

from recount_desk import store
from recount_desk.core.audit import AuditEntry
from recount_desk.core.calendar import ClosedDay, holiday_name
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.people import Person, Role, Roster
from recount_desk.core.rules import Edition, edition_for
from recount_desk.store import anchor, lock, people_repo, repo
from recount_desk.store.backup import (
    BackupRefused,
    case_ids,
    file_case_id,
    last_entry_of,
    list_backups,
    make_backup,
)
from recount_desk.store.backup import restore as restore_file


class WhoAreYou(store.CaseFileError):
    """No person of the roster is acting on this case yet; the message says how to say."""


@dataclass
class Case:
    """An open case file. Each thread that touches it opens its own ``Case``.

    ``person`` is who acts (one of the case's roster); every audit entry names them, with
    the workstation's ``login`` beside it. A case is not changed until someone is chosen.
    ``path`` is the case file's path or, for a case on a counting-center server, its
    ``store.CaseURL`` (``name`` and ``str()`` as a path's; ``on_server`` says which)."""

    path: Path
    conn: sqlite3.Connection
    readonly: bool = False
    person: Person | None = None
    readonly_reason: str | None = None
    login: str = field(default_factory=store.actor_name)

    @property
    def on_server(self) -> bool:
        """Whether the case lives on a counting-center server (several stations at once)."""
        return store.is_url(self.path)

    @property
    def actor(self) -> str:
        """The name of the person acting; refused while nobody has said who they are."""
        if self.person is None:
            raise WhoAreYou("Say who you are before changing the case: choose your name from "
                            "its roster of people (in the window: File › Switch person…; on "
                            "the command line: --as NAME or RECOUNT_DESK_AS). Nothing was "
                            "changed.")
        return self.person.name

    @property
    def roster(self) -> Roster:
        return people_repo.roster(self.conn)

    def act_as(self, name: str) -> Person:
        """Switch the acting person to the one of the roster that ``name`` resolves to."""
        who = self.roster.who(name)
        if who.person is None:
            raise WhoAreYou(who.refusal)
        self.person = who.person
        return who.person

    def close(self) -> None:
        if not self.readonly:  # the check of the file as it is left, for the next open
            with contextlib.suppress(OSError, sqlite3.Error):
                store.remember_check(self.conn)
        self.conn.close()
        if not self.readonly and not self.on_server:
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
    """Create a case file for ``election`` (first audit entry: the election itself); at a
    ``postgresql://`` URL, the case is made in that empty database on the server."""
    path = cast(Path, store.location(path))
    errs = validate_election(election.name, election.date, election.kind.value,
                             election.jurisdiction, election.canvass_completed)
    if errs:
        raise store.CaseFileError("; ".join(e.message for e in errs))
    creator = (actor or election.officer or store.actor_name()).strip()
    conn = store.create(path)
    case = Case(path, conn)
    if not case.on_server:
        lock.acquire(path, case.login)
    _keep_head_outside(case)
    with store.transaction(conn, creator, "create case") as tx:
        repo.set_election(tx, election, edition.value if edition else None)
        pid = people_repo.add_person(tx, creator, Role.ELECTION_OFFICER, store.utc_now(),
                                     creator)
        tx.update(_election_payload(election, edition))
        tx["election_officer"] = creator  # the case's creator is its election officer
    case.person = Person(pid, creator, Role.ELECTION_OFFICER)
    return case


def _election_payload(e: Election, edition: Edition | None) -> dict[str, object]:
    return {"name": e.name, "date": e.date.isoformat(), "kind": e.kind.value,
            "jurisdiction": e.jurisdiction,
            "canvass_completed": e.canvass_completed.isoformat(timespec="minutes")
            if e.canvass_completed else None,
            "officer": e.officer, "edition": edition.value if edition else None}


def open_case(path: Path | str, *, readonly: bool = False, actor: str | None = None,
              backup: bool = False) -> Case:
    """Open a case file, acting as ``actor`` (a name the roster resolves; a one-person roster
    needs none). Without one the case can be read but not changed until someone says who
    they are (``Case.act_as``).

    A case already open in another Recount Desk, or on read-only media, is opened read-only
    and ``Case.readonly_reason`` says why. ``backup`` makes a rotating backup copy in the
    user's data folder first (the window does this on every open).

    At a ``postgresql://`` URL the case is on a counting-center server: several stations
    write it at once (store/pg.py), so there is no lock, and the server keeps its backups.
    """
    path = cast(Path, store.location(path))
    login = store.actor_name()
    reason = None
    server = store.is_url(path)
    if not readonly and not server:
        holder = lock.acquire(path, actor or login)
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
        if not readonly and not server:
            lock.release(path)
        raise
    case = Case(path, conn, readonly=readonly, readonly_reason=reason)
    roster = case.roster
    if actor:
        who = roster.who(actor)
        if who.person is None and not readonly:
            case.close()
            raise WhoAreYou(who.refusal)
        case.person = who.person
    elif len(roster.people) == 1:
        case.person = roster.people[0]  # nobody else it could be
    if not readonly:
        _keep_head_outside(case)
    if backup and not readonly and not server:
        from .demo import user_data_dir

        try:
            make_backup(conn, path, user_data_dir())
        except (OSError, sqlite3.Error):
            case.readonly_reason = None  # a failed backup must not stop the work
    return case


def _keep_head_outside(case: Case) -> None:
    """After each action, keep the chain's head in the data folder too (store/anchor.py)."""
    from .demo import user_data_dir

    cid = anchor.case_id(case.conn)
    if cid is None or not hasattr(case.conn, "after_commit"):
        return
    root, path = user_data_dir(), case.path

    def keep(entry: AuditEntry, committed: bool) -> None:
        anchor.record(root, cid, entry, path, committed=committed)

    with contextlib.suppress(OSError):  # a data folder we cannot write: no second witness
        case.conn.writer = anchor.writer_id(root)  # type: ignore[attr-defined]
    case.conn.after_commit = keep
    if isinstance(case.conn, store.CaseConnection):
        case.conn.checked_in = root / "checked"  # store/checked.py
        take_known_check(case)


def take_known_check(case: Case) -> bool:
    """When the case, page for page, is one checked here against its log (closed here, or
    just checked by the window on a connection of its own), take that check now, so the
    first action does not hash the file's image while the officer waits (store/checked.py;
    ``store.take_known_check``). Nothing changes otherwise: the first action then checks
    the case as every action does. True when the check was taken."""
    if case.readonly:
        return False
    try:
        return store.take_known_check(case.conn)
    except (sqlite3.Error, OSError):
        return False  # the first action checks the case itself


def backup_before_writing(case: Case) -> list[str]:
    """What the command line does before it writes: verify the case and, if it is sound,
    keep a rotating backup copy (as the window does on every open). Returns the problems
    verification found; the caller writes nothing when there are any."""
    from .demo import user_data_dir
    from .verify import verify_open

    result = verify_open(case.conn, case.path.name)
    if not result.ok or case.on_server:  # the server keeps its own backups (README)
        return result.problems
    # A failed backup must not stop the work; the next write tries again.
    with contextlib.suppress(OSError, sqlite3.Error):
        make_backup(case.conn, case.path, user_data_dir())
    return []


def check_after_open(path: Path | str) -> list[str]:
    """What the window runs in the background once a case is shown: verify it, and if it is
    sound keep a rotating backup copy (a tampered file must not push good copies out).
    Returns the problems verification found (empty when the file is sound)."""
    from .demo import user_data_dir
    from .verify import verify_case

    path = cast(Path, store.location(path))
    result = verify_case(path)
    if not result.ok or store.is_url(path):
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
    from .demo import user_data_dir
    from .verify import verify_case

    path, backup = Path(path), Path(backup)
    if not backup.is_file():
        raise store.CaseFileError(f"The backup {backup.name} is not a file; nothing was "
                                  "changed.")
    result = verify_case(backup, anchored=False)  # a backup is older than the case
    if not result.ok:
        raise store.CaseFileError(f"The backup {backup.name} does not verify: "
                                  + "; ".join(result.problems))
    holder = lock.acquire(path, store.actor_name())
    if holder is not None:
        raise store.CaseFileError(f"{path.name} is open in Recount Desk by "
                                  f"{holder.describe()}; close it before restoring.")
    root = user_data_dir()
    replaced, head, cid = last_entry_of(path), last_entry_of(backup), file_case_id(backup)
    try:
        if head is not None and cid is not None and cid in case_ids(root, path):
            # The chain's head kept outside goes back with the case (a restore is no
            # rollback), first: a kill during the copy must not make the restored case look
            # rolled back; the replaced head stays known (its entries were written here).
            with contextlib.suppress(OSError):
                anchor.record(root, cid, head, path, restored=True, superseded=replaced)
        return restore_file(backup, path, root)
    except BackupRefused as e:
        raise store.CaseFileError(str(e)) from e
    except (OSError, sqlite3.Error) as e:
        raise store.CaseFileError(f"The backup could not be restored ({e}); the case is as "
                                  "it was.") from e
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


class RosterRefused(Exception):
    """A change to the roster of people that is not allowed; the message says why."""


def _officer_only(case: Case, what: str) -> None:
    if case.person is None or case.person.role is not Role.ELECTION_OFFICER:
        who = case.person.name if case.person else "Nobody"
        raise RosterRefused(f"Only the election officer may {what}; {who} is acting now. "
                            "Nothing was changed.")


def add_person(case: Case, name: str, role: Role) -> Person:
    """Add someone to the case's roster (the election officer only; audited)."""
    _officer_only(case, "add people to the roster")
    clean = " ".join((name or "").split())
    if not clean:
        raise RosterRefused("Give the person's name.")
    roster = case.roster
    same = roster.who(clean).person
    if same is not None:
        raise RosterRefused(f"{clean} is already on the roster as {same.name} "
                            f"({same.role.label.lower()}).")
    if role is Role.ELECTION_OFFICER and roster.election_officer is not None:
        raise RosterRefused(f"{roster.election_officer.name} is the election officer; a case "
                            "has one. Change that person's role first.")
    with store.transaction(case.conn, case.actor, "add person") as tx:
        pid = people_repo.add_person(tx, clean, role, store.utc_now(), case.actor)
        tx.update({"person_id": pid, "name": clean, "role": role.value})
    return Person(pid, clean, role)


def change_role(case: Case, name: str, role: Role) -> Person:
    """Give a person of the roster another role (the election officer only; audited). The
    election officer's own role passes on by naming another person election officer."""
    _officer_only(case, "change roles on the roster")
    roster = case.roster
    who = roster.who(name)
    if who.person is None:
        raise RosterRefused(who.refusal)
    person = who.person
    officer = roster.election_officer
    with store.transaction(case.conn, case.actor, "change role") as tx:
        if role is Role.ELECTION_OFFICER and officer is not None and officer.id != person.id:
            people_repo.set_role(tx, officer.id, Role.DEPUTY)
            tx["former_election_officer"] = officer.name
        elif person.role is Role.ELECTION_OFFICER and role is not Role.ELECTION_OFFICER:
            raise RosterRefused("The case needs its election officer: name another person "
                                "election officer instead. Nothing was changed.")
        people_repo.set_role(tx, person.id, role)
        tx.update({"person_id": person.id, "name": person.name, "from": person.role.value,
                   "to": role.value})
    changed = Person(person.id, person.name, role)
    if case.person is not None and case.person.id == person.id:
        case.person = changed
    elif role is Role.ELECTION_OFFICER and case.person is not None and officer is not None \
            and case.person.id == officer.id:
        case.person = Person(officer.id, officer.name, Role.DEPUTY)  # handed over
    return changed


def remove_person(case: Case, name: str) -> None:
    """Take someone off the roster (the election officer only; audited). What they did
    stays in the log under their name."""
    _officer_only(case, "remove people from the roster")
    who = case.roster.who(name)
    if who.person is None:
        raise RosterRefused(who.refusal)
    if who.person.role is Role.ELECTION_OFFICER:
        raise RosterRefused("The election officer cannot be removed; name another person "
                            "election officer first.")
    with store.transaction(case.conn, case.actor, "remove person") as tx:
        people_repo.remove_person(tx, who.person.id)
        tx.update({"person_id": who.person.id, "name": who.person.name})


def roster(case: Case) -> Roster:
    return case.roster


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
    if case.person is None or case.person.role is not Role.ELECTION_OFFICER:
        raise AcceptRefused("Only the election officer may accept a file changed outside "
                            "Recount Desk. Nothing was changed.")
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
# The counting-center server cannot be reached: the action was not saved (store/pg.py).
ServerUnavailable = store.ServerUnavailable
location = store.location


def save_copy(case: Case, destination: Path | str) -> Path:
    """Write a consistent copy of the open case to ``destination`` (a USB stick, a backup).

    The copy is made with SQLite's backup API, so it is whole even while the case is in use,
    and written beside the destination first so a failed copy never leaves half a file.
    """
    dest = Path(destination)
    if case.on_server:  # a case file of the server's case, as it is now
        from recount_desk.store.transfer import copy_case

        if dest.exists():
            raise CaseFileError(f"{dest.name} already exists; choose another name.")
        copy_case(case.conn, dest).close()
        return dest
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
