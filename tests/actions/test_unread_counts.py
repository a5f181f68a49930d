"""One count the reader refuses leaves no verdict standing on the rest (core.rules.unread_counts)."""

from __future__ import annotations

from pathlib import Path

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.rules import Verdict
from recount_desk.paths import resource

DEMO = resource("demo") / "20161108__ut__general__salt_lake__precinct__legislature.csv"


def _hd32(result):  # type: ignore[no-untyped-def]
    return next(c for c in result.contests if c.totals.contest.key.title == "State House"
                and c.totals.contest.key.district == "32")


def test_an_unreadable_count_makes_the_close_race_undecidable_not_ineligible(
        tmp_path: Path) -> None:
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines)
             if ",State House,32," in line and "Christensen" in line)
    lines[i] += "x"  # "274x": not a number; without it Harrison's 5-vote gap became 269
    bad = tmp_path / "salt_lake.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    good = _hd32(check_parsed(read_file(DEMO)))
    assert good.decision.verdict is Verdict.WITHIN_MARGIN
    result = check_parsed(read_file(bad))
    assert any("not a number" in str(i) for i in result.issues)
    d = _hd32(result).decision
    assert d.verdict is Verdict.UNDECIDABLE
    assert "counts that are not numbers" in d.explanation
    assert "On the counts that were read it would be: not eligible" in d.explanation
    assert all(not c.decision.within_margin for c in result.contests)


def test_the_whole_race_check_of_several_files_gives_no_verdict_beside_a_reading_error(
        tmp_path: Path) -> None:
    from recount_desk.actions.whole import check_files

    lines = DEMO.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines)
             if ",State House,32," in line and "Christensen" in line)
    lines[i] += "x"
    bad = tmp_path / "20161108__ut__general__salt_lake__precinct.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = check_files([bad])
    assert any(i.severity.value == "error" for i in result.issues)
    assert not any(r.check.decision.within_margin or r.check.decision.verdict.value
                   == "not_eligible" for r in result.races)
