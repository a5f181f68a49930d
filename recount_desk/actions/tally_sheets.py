"""Print blank tally sheets for a hand count, one per unit of a started recount."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from recount_desk import store
from recount_desk.core.calendar import long_date

from .case import Case
from .recount import RecountError, ensure_started, load_recount
from .report import font_dir


@dataclass(frozen=True)
class TallySheetsResult:
    path: Path
    pages: int


def make_tally_sheets(case: Case, contest_id: int, out_path: Path | str,
                      units: list[str] | None = None) -> TallySheetsResult:
    """Write the tally sheets of a started recount (every unit, or ``units``) to a PDF.

    Printing changes nothing in the case; it is logged (one audit entry) so the record
    shows when blank sheets were issued for which units.
    """
    from recount_desk.report import tally_sheets as ts

    out_path = Path(out_path)
    ctx = load_recount(case, contest_id)
    settings = ensure_started(ctx)
    chosen = [su.unit for su in ctx.stored_units
              if units is None or su.unit.name in set(units)]
    if units is not None:
        unknown = sorted(set(units) - {u.name for u in chosen})
        if unknown:
            raise RecountError(f"{ctx.title} has no unit named {', '.join(unknown)}.")
    if not chosen:
        raise RecountError(f"The recount of {ctx.title} has no unit to print.")
    e = case.election
    doc = ts.TallySheetsDoc(
        e.name, long_date(e.date), e.jurisdiction, ctx.title, settings.method.label,
        ctx.layout, {c.choice.name: c.choice.party for c in ctx.totals.choices},
        tuple(ts.SheetUnit(u.name, u.precincts) for u in chosen), case.path.name)
    blob = ts.render(doc, font_dir())
    tmp = out_path.with_name(out_path.name + ".part")
    try:
        tmp.write_bytes(blob)
        os.replace(tmp, out_path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise RecountError(f"The tally sheets cannot be written to {out_path}: "
                           f"{err.strerror}.") from err
    if not case.readonly:
        with store.transaction(case.conn, case.actor, "print tally sheets") as tx:
            tx.update({"contest_id": contest_id, "contest": ctx.title,
                            "file": out_path.name, "units": [u.name for u in chosen]})
    return TallySheetsResult(out_path, len(chosen))
