"""Time loading a 3,000-precinct re-tabulated export against reading the same file as a canvass.

Run: python benchmarks/retab_load.py [--precincts N] [--repeat N]

The script writes a canvass and a recount export of one race over N precincts (long CSV,
OpenElections columns; the recount differs by one vote in a few precincts), builds a case
holding the canvass with the race's recount started, then times, interleaved run by run:

* baseline: ``actions.canvass.read_file`` of the recount export (reading it as a canvass);
* ours: the whole load — reading it with ``actions.retab.read_retab_file``, ``preview_load``
  (match, plan, compare) and ``load_retab`` (the one audited write, with the check of the
  case against its log before it and the state digest after it) — on a fresh copy of the
  case each run, opened before the clock starts.

The case is made, and the work copies are opened, with a data folder of the benchmark's own
(``RECOUNT_DESK_DATA``): the case was closed here, so opening it finds its image among those
checked here (store/checked.py) and takes that check (``store.take_known_check``) — as when
an officer opens again a case last closed on the same workstation; the window also takes,
once its background check has found a case sound, the check of a case last closed elsewhere
— and the load's own check before it writes is then two queries.

Beside them, for scale: importing the same file as the canvass of a new case (read, then the
one audited write of the import), which also stores the file's rows and checks and records
the state digest; the whole load when the check is not taken at opening (the first write
hashes the image itself and finds it checked: what this cost before the opening took it);
and the whole load on a case whose image was never checked here (a file from another
workstation, or changed since: the full check runs).

Each run times both back to back, the order swapped every run; the figures are the medians,
and the ratio is the median of the runs' ratios (benchmarks/interleave.py). Goal (issue 15):
the whole load at most 2x the read.

Last, the same recount as the tabulator's own statement of votes cast — an ES&S SOVC workbook
in the layout of Salt Lake County's real House 32 recount statement, six rows a precinct
(``write_sovc``) — timed the same way (``--repeat-sovc``): the family Utah's re-tabulated
statements come in. The long CSV above is the harder case for the ratio (the fastest file to
read, so what the load adds weighs most), and its figure is the headline.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's recount_desk

CANDIDATES = ("Ada Lovelace", "Ben Franklin", "Cy Young")


def write_files(folder: Path, n: int) -> tuple[Path, Path]:
    header = "county,precinct,office,district,party,candidate,votes\n"
    canvass, recount = [header], [header]
    for i in range(n):
        p = f"P{i:05d}"
        for j, c in enumerate(CANDIDATES):
            v = (i * 7 + j * 13) % 400 + 10
            canvass.append(f"Sample,{p},State House,7,,{c},{v}\n")
            recount.append(f"Sample,{p},STATE REPRESENTATIVE DIST #7,,,{c.upper()},"
                           f"{v + (1 if i % 97 == 0 and j == 0 else 0)}\n")
    a, b = folder / "canvass.csv", folder / "recount.csv"
    a.write_text("".join(canvass), encoding="utf-8")
    b.write_text("".join(recount), encoding="utf-8")
    return a, b


_TYPES = ("Polling", "Vote Centers", "Vote By Mail", "Early Voting", "In-Office")


def write_sovc(folder: Path, n: int) -> Path:
    """The same recount as the tabulator's statement of votes cast: an ES&S SOVC workbook
    laid out as Salt Lake County's real House 32 recount statement (tests/data/retab): a
    table of contents, then the contest's sheet, six rows a precinct (five vote types and
    the total), each candidate's votes with their share beside them."""
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    toc = wb.create_sheet("TOC")
    title = "STATE REPRESENTATIVE DIST #7"
    for row in ([], [None, "Statement of Votes Cast"], [None, "State House 7 Recount"],
                [None, "December 5th, 2024"], [None, "Sample County, UT"], [], [],
                [None, "Table of Contents"], [None, "●", title]):
        toc.append(row)
    ws = wb.create_sheet(title)
    for row in ([], [None, "Statement of Votes Cast"], [None, "2024 General Election"],
                [None, "November 5th, 2024"], [None, "Sample County, UT"], [], [None, title],
                [None, "Table of Contents"]):
        ws.append(row)
    head: list[object] = [None, "Precinct", "Type", "Reg. Voters", "Cards Cast",
                          "Total Votes"]
    for c in CANDIDATES:
        head += [f"{c.upper()} (NP)", None]
    ws.append(head)
    for i in range(n):
        p = f"P{i:05d}"
        total = [(i * 7 + j * 13) % 400 + 10 + (1 if i % 97 == 0 and j == 0 else 0)
                 for j in range(len(CANDIDATES))]
        parts = [[v // 5 + (v % 5 if k == 4 else 0) for v in total] for k in range(5)]
        for kind, votes in (*zip(_TYPES, parts, strict=True), ("Total", total)):
            cast = sum(votes)
            row: list[object] = [None, p, kind, 900, cast, cast]
            for v in votes:
                row += [v, (v / cast) if cast else None]
            ws.append(row)
    path = folder / "recount-sovc.xlsx"
    wb.save(path)
    return path


def make_case(folder: Path, canvass: Path) -> tuple[Path, int]:
    from recount_desk.actions import canvass as canvass_actions
    from recount_desk.actions import recount as rc
    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind
    from recount_desk.core.recount import RecountMethod
    from recount_desk.store import repo

    path = folder / "bench.recount"
    with create_case(path, Election("Bench", date(2024, 11, 5), ElectionKind.GENERAL,
                                    "Sample County", datetime(2024, 11, 19, 10, 0)),
                     actor="bench") as case:
        canvass_actions.import_canvass(case, canvass_actions.read_file(canvass))
        cid = repo.contests(case.conn)[0].id
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION)
    return path, cid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--precincts", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--repeat-sovc", type=int, default=5,
                    help="runs of the SOVC workbook's figure (0: leave it out)")
    args = ap.parse_args()

    from recount_desk.actions import retab
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case, open_case
    from recount_desk.core.model import Election, ElectionKind

    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        os.environ["RECOUNT_DESK_DATA"] = str(folder / "data")  # before the case is made
        canvass, recount = write_files(folder, args.precincts)
        case_path, cid = make_case(folder, canvass)
        work = folder / "work.recount"

        def baseline(source: Path = recount) -> float:
            t = time.perf_counter()
            read_file(source)
            return time.perf_counter() - t

        def ours(untaken: bool = False, unknown: bool = False, source: Path = recount
                 ) -> tuple[float, float, float]:
            # (unknown: a data folder that never saw the case: the full check runs)
            os.environ["RECOUNT_DESK_DATA"] = str(folder / ("elsewhere" if unknown else "data"))
            shutil.rmtree(folder / "elsewhere", ignore_errors=True)
            for suffix in ("-wal", "-shm"):
                Path(str(work) + suffix).unlink(missing_ok=True)
            shutil.copy(case_path, work)
            with open_case(work, actor="bench") as case:
                if untaken:  # as if the opening had not taken the known check
                    case.conn.verified = case.conn.sums = None  # type: ignore[attr-defined]
                t0 = time.perf_counter()
                f = retab.read_retab_file(source)
                t1 = time.perf_counter()
                preview = retab.preview_load(case, cid, f)
                t2 = time.perf_counter()
                res = retab.load_retab(case, preview)
                t3 = time.perf_counter()
            assert res.loaded == args.precincts, res
            return t1 - t0, t2 - t1, t3 - t2

        def as_canvass(k: int) -> float:
            path = folder / f"canvass-{k}.recount"
            with create_case(path, Election("Bench", date(2024, 11, 5), ElectionKind.GENERAL,
                                            "Sample County", datetime(2024, 11, 19, 10, 0)),
                             actor="bench") as case:
                t = time.perf_counter()
                import_canvass(case, read_file(recount))
                return time.perf_counter() - t

        baseline()
        ours()  # warm imports and caches
        imports = [as_canvass(k) for k in range(3)]
        untaken = [sum(ours(untaken=True)) for _ in range(3)]
        unknown = [sum(ours(unknown=True)) for _ in range(3)]

        def interleaved(runs: int, source: Path) -> tuple[list[float],
                                                           list[tuple[float, float, float]]]:
            base: list[float] = []
            mine: list[tuple[float, float, float]] = []
            for k in range(runs):  # interleaved, the order swapped every run
                if k % 2:
                    mine.append(ours(source=source))
                    base.append(baseline(source))
                else:
                    base.append(baseline(source))
                    mine.append(ours(source=source))
            return base, mine

        base, mine = interleaved(args.repeat, recount)

        def med(xs: list[float]) -> float:
            return statistics.median(xs)

        def ratio(part: list[float], against: list[float] = base) -> float:
            return med([o / b for o, b in zip(part, against, strict=True)])

        read = [m[0] for m in mine]
        prev = [m[1] for m in mine]
        write = [m[2] for m in mine]
        whole = [sum(m) for m in mine]
        before = [m[0] + m[1] for m in mine]
        print(f"{args.precincts:,} precincts × {len(CANDIDATES)} candidates "
              f"({recount.stat().st_size / 1e3:,.0f} kB); {args.repeat} runs interleaved, "
              "medians; ratio = median of the runs' ratios")
        print(f"read as a canvass (baseline):      {med(base) * 1000:8.1f} ms")
        print(f"the whole load (read+compare+write):{med(whole) * 1000:7.1f} ms   ratio "
              f"{ratio(whole):.2f}x (goal: at most 2x)")
        print(f"  read the export (retab reader):  {med(read) * 1000:8.1f} ms   ratio "
              f"{ratio(read):.2f}x")
        print(f"  match and compare (the preview): {med(prev) * 1000:8.1f} ms   ratio "
              f"{ratio(prev):.2f}x")
        print(f"  read + preview (before confirm): {med(before) * 1000:8.1f} ms   ratio "
              f"{ratio(before):.2f}x")
        print(f"  the one audited write:           {med(write) * 1000:8.1f} ms   ratio "
              f"{ratio(write):.2f}x (the check against the log before it, the state digest "
              "and the commit's fsyncs)")
        print(f"for scale: the file imported as a new case's canvass: {med(imports) * 1000:.1f} "
              f"ms (the whole load is {med(whole) / med(imports):.2f}x that; medians of 3, not "
              "interleaved)")
        print(f"for scale: the whole load when the opening has not taken the known check "
              f"(the first write hashes the image and finds it checked here): "
              f"{med(untaken) * 1000:.1f} ms, {med(untaken) / med(base):.2f}x the read's "
              "median (median of 3, not interleaved)")
        print(f"for scale: the whole load on a case never checked here (the full check "
              f"runs): {med(unknown) * 1000:.1f} ms, {med(unknown) / med(base):.2f}x the "
              "read's median (median of 3, not interleaved)")
        if args.repeat_sovc:
            # The same recount as the tabulator prints it: the family Utah's re-tabulated
            # statements come in (Salt Lake County's real one is such a workbook).
            sovc = write_sovc(folder, args.precincts)
            baseline(sovc)
            ours(source=sovc)
            sbase, smine = interleaved(args.repeat_sovc, sovc)
            swhole = [sum(m) for m in smine]
            print(f"the same recount as the tabulator's SOVC workbook ({sovc.stat().st_size / 1e3:,.0f} "
                  f"kB, six rows a precinct; {args.repeat_sovc} runs interleaved): read as a "
                  f"canvass {med(sbase) * 1000:.0f} ms, the whole load "
                  f"{med(swhole) * 1000:.0f} ms, ratio {ratio(swhole, sbase):.2f}x (the read "
                  f"{med([m[0] for m in smine]) * 1000:.0f} ms, the preview "
                  f"{med([m[1] for m in smine]) * 1000:.0f}, the write "
                  f"{med([m[2] for m in smine]) * 1000:.0f})")


if __name__ == "__main__":
    main()
