"""Time the recount report against a fair bare-reportlab baseline, and the whole command.

1. Rendering: the report of 3,000 units × 8 choices against the same cells (for each unit
   its canvass, recount and change lines over every choice and the ballot lines) set by
   plain reportlab in page-sized Tables (one Table per landscape page, so reportlab never
   splits a giant table), Helvetica, default styles. The two run alternately, run by run,
   and the ratio is taken per pair. Goal: at most 1.3 × the baseline.
2. The command: ``recount-desk report CASE -o out.pdf`` in a fresh process on a case of
   3,000 precincts whose recount is loaded from a re-tabulated statement (the whole job:
   start-up, opening and checking the case, reading the recount, rendering, the audit
   entry). Goal: under 2 s.

    python benchmarks/report_pdf.py [--runs 5]
"""

from __future__ import annotations

import argparse
import compileall
import csv
import dataclasses
import io
import os
import resource as rusage
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "report"))
sys.path.insert(0, str(ROOT))

from report_fixtures import county_race  # noqa: E402
from reportlab.lib.pagesizes import LETTER, landscape  # noqa: E402
from reportlab.platypus import PageBreak, SimpleDocTemplate, Table  # noqa: E402

from recount_desk.core.report_model import Ballots, RecountReport, ReportChoice, Unit  # noqa: E402
from recount_desk.paths import resource  # noqa: E402
from recount_desk.report.pdf import register_fonts, render  # noqa: E402

UNITS, CHOICES = 3000, 8
ROWS_PER_PAGE = 54  # what fits a landscape Letter page at reportlab's default row height


def big_report() -> RecountReport:
    choices = tuple(ReportChoice(f"Candidate {chr(65 + i)}", "Party") for i in range(CHOICES))
    units = tuple(Unit(f"Precinct {i:04d}", tuple((i * 7 + j) % 900 for j in range(CHOICES)),
                       tuple((i * 7 + j) % 900 + ((i + j) % 53 == 0) for j in range(CHOICES)),
                       (), Ballots(None, None, i % 5, i % 11),
                       Ballots(7000 + i, i % 3, i % 5, i % 11))
                  for i in range(UNITS))
    return dataclasses.replace(county_race(), choices=choices, units=units)


def bare(report: RecountReport) -> bytes:
    """The same cells in plain page-sized Tables."""
    head = ["Unit", "", *[c.name for c in report.choices], "Write-ins", "Total", "Over",
            "Under", "Ballots"]
    rows = []
    for u in report.units:
        sides = []
        for votes, b in ((u.canvass, u.canvass_ballots), (u.recount, u.recount_ballots)):
            sides.append([*votes, b.write_ins, sum(votes) + (b.write_ins or 0), b.over,
                          b.under, b.counted])
        change = [None if a is None or c is None else c - a
                  for a, c in zip(sides[0], sides[1], strict=True)]
        for label, vals in (("Canvass", sides[0]), ("Recount", sides[1]), ("Change", change)):
            rows.append([u.name if label == "Canvass" else "", label,
                         *["—" if v is None else f"{v:,}" for v in vals]])
    story = []
    for i in range(0, len(rows), ROWS_PER_PAGE):
        story += [Table([head, *rows[i:i + ROWS_PER_PAGE]], repeatRows=1), PageBreak()]
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=landscape(LETTER), invariant=1).build(story)
    return buf.getvalue()


