"""The bundled demo election: a real public canvass with a contest inside the margin.

The demo case is built through the same actions the window and the command line use, in
the user's data folder (never inside the installed package).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from recount_desk import store
from recount_desk.core.model import Election, ElectionKind, Scope
from recount_desk.paths import resource
from recount_desk.store import repo

from .canvass import ParsedCanvass, import_canvass, read_file
from .case import Case, create_case, open_case
from .contests import set_contest_settings
from .demo_recount import complete_demo_recount


@dataclass(frozen=True)
class DemoSpec:
    election: Election
    canvass: Path
    scopes: dict[str, Scope]
    recount: Path | None = None  # the re-tabulated statement the demo recount loads


def demo_spec() -> DemoSpec:
    """The bundled demo election (``resources/demo/election.json``)."""
    return load_spec(resource("demo"))


def load_spec(folder: Path) -> DemoSpec:
    """A demo election's details from ``election.json`` in ``folder``."""
    spec = json.loads((folder / "election.json").read_text(encoding="utf-8"))
    return DemoSpec(
        Election(spec["name"], date.fromisoformat(spec["date"]), ElectionKind(spec["kind"]),
                 spec["jurisdiction"], datetime.fromisoformat(spec["canvass_completed"]),
                 spec["officer"]),
        folder / spec["canvass_file"],
        {k: Scope(v) for k, v in spec.get("scopes", {}).items()},
        folder / spec["recount_file"] if spec.get("recount_file") else None,
    )


def user_data_dir() -> Path:
    """The per-user data folder (no Qt needed: the CLI uses it too)."""
    override = os.environ.get("RECOUNT_DESK_DATA")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
        return base / "Recount Desk"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Recount Desk"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / \
        "recount-desk"


def apply_demo_scopes(parsed: ParsedCanvass) -> ParsedCanvass:
    """The demo canvass with the contest scopes the demo case records (for ``check --demo``)."""
    scopes = demo_spec().scopes
    return dataclasses.replace(parsed, totals=[
        dataclasses.replace(t, contest=dataclasses.replace(
            t.contest, scope=scopes.get(t.contest.key.title, t.contest.scope)))
        for t in parsed.totals])


# Utah in November keeps Mountain Standard Time.
MST = timezone(timedelta(hours=-7))


def build_demo_case(path: Path) -> Case:
    """Create the demo case at ``path`` from the bundled canvass, with its finished recount.

    The records are dated as the 2016 events would have been (a replayed clock), so that the
    audit log, the recount dates and the report agree with the election.
    """
    spec = demo_spec()
    with store.replayed_clock() as set_clock:
        if spec.election.canvass_completed is not None:
            set_clock(spec.election.canvass_completed.replace(tzinfo=MST))
        case = create_case(path, spec.election)  # its officer is the election officer
        import_canvass(case, read_file(spec.canvass))
        for sc in repo.contests(case.conn):
            c = sc.totals.contest
            scope = spec.scopes.get(c.key.title)
            if scope is not None:
                set_contest_settings(case, sc.id, seats=c.seats, scope=scope,
                                     voting_method=c.voting_method, pass_rule=c.pass_rule)
        complete_demo_recount(case, set_clock=lambda at: set_clock(at.replace(tzinfo=MST)),
                              recount_file=spec.recount)
    return case


def demo_case_path() -> Path:
    return user_data_dir() / "Demo - 2016 General Election.recount"


def open_demo_case(fresh: bool = False) -> Case:
    """Open the user's copy of the demo case, building it on first use."""
    path = demo_case_path()
    if fresh and path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    if path.exists():
        case = open_case(path)
        officer = case.roster.election_officer
        if officer is not None and officer.name == demo_spec().election.officer:
            return case
        # a demo built by an earlier version, with other people: this version's demo
        case.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    return build_demo_case(path)
