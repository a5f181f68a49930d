"""Crash safety: kill a scripted recount workload with SIGKILL at random moments, then check.

A worker subprocess creates a case (or reopens the one a killed worker left), imports the demo
canvass and loops over actions — contest settings, recount requests and, when the recount
actions exist, tally entries — printing ``ack <audit seq>`` after each action's transaction
committed. The harness kills it at a random (seeded) moment and then checks that the case
file opens, ``PRAGMA integrity_check`` passes, ``verify_case`` is OK, and every acknowledged
action is in the audit log. Every ``fresh_every`` runs a new case is started, so kills also
land while a case is created and the canvass imported.

    python benchmarks/crash_harness.py --kills 120 --seed 1
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path


def worker(case_path: Path, seed: int) -> None:
    """The workload; runs until killed (or ``max_actions``)."""
    from recount_desk import store
    from recount_desk.actions import canvass, contests, demo
    from recount_desk.actions.case import create_case, open_case
    from recount_desk.core.model import PassRule, Scope, VotingMethod
    from recount_desk.core.rules import Office, Requester

    def ack(case: object) -> None:
        last = store.last_entry(case.conn)  # type: ignore[attr-defined]
        print(f"ack {last.seq if last else 0}", flush=True)

    rnd = random.Random(seed)
    spec = demo.demo_spec()
    if case_path.exists():
        case = open_case(case_path, actor="harness")
    else:
        case = create_case(case_path, spec.election, actor="harness")
        ack(case)
    from recount_desk.actions.case import add_person
    from recount_desk.core.people import Role

    for officer in ("Officer 1", "Officer 2"):  # the two who enter tallies
        if case.roster.who(officer).person is None:
            add_person(case, officer, Role.DEPUTY)
            ack(case)
    if canvass.repo.current_import(case.conn) is None:
        canvass.import_canvass(case, canvass.read_file(spec.canvass))
        ack(case)
    rows = contests.overview(case)
    # The demo's close race (State House 69); settings changes keep it a one-seat race.
    close = next(r for r in rows if r.check.totals.contest.key.district == "69")
    cid = close.id
    names = [c.choice.name for c in close.check.totals.choices]
    loser = names[-1]

    tally = None
    try:
        from recount_desk.actions import recount as recount_actions
        from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet

        if recount_actions.rr.get_recount(case.conn, cid) is None:
            recount_actions.start_recount(case, cid, method=RecountMethod.RETABULATION,
                                          entry_mode=EntryMode.DOUBLE)
            ack(case)
        units = [u.unit.name for u in recount_actions.rr.units(case.conn, cid)]

        def tally(i: int) -> None:
            entry = 1 + i % 2
            recount_actions.enter_tally(
                case, cid, rnd.choice(units), entry=entry, officer=f"Officer {entry}",
                sheet=TallySheet(votes={n: rnd.randrange(500) for n in names}))
    except ImportError:
        pass

    def settings(i: int) -> None:
        contests.set_contest_settings(
            case, cid, seats=1, scope=rnd.choice([Scope.MULTICOUNTY, Scope.COUNTY]),
            voting_method=VotingMethod.PLURALITY,
            pass_rule=rnd.choice([PassRule.MAJORITY, PassRule.TWO_THIRDS]))

    def request(i: int) -> None:
        contests.record_request(
            case, cid, requester=Requester.CANDIDATE, candidate=loser, voters=[],
            filed_at=datetime(2018, 11, 21, 9, i % 60), filed_with=Office.LIEUTENANT_GOVERNOR,
            override_reason="crash harness")

    actions = [settings, request] + ([tally] if tally else [])
    i = 0
    while True:
        rnd.choice(actions)(i)
        ack(case)
        i += 1


@dataclass
class Figures:
    kills: int = 0
    survived: int = 0
    acknowledged: int = 0
    lost: int = 0
    not_created: int = 0
    failures: list[str] = field(default_factory=list)


def check_after_kill(case_path: Path, acked: int) -> str | None:
    """None if the case survived the kill; else what is wrong."""
    from recount_desk.actions import verify
    from recount_desk.actions.case import open_case

    try:
        with open_case(case_path, actor="harness") as case:
            integrity = case.conn.execute("PRAGMA integrity_check").fetchone()[0]
            entries = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
    except (sqlite3.Error, Exception) as e:  # any failure to open is a finding, reported
        return f"does not open: {e}"
    if integrity != "ok":
        return f"integrity check: {integrity}"
    result = verify.verify_case(case_path)
    if not result.ok:
        return result.summary()
    if entries < acked:
        return f"{acked - entries} acknowledged action(s) lost"
    return None


def run(kills: int, seed: int, max_delay: float, fresh_every: int,
        folder: Path, quiet: bool = False) -> Figures:
    rnd = random.Random(seed)
    figs = Figures()
    case_path = folder / "case0.recount"
    acked = 0
    per_case: dict[Path, int] = {}
    for k in range(kills):
        if k and k % fresh_every == 0:
            case_path = folder / f"case{k}.recount"
            acked = 0
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(case_path), "--seed", str(seed * 1000 + k)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            # the worker runs the same checkout as this harness, not an installed copy
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                [str(Path(__file__).resolve().parents[1]),
                 *filter(None, [os.environ.get("PYTHONPATH")])])))
        time.sleep(rnd.uniform(0.05, max_delay))
        exited = proc.poll() is not None
        if not exited:
            proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        if exited:
            figs.failures.append(f"run {k}: the worker stopped by itself: {err[-400:]}")
            continue
        figs.kills += 1
        seqs = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ack ")]
        acked = max([acked, *seqs])
        per_case[case_path] = acked
        if not case_path.exists():
            figs.not_created += 1
            figs.survived += 1
            continue
        problem = check_after_kill(case_path, acked)
        if problem is None:
            figs.survived += 1
        else:
            if "lost" in problem:
                figs.lost += int(problem.split()[0])
            figs.failures.append(f"run {k} ({case_path.name}, {acked} acked): {problem}")
        if not quiet:
            print(f"kill {k + 1:>3}: {len(seqs):>3} action(s) acknowledged this run, "
                  f"{acked} in total; {'OK' if problem is None else problem}", flush=True)
    figs.acknowledged = sum(per_case.values())
    return figs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=2.5,
                    help="longest wait (s) before the kill; the worker needs ~1 s to start")
    ap.add_argument("--fresh-every", type=int, default=15)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(Path(args.worker), args.seed)
        return 0
    with tempfile.TemporaryDirectory() as d:
        figs = run(args.kills, args.seed, args.max_delay, args.fresh_every, Path(d))
    print(f"kills: {figs.kills}; survived: {figs.survived}; killed before a case file "
          f"existed: {figs.not_created}; actions acknowledged: {figs.acknowledged}; "
          f"acknowledged actions lost: {figs.lost}; failures: "
          f"{len(figs.failures)}")
    for f in figs.failures:
        print("  " + f)
    return 0 if not figs.failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
