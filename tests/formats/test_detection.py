"""Detection: a family never claims more than its MAX_CONFIDENCE, so asking only enough
families to know the best reading (what read_canvass does) finds the same reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, detect, families
from recount_desk.formats.tabular import sniff

DATA = Path(__file__).parent.parent / "data"
FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix.lower() in
               (".csv", ".xlsx", ".xls", ".txt", ".xml", ".zip"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_best_reading_is_found_without_asking_every_family(path: Path) -> None:
    try:
        everyone = detect(path)
    except ImportFailed:
        return  # not a canvass spreadsheet at all: both ways refuse it
    best = detect(path, best_only=True)
    assert best[:1] == everyone[:1]
    kind = sniff(path)
    for mod in families():
        ceiling = getattr(mod, "MAX_CONFIDENCE", None)
        if ceiling is not None:
            claim = mod.detect(path, kind)
            assert claim is None or claim.confidence <= ceiling, (mod.FAMILY, claim)
