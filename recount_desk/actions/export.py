"""Exporting the contests overview (results and verdicts) to CSV or XLSX, safe to open in Excel."""

from __future__ import annotations

import csv
from pathlib import Path

from recount_desk.formats import export_xlsx

from .case import Case
from .contests import overview

HEADER = ("Contest", "District", "Party", "Choice", "Votes", "Verdict", "Margin",
          "Threshold (votes)", "Basis")
# A spreadsheet treats a cell beginning with one of these as a formula (or DDE command).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class ExportError(Exception):
    """The export could not be written; the message is for the user."""


def neutralise(text: str) -> str:
    """The text with a leading apostrophe when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def result_rows(case: Case) -> list[tuple[str, str, str, str, int, str, int | None, int | None,
                                         str]]:
    """One row per choice of every contest: the votes and the contest's verdict. A county's
    portion of a multicounty or statewide contest has no margin or threshold of its own: the
    whole race decides (20A-4-401(1)(b)), so those cells are left empty."""
    out = []
    for row in overview(case):
        d = row.check.decision
        key = row.check.totals.contest.key
        part = row.check.portion
        for ct in row.check.totals.choices:
            out.append((key.title, key.district, key.party, ct.choice.name, ct.votes,
                        d.verdict.label, None if part else d.margin,
                        None if part else d.threshold, d.basis))
    return out


def export_results(case: Case, path: Path | str) -> Path:
    """Write the contests overview to ``path`` (.csv or .xlsx, chosen by the suffix).

    Text that a spreadsheet would run as a formula (``=HYPERLINK(…)``, ``+cmd|…``) is
    neutralised: CSV cells get a leading apostrophe, XLSX cells are stored as text. The file
    is written beside its destination first, so a failed export never leaves half a file.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise ExportError(f"Choose a .csv or .xlsx file name, not {path.name!r}.")
    rows = result_rows(case)
    part = path.with_name(path.name + ".part")
    try:
        if suffix == ".csv":
            with open(part, "w", newline="", encoding="utf-8-sig") as f:
                w = csv.writer(f)
                w.writerow(HEADER)
                for r in rows:
                    w.writerow([neutralise(v) if isinstance(v, str) else
                                ("" if v is None else v) for v in r])
        else:
            export_xlsx.write_table(part, "Results", HEADER, rows)
        part.replace(path)
    except OSError as e:
        part.unlink(missing_ok=True)
        raise ExportError(f"The results could not be written to {path}: "
                          f"{e.strerror or e}.") from e
    return path
