"""Crash safety: kill a scripted recount workload with SIGKILL at random moments, then check.

A worker subprocess creates a case (or reopens the one a killed worker left), imports the demo
canvass and loops over actions — contest settings, recount requests and, when the recount
actions exist, tally entries — printing ``ack <audit seq>`` after each action's transaction
committed. The harness kills it at a random (seeded) moment and then checks that the case
file opens, ``PRAGMA integrity_check`` passes, ``verify_case`` is OK, and every acknowledged
action is in the audit log. Every ``fresh_every`` runs a new case is started, so kills also
land while a case is created and the canvass imported.

It also kills during backups (``--mode backup``: every backup a kill leaves must verify),
during restores (``--mode restore``: the work a restore replaces must be in the copy kept
aside, the rest in the case) and with two processes on one file through two paths (a hard
link, ``--mode twopaths``: only one may write). ``--mode all`` shares the kills among them.

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


def worker(case_path: Path, seed: int, mode: str = "recount") -> None:
    """The workload; runs until killed. ``mode``: "recount" (actions), "backup" (a backup
    before each action), "restore" (actions, backups and restores of them), "twopaths"
    (as "recount"; the harness starts two workers on one file through two paths, and the
    one that finds it read-only keeps trying to open it for writing)."""
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
    print("ready", flush=True)
    if case_path.exists():
        while True:
            try:
                case = open_case(case_path, actor="harness")
            except store.CaseFileError:
                if mode != "twopaths":
                    raise
                time.sleep(0.05)  # the other worker is still creating it
                continue
            if not case.readonly:
                break
            case.close()  # the other worker holds the file (through its other path)
            print("read-only", flush=True)
            time.sleep(0.05)
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
    # The demo's close race (State House 32); settings changes keep it a one-seat race.
    from recount_desk.actions.demo_recount import DEMO_DISTRICT, DEMO_TITLE

    close = next(r for r in rows if r.check.totals.contest.key.title == DEMO_TITLE
                 and r.check.totals.contest.key.district == DEMO_DISTRICT)
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
            filed_at=datetime(2016, 11, 29, 9, i % 60), filed_with=Office.LIEUTENANT_GOVERNOR,
            override_reason="crash harness")

    actions = [settings, request] + ([tally] if tally else [])
    if mode == "backup":  # a backup (the CLI's: verify, then copy) before every action
        from recount_desk.actions.case import backup_before_writing

        def backed_up(act: object) -> object:
            def run(i: int) -> None:
                assert backup_before_writing(case) == []
                act(i)  # type: ignore[operator]
            return run

        actions = [backed_up(a) for a in actions]
    i = 0
    while True:
        if mode == "restore" and i % 3 == 2:
            from recount_desk.actions.case import backups, restore_backup

            found = backups(case_path)
            if found:
                case.close()
                print("restoring", flush=True)
                restore_backup(case_path, found[rnd.randrange(len(found))])
                case = open_case(case_path, actor="harness")
                last = store.last_entry(case.conn)
                print(f"restored {last.seq if last else 0}", flush=True)
            i += 1
            continue
        if mode == "restore" and i % 3 == 0:
            from recount_desk.actions.case import backup_before_writing

            assert backup_before_writing(case) == []
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


def check_after_kill(case_path: Path, acked: int, before_restore: int = 0) -> str | None:
    """None if the case survived the kill; else what is wrong."""
    from recount_desk.actions import verify
    from recount_desk.actions.case import backups, open_case

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
    if before_restore:  # killed during a restore: what it replaced is in the copy aside
        held = max(entries, _acked_in_asides(case_path))
        if held < before_restore:
            return (f"{before_restore - held} acknowledged action(s) lost (a kill during a "
                    "restore: neither the case nor the copy kept aside holds them)")
    elif entries < acked:
        return f"{acked - entries} acknowledged action(s) lost"
    for b in backups(case_path):  # every backup a kill left behind is whole and sound
        if not verify.verify_case(b).ok:
            return f"the backup {b.name} does not verify: {verify.verify_case(b).summary()}"
    return None


def _start(case_path: Path, seed: int, mode: str, env: dict[str, str]
           ) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", str(case_path), "--seed", str(seed),
         "--mode", mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    proc.stdout.readline()  # "ready": the imports are done, the random delay starts now
    return proc


def _entries(case_path: Path) -> int:
    """The case's audit entries now."""
    conn = sqlite3.connect(case_path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM audit").fetchone()[0])
    finally:
        conn.close()


def _acked_in_asides(case_path: Path) -> int:
    """The most entries any copy a restore kept aside holds (work a restore replaced)."""
    best = 0
    for aside in case_path.parent.glob(f"{case_path.stem}.before-restore-*{case_path.suffix}"):
        try:
            best = max(best, _entries(aside))
        except sqlite3.Error:
            continue
    return best


def run(kills: int, seed: int, max_delay: float, fresh_every: int,
        folder: Path, quiet: bool = False, mode: str = "recount") -> Figures:

    rnd = random.Random(seed)
    figs = Figures()
    # The workers run this checkout's code, whatever is installed.
    os.environ.setdefault("RECOUNT_DESK_DATA", str(folder / "data"))  # workers and checks
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    case_path = folder / "case0.recount"
    acked = 0
    per_case: dict[Path, int] = {}
    for k in range(kills):
        if k and k % fresh_every == 0:
            case_path = folder / f"case{k}.recount"
            acked = 0
        procs = [_start(case_path, seed * 1000 + k, mode, env)]
        if mode == "twopaths" and case_path.exists():
            other = folder / f"link-{case_path.name}"
            other.unlink(missing_ok=True)
            os.link(case_path, other)  # the same file by another name
            procs.append(_start(other, seed * 1000 + k + 500, mode, env))
        time.sleep(rnd.uniform(0.05, max_delay))
        outs = []
        exited = False
        for proc in procs:
            exited |= proc.poll() is not None
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            outs.append(proc.communicate())
        if exited:
            figs.failures.append(f"run {k}: a worker stopped by itself: "
                                 + " | ".join(err[-400:] for _, err in outs if err))
            continue
        figs.kills += 1
        lines = [line for out, _ in outs for line in out.splitlines()]
        seqs = []
        before_restore = 0
        for line in lines:
            if line.startswith("ack "):
                seqs.append(int(line.split()[1]))
            elif line == "restoring":
                before_restore = max([acked, *seqs])
            elif line.startswith("restored "):
                # the restore replaced the work after the backup: it is kept aside
                acked, seqs, before_restore = int(line.split()[1]), [], 0
        acked = max([acked, *seqs])
        per_case[case_path] = max(per_case.get(case_path, 0), acked)
        if not case_path.exists():
            figs.not_created += 1
            figs.survived += 1
            continue
        problem = check_after_kill(case_path, acked, before_restore)
        if problem is None and before_restore:
            # The restore may have replaced the case before the kill (its work is in the
            # copy kept aside, checked above): the case's own log goes on from the backup's.
            acked = min(acked, _entries(case_path))
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
    ap.add_argument("--mode", default="all", choices=[*MODES, "all"],
                    help="recount, backup, restore, twopaths (two processes, two paths to one "
                    "file), or all (the kills shared between them)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(Path(args.worker), args.seed, args.mode)
        return 0
    modes = MODES if args.mode == "all" else (args.mode,)
    failed = False
    for m in modes:
        with tempfile.TemporaryDirectory() as d:
            figs = run(max(1, args.kills // len(modes)), args.seed, args.max_delay,
                       args.fresh_every, Path(d), mode=m)
        print(f"{m}: kills: {figs.kills}; survived: {figs.survived}; killed before a case "
              f"file existed: {figs.not_created}; actions acknowledged: {figs.acknowledged}; "
              f"acknowledged actions lost: {figs.lost}; failures: {len(figs.failures)}",
              flush=True)
        for f in figs.failures:
            print("  " + f)
        failed |= bool(figs.failures)
    return 1 if failed else 0


MODES = ("recount", "backup", "restore", "twopaths")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code
    raise SystemExit(main())