def interleaved(runs: int, ours, base) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    a, b = [], []
    for _ in range(runs):
        for fn, out in ((ours, a), (base, b)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return a, b


# --- the whole command on a 3,000-precinct case ---------------------------------------------

def write_canvass(path: Path, units: int, shift: bool) -> None:
    names = ["Avery Brooks", "Dana Lee", "Marco Ortiz"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["county", "precinct", "office", "district", "party", "candidate", "votes"])
        for i in range(units):
            for j, n in enumerate(names):
                v = (i * 7 + j * 13) % 400 + 20
                if shift and (i + j) % 211 == 0:
                    v += 1
                w.writerow(["Big", f"P{i:04d}", "County Council", "", "", n, v])


def build_case(folder: Path, units: int) -> tuple[Path, int]:
    from recount_desk.actions import recount as rc
    from recount_desk.actions import retab
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind
    from recount_desk.core.recount import BoardKind, BoardMember, BoardRole, EntryMode
    from recount_desk.core.recount import RecountMethod as Method
    from recount_desk.store import repo

    canvass, statement = folder / "canvass.csv", folder / "retab.csv"
    write_canvass(canvass, units, False)
    write_canvass(statement, units, True)
    path = folder / "big.recount"
    election = Election("2026 General Election", date(2026, 11, 3), ElectionKind.GENERAL,
                        "Big County", datetime(2026, 11, 17, 17, 0), "Pat Clerk")
    case = create_case(path, election, actor="bench")
    import_canvass(case, read_file(canvass))
    cid = repo.contests(case.conn)[0].id
    rc.start_recount(case, cid, method=Method.RETABULATION, entry_mode=EntryMode.SINGLE)
    retab.load_retab(case, retab.preview_load(case, cid, statement), confirm=True)
    rc.confirm_no_envelopes(case, cid, confirmed=True)
    rc.declare(case, cid, override_reason="benchmark: no request recorded")
    rc.set_board_members(case, cid, [BoardMember(f"Member {k}", "Council Member")
                                     for k in range(5)]
                         + [BoardMember("Pat Clerk", "County Clerk", BoardRole.CLERK)])
    rc.convene_board(case, cid, convened_at=datetime.now().replace(microsecond=0),
                     place="Council Chambers", body_size=5, board_kind=BoardKind.COUNTY)
    case.close()
    return path, cid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    report = big_report()
    register_fonts(resource("fonts"))  # once per process, as in the app
    render(report, resource("fonts"))  # warm-up (font subsets, caches)
    bare(report)
    ours, base = interleaved(args.runs, lambda: render(report, resource("fonts")),
                             lambda: bare(report))
    ratios = [a / b for a, b in zip(ours, base, strict=True)]
    pages = render(report, resource("fonts")).count(b"/Type /Page\n")
    print(f"1. rendering {UNITS:,} units x {CHOICES} choices ({pages} pages), "
          f"{args.runs} interleaved runs")
    print(f"   recount report : median {statistics.median(ours):5.2f} s")
    print(f"   bare tables    : median {statistics.median(base):5.2f} s")
    print(f"   ratio          : median {statistics.median(ratios):5.2f} x "
          f"(range {min(ratios):.2f}-{max(ratios):.2f}; goal <= 1.3 x)")

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        path, cid = build_case(Path(tmp), UNITS)
        print(f"2. the command on a {UNITS:,}-precinct case (built in "
              f"{time.perf_counter() - t:.1f} s)")
        cmd = [sys.executable, "-m", "recount_desk", "report", str(path), "--contest",
               str(cid), "-o", str(Path(tmp) / "out.pdf")]
        # As installed: pip and the bundle ship compiled bytecode, so compile it first and
        # let the command use it (a PYTHONDONTWRITEBYTECODE environment would otherwise
        # charge every run with compiling the whole program).
        compileall.compile_dir(str(ROOT / "recount_desk"), quiet=1)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        times, cpu = [], []
        for _ in range(args.runs):
            before = rusage.getrusage(rusage.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT, env=env)
            times.append(time.perf_counter() - t)
            after = rusage.getrusage(rusage.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        print(f"   recount-desk report: median {statistics.median(times):5.2f} s "
              f"(range {min(times):.2f}-{max(times):.2f}; goal < 2 s); "
              f"CPU time median {statistics.median(cpu):5.2f} s (what a busy machine "
              "does not inflate as much)")


if __name__ == "__main__":
    main()
