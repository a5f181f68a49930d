"""Time the recount report for 3,000 units × 8 choices against a bare reportlab table.

The bare table holds the same cells (unit name, then canvass / recount / change for each
choice) in one Table with a repeated header, default styles, built-in Helvetica.
Goals: the report under 3 s, and at most 1.5 × the bare table.

    python benchmarks/report_pdf.py
"""

from __future__ import annotations

import dataclasses
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "report"))

from report_fixtures import house_69
from reportlab.lib.pagesizes import LETTER
from reportlab.platypus import SimpleDocTemplate, Table

from recount_desk.core.report_model import RecountReport, ReportChoice, Unit
from recount_desk.paths import resource
from recount_desk.report.pdf import register_fonts, render

UNITS, CHOICES = 3000, 8


def big_report() -> RecountReport:
    choices = tuple(ReportChoice(f"Candidate {chr(65 + i)}", "Party") for i in range(CHOICES))
    units = tuple(Unit(f"Precinct {i:04d}", tuple((i * 7 + j) % 900 for j in range(CHOICES)),
                       tuple((i * 7 + j) % 900 + ((i + j) % 53 == 0) for j in range(CHOICES)))
                  for i in range(UNITS))
    return dataclasses.replace(house_69(), choices=choices, units=units)


def bare(report: RecountReport) -> bytes:
    rows = [["Unit", *[f"{c.name} {k}" for c in report.choices
                       for k in ("canvass", "recount", "change")]]]
    for u in report.units:
        row = [u.name]
        for c, r in zip(u.canvass, u.recount, strict=True):
            row += [f"{c:,}", f"{r:,}", f"{r - c:+,}"]
        rows.append(row)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=(LETTER[1] * 2, LETTER[0]), invariant=1)
    doc.build([Table(rows, repeatRows=1)])
    return buf.getvalue()


def best_of(n: int, fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    report = big_report()
    register_fonts(resource("fonts"))  # once per process, as in the app
    ours = best_of(3, lambda: render(report, resource("fonts")))
    base = best_of(3, lambda: bare(report))
    pages = render(report, resource("fonts")).count(b"/Type /Page\n")
    print(f"{UNITS:,} units x {CHOICES} choices")
    print(f"  recount report : {ours:6.2f} s  (goal < 3 s)")
    print(f"  bare table     : {base:6.2f} s")
    print(f"  ratio          : {ours / base:6.2f} x  (goal <= 1.5 x)")
    print(f"  report pages   : {pages}")


if __name__ == "__main__":
    main()
