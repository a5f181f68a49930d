"""Load test of the counting center: stations entering one recount at once on PostgreSQL.

Eight station processes (``--stations``) enter a 1,000-unit contest (``--units``) in double
entry, as fast as they can, against one throwaway PostgreSQL server (``initdb``/``pg_ctl``
in a temporary folder; PostgreSQL's programs must be installed, see tests/pg_cluster.py).
Each station works as a person of the roster, takes a unit still free for it from its list
(entry 1, or the blind entry 2 of a unit someone else entered first), saves it through the
same action the window uses (``enter_tally(..., expect_new=True)``: refused when another
station saved that entry meanwhile), and writes every acknowledged save to its own log
(fsynced) before going on.

Runs, interleaved: a baseline of one station, then all the stations (``--rounds`` times);
then a faulty run: one station is killed (SIGKILL) while saving and the server is stopped
dead (``pg_ctl -m immediate``) and restarted mid-run. After each run it checks that

- every acknowledged entry is in the case (its row, unit and entry number);
- ``verify`` passes (the chain is one chain, the data matches it);
- the audit log has exactly one entry per action (one "enter tally" per tally entry, and
  the setup's own);
- no unit was entered twice under the same entry number;

and prints entries per second and the 95th-percentile save time, with the stations' run
as a ratio of the baseline's.

    python benchmarks/counting_center.py [--units 1000] [--stations 8] [--rounds 1]
                                         [--limit N] [--no-faults]

``--limit N`` stops each station after N saves (a quick comparison of two versions on the
full-size case; the checks then cover the entries made).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONTEST = 1
CHOICES = ("Ada Alvarez", "Ben Brooks", "Cal Chen")


def officer(i: int) -> str:
    return f"Station Officer {i + 1}"


# --- the case ---------------------------------------------------------------------------


def make_case(url: str, units: int, stations: int) -> int:
    """A county general election with one race of ``units`` precincts, its roster (the
    election officer and one officer per station) and its hand recount started in double
    entry. Returns the number of audit entries the set-up wrote."""
    from recount_desk import store
    from recount_desk.actions import case as case_actions
    from recount_desk.actions import recount as rc
    from recount_desk.core.model import (
        Choice,
        ChoiceTotal,
        Contest,
        ContestKey,
        ContestTotals,
        Election,
        ElectionKind,
        VoteColumn,
    )
    from recount_desk.core.people import Role
    from recount_desk.core.recount import EntryMode, RecountMethod
    from recount_desk.store import repo

    e = Election("2016 General", date(2016, 11, 8), ElectionKind.GENERAL, "Load County",
                 datetime(2016, 11, 22, 10, 0), "County Clerk")
    case = case_actions.create_case(url, e, actor="County Clerk")
    with case:
        for i in range(stations):
            case_actions.add_person(case, officer(i), Role.DEPUTY)
        precincts = [f"P{n:04d}" for n in range(1, units + 1)]
        votes = [[_votes(p)[k] for p in precincts] for k in range(len(CHOICES))]
        race = ContestTotals(Contest(ContestKey("County Commission", "Seat A")),
                             tuple(ChoiceTotal(Choice(c), sum(votes[k]))
                                   for k, c in enumerate(CHOICES)), {}, units)
        columns = [VoteColumn(0, k, range(1, units + 1), votes[k]) for k in range(len(CHOICES))]
        with store.transaction(case.conn, case.actor, "import canvass") as tx:
            _, digest = repo.insert_canvass(
                tx, file="load.csv", sha256="0" * 64, family="benchmark",
                imported_at=store.utc_now(), primary=False, precincts=precincts,
                totals=[race], columns=columns, extras=[], issues=[])
            tx["canvass_digest"] = digest
        rc.start_recount(case, CONTEST, method=RecountMethod.HAND_COUNT,
                         entry_mode=EntryMode.DOUBLE)
        return len(list(store.audit_entries(case.conn)))


def _votes(unit: str) -> tuple[int, ...]:
    r = random.Random(unit)
    return tuple(r.randint(0, 400) for _ in CHOICES)


# --- a station ----------------------------------------------------------------------------


def station(url: str, me: int, log: Path, stop_after: int | None) -> None:
    """Enter units until none is left for this station (or ``stop_after`` saves)."""
    from recount_desk.actions import case as case_actions
    from recount_desk.actions import recount as rc
    from recount_desk.core.recount import TallySheet

    name = officer(me)
    rng = random.Random(me)
    case = _connect(url, name)
    out = open(log, "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
    todo: list[tuple[str, int]] = []
    saved = 0
    while stop_after is None or saved < stop_after:
        if not todo:
            try:
                rows = rc.unit_list(case, CONTEST)
            except case_actions.ServerUnavailable:  # the server went away: wait for it
                case = _reconnect(case, url, name)
                continue
            todo = [(r.name, 1) for r in rows if r.first_officer is None] + [
                (r.name, 2) for r in rows if r.first_officer not in (None, name)
                and r.second_officer is None]
            if not todo:
                if all(r.first_officer and r.second_officer for r in rows):
                    break  # the contest is entered
                time.sleep(0.2)  # only units this station entered first are left
                continue
            rng.shuffle(todo)
        unit, entry = todo.pop()
        a, b, c = _votes(unit)
        sheet = TallySheet(a + b + c, dict(zip(CHOICES, (a, b, c), strict=True)), 0, 0, 0)
        t0 = time.perf_counter()
        try:
            result = rc.enter_tally(case, CONTEST, unit, entry=entry, officer=name,
                                    sheet=sheet, expect_new=True)
        except rc.AlreadyEntered:
            todo = []  # another station was quicker: read the list again
            continue
        except case_actions.ServerUnavailable:
            case = _reconnect(case, url, name)
            todo = []  # not acknowledged: the list says whether it was saved after all
            continue
        dt = time.perf_counter() - t0
        out.write(json.dumps({"unit": unit, "entry": entry, "id": result.entry_id,
                              "seconds": dt}) + "\n")
        out.flush()
        os.fsync(out.fileno())
        saved += 1
    out.close()
    case.close()


def _connect(url: str, name: str):  # type: ignore[no-untyped-def]
    from recount_desk.actions import case as case_actions

    for _ in range(600):
        try:
            return case_actions.open_case(url, actor=name)
        except (case_actions.CaseFileError, case_actions.ServerUnavailable):
            time.sleep(0.1)
    raise SystemExit(f"{name}: the server did not come back")


def _reconnect(case, url: str, name: str):  # type: ignore[no-untyped-def]
    """The station connects again, as the window's does (actions.center.reconnect)."""
    from recount_desk.actions import case as case_actions
    from recount_desk.actions import center

    for _ in range(600):
        try:
            center.reconnect(case)
            return case
        except (case_actions.CaseFileError, case_actions.ServerUnavailable):
            time.sleep(0.1)
    raise SystemExit(f"{name}: the server did not come back")


# --- a run ----------------------------------------------------------------------------------


def run(cluster, stations: int, units: int, *, stop_after: int | None = None,  # type: ignore[no-untyped-def]
        faults: bool = False) -> dict[str, object]:
    from tests import pg_cluster

    server = pg_cluster.Server(cluster.admin_url, cluster)
    url = server.new_database("load")
    setup_entries = make_case(url, units, stations)
    folder = Path(tempfile.mkdtemp(prefix="recount-desk-load-"))
    logs = [folder / f"station-{i + 1}.jsonl" for i in range(stations)]
    procs = []
    start = time.perf_counter()
    for i in range(stations):
        env = dict(os.environ, RECOUNT_DESK_DATA=str(folder / f"data-{i + 1}"))
        cmd = [sys.executable, __file__, "--station", str(i), "--url", url, "--log",
               str(logs[i])]
        if stop_after is not None:
            cmd += ["--stop-after", str(stop_after)]
        procs.append(subprocess.Popen(cmd, env=env, cwd=ROOT))
    events: list[str] = []
    if faults:
        total = 2 * units
        killed = False
        restarted = False
        while any(p.poll() is None for p in procs):
            done = sum(_count(p) for p in logs)
            if not killed and done >= total // 4:
                victim = random.Random(7).randrange(stations)
                time.sleep(random.Random(8).random() * 0.05)  # somewhere inside a save
                procs[victim].send_signal(signal.SIGKILL)
                killed = True
                events.append(f"station {victim + 1} killed (SIGKILL) after {done} entries")
            if killed and not restarted and done >= total // 2:
                cluster.restart()
                restarted = True
                events.append(f"server stopped dead and restarted after {done} entries")
            time.sleep(0.05)
    for p in procs:
        p.wait()
    wall = time.perf_counter() - start
    acked = [json.loads(line) for log in logs if log.exists()
             for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    checks = check(url, acked, setup_entries)
    times = sorted(a["seconds"] for a in acked)
    p95 = times[max(0, round(0.95 * len(times)) - 1)] if times else float("nan")
    return {"stations": stations, "entries": len(acked), "seconds": wall,
            "per_second": len(acked) / wall if wall else 0.0, "p95": p95, "checks": checks,
            "events": events}


def _count(log: Path) -> int:
    try:
        return log.read_bytes().count(b"\n")
    except OSError:
        return 0


def check(url: str, acked: list[dict[str, object]], setup_entries: int) -> list[str]:
    """What went wrong (empty: every check passed)."""
    from recount_desk import store
    from recount_desk.actions.verify import verify_case

    problems = []
    conn = store.open_case(url, readonly=True)
    try:
        rows = {int(i): (u, int(n), int(s)) for i, u, n, s in conn.execute(
            "SELECT e.id, u.name, e.entry_no, e.superseded FROM tally_entry e JOIN "
            "recount_unit u ON u.id = e.unit_id")}
        for a in acked:
            got = rows.get(int(a["id"]))  # type: ignore[call-overload]
            if got is None or got[:2] != (a["unit"], a["entry"]) or got[2]:
                problems.append(f"acknowledged entry {a} is not in the case as saved ({got})")
        seen: dict[tuple[str, int], int] = {}
        for u, n, _ in rows.values():
            seen[(u, n)] = seen.get((u, n), 0) + 1
        twice = [k for k, v in seen.items() if v > 1]
        if twice:
            problems.append(f"{len(twice)} unit(s) entered twice under one entry number, "
                            f"e.g. {twice[:3]}")
        entries = list(store.audit_entries(conn))
        tallies = sum(1 for e in entries if e.action == "enter tally")
        if tallies != len(rows) or len(entries) != setup_entries + len(rows):
            problems.append(f"the audit log has {len(entries)} entries ({tallies} 'enter "
                            f"tally') for {setup_entries} set-up actions and {len(rows)} "
                            "tally entries")
        if [e.seq for e in entries] != list(range(1, len(entries) + 1)):
            problems.append("the audit log's entries are not numbered 1, 2, 3, … (forked?)")
    finally:
        conn.close()
    result = verify_case(url)
    if not result.ok:
        problems.append("verify: " + "; ".join(result.problems))
    return problems


def report(label: str, r: dict[str, object], base: dict[str, object] | None) -> None:
    ratio = ""
    if base is not None:
        ratio = (f"   ×{float(r['per_second']) / float(base['per_second']):.2f} entries/s, "  # type: ignore[arg-type]
                 f"×{float(r['p95']) / float(base['p95']):.2f} p95 vs 1 station")  # type: ignore[arg-type]
    print(f"{label:<28} {r['entries']:>5} entries in {float(r['seconds']):7.1f} s  "  # type: ignore[arg-type]
          f"{float(r['per_second']):6.1f} entries/s  p95 save {1000 * float(r['p95']):7.1f} ms"  # type: ignore[arg-type]
          f"{ratio}")
    for e in r["events"]:  # type: ignore[attr-defined]
        print(f"    {e}")
    checks = r["checks"]
    print("    checks: " + ("every acknowledged entry is in the case; verify passes; one "
                            "audit entry per action; no unit entered twice under one entry "
                            "number" if not checks else "FAILED — " + "; ".join(checks)))  # type: ignore[arg-type]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--units", type=int, default=1000)
    p.add_argument("--stations", type=int, default=8)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--baseline-entries", type=int, default=150,
                   help="saves the one-station baseline makes (it is timed, not finished)")
    p.add_argument("--no-faults", action="store_true")
    p.add_argument("--limit", type=int, help="saves per station in the stations' run")
    p.add_argument("--station", type=int, help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--log", help=argparse.SUPPRESS)
    p.add_argument("--stop-after", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.station is not None:
        station(args.url, args.station, Path(args.log), args.stop_after)
        return 0
    from tests import pg_cluster

    server = pg_cluster.start_server()
    if server is None or server.cluster is None:
        print("No PostgreSQL server could be started: " + pg_cluster.why_not())
        return 2
    cluster = server.cluster
    failed = False
    try:
        print(f"Counting center load test: {args.units}-unit contest, double entry, "
              f"PostgreSQL at {cluster.admin_url}")
        for n in range(args.rounds):
            base = run(cluster, 1, args.units, stop_after=args.baseline_entries)
            report(f"round {n + 1}: 1 station", base, None)
            full = run(cluster, args.stations, args.units, stop_after=args.limit)
            report(f"round {n + 1}: {args.stations} stations", full, base)
            failed |= bool(base["checks"] or full["checks"])
            if args.limit is None and full["entries"] != 2 * args.units:
                print(f"    FAILED — {full['entries']} of {2 * args.units} entries made")
                failed = True
        if not args.no_faults:
            faulty = run(cluster, args.stations, args.units, faults=True)
            report(f"{args.stations} stations, faults", faulty, None)
            failed |= bool(faulty["checks"])
    finally:
        cluster.remove()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
