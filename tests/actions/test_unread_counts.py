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


def _bad_file(path: Path) -> Path:
    """The demo's canvass with Christensen's count in one HD 32 precinct made '274x': not a
    number (without it Harrison's 5-vote gap became 269)."""
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines)
             if ",State House,32," in line and "Christensen" in line)
    lines[i] += "x"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_unreadable_count_makes_the_close_race_undecidable_not_ineligible(
        tmp_path: Path) -> None:
    bad = _bad_file(tmp_path / "salt_lake.csv")
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

    bad = _bad_file(tmp_path / "20161108__ut__general__salt_lake__precinct.csv")
    result = check_files([bad])
    assert any(i.severity.value == "error" for i in result.issues)
    assert not any(r.check.decision.within_margin or r.check.decision.verdict.value
                   == "not_eligible" for r in result.races)


def test_check_prints_the_reading_error_reason_once_and_names_it(
        tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from recount_desk.cli import main

    bad = _bad_file(tmp_path / "salt_lake.csv")
    main(["check", str(bad), "--date", "2016-11-08"])
    out = capsys.readouterr().out
    assert out.count("Cannot be decided from this file: reading the file found errors") == 1
    # (the county's portions of statewide races say it once too, of their figures)
    assert out.count("These figures cannot be relied on: reading the file found errors") == 1
    assert out.count("(The same reason as for State Senate — District 1.)") >= 3
    assert "hidden or contradictory" not in out
    assert "cannot be decided from this file (why is said under each)" in out


def test_a_race_resting_on_the_state_canvass_keeps_its_verdict_beside_a_county_file_error(
        tmp_path: Path) -> None:
    """The whole-race check: the unreadable count is in a county's file; a race whose
    figures are the state canvass's own does not rest on that file."""
    from recount_desk.actions.whole import check_files

    bad = _bad_file(tmp_path / "20161108__ut__general__salt_lake__precinct.csv")
    state = tmp_path / "state.csv"
    good = DEMO.read_text(encoding="utf-8").splitlines()
    state.write_text("\n".join(good[:1] + [ln for ln in good[1:] if ",State House,32," in ln])
                     + "\n", encoding="utf-8")
    result = check_files([bad], state_canvass=state)
    hd32 = next(r for r in result.races if r.check.totals.contest.key.district == "32"
                and r.check.totals.contest.key.title == "State House")
    others = [r for r in result.races if r is not hd32 and r.check.decision.total > 0
              and r.check.decision.verdict.value not in ("county_portion", "uncontested")]
    assert others and all(r.check.decision.verdict.value == "undecidable" for r in others)
    assert hd32.official
    assert hd32.check.decision.verdict.value == "within_margin"


def _with_disagreeing_copy(path: Path, office: str, district: str) -> Path:
    """The demo's canvass with one row of the contest repeated with one vote more: the reader
    knows whose rows they are."""
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if f",{office},{district}," in line)
    *head, votes = lines[i].split(",")
    lines.insert(i + 1, ",".join([*head, str(int(votes) + 1)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_error_in_one_contests_rows_leaves_the_other_contests_verdicts_standing(
        tmp_path: Path) -> None:
    """Disagreeing duplicate rows are in State House 22's rows only: it has no verdict, every
    other contest keeps its own (HD 32 still within the margin)."""
    good = {c.totals.contest.key: c.decision.verdict for c in check_parsed(read_file(DEMO)).contests}
    result = check_parsed(read_file(_with_disagreeing_copy(tmp_path / DEMO.name, "State House",
                                                           "22")))
    assert any("Duplicate rows disagree" in str(i) for i in result.issues)
    got = {c.totals.contest.key: c.decision.verdict for c in result.contests}
    hd22 = next(k for k in got if k.title == "State House" and k.district == "22")
    assert got[hd22] is Verdict.UNDECIDABLE
    assert _hd32(result).decision.verdict is Verdict.WITHIN_MARGIN
    assert {k: v for k, v in got.items() if k != hd22} == \
        {k: v for k, v in good.items() if k != hd22}


def test_an_error_in_the_close_races_own_rows_leaves_it_without_a_verdict(
        tmp_path: Path) -> None:
    result = check_parsed(read_file(_with_disagreeing_copy(tmp_path / DEMO.name, "State House",
                                                           "32")))
    assert _hd32(result).decision.verdict is Verdict.UNDECIDABLE
    assert any(c.decision.verdict is not Verdict.UNDECIDABLE for c in result.contests)


def test_which_reading_errors_can_touch_a_contest() -> None:
    from recount_desk.core.model import ContestKey, Issue, Severity
    from recount_desk.core.rules import read_errors_of

    a, b, gone = ContestKey("Mayor"), ContestKey("Council"), ContestKey("Not in the file")
    issues = [Issue("f", "own", contest=a, severity=Severity.ERROR),
              Issue("f", "anyone's", severity=Severity.ERROR),
              Issue("f", "a contest the file does not have", contest=gone,
                    severity=Severity.ERROR),
              Issue("f", "only a warning", contest=b)]
    assert read_errors_of(issues, a, {a, b}) == 3
    assert read_errors_of(issues, b, {a, b}) == 2  # not a's own error, nor the warning


def test_a_contest_undecidable_for_hidden_counts_names_the_unread_count_too(
        tmp_path: Path) -> None:
    """A '*' and a '12 votes' in one race: it cannot be decided for both reasons, and says
    both (the hidden count and the count not read)."""
    p = tmp_path / "kane.csv"
    p.write_text("county,precinct,office,district,party,candidate,votes\n"
                 "Kane,P1,Mayor,,,Ann,12 votes\nKane,P1,Mayor,,,Bob,*\n", encoding="utf-8")
    d = check_parsed(read_file(p)).contests[0].decision
    assert d.verdict is Verdict.UNDECIDABLE
    assert "hidden" in d.explanation
    assert "reading the file found errors" in d.explanation


def test_the_errors_touching_each_contest_are_those_counted_one_contest_at_a_time() -> None:
    """core.rules.errors_touching (the issues gone through once, for a state's file) gives
    each contest what read_errors_of and own_errors_of give it."""
    from hypothesis import given
    from hypothesis import strategies as st

    from recount_desk.core.model import ContestKey, Issue, Severity
    from recount_desk.core.rules import errors_touching, own_errors_of, read_errors_of

    names = [ContestKey("Mayor"), ContestKey("Council", "1"), ContestKey("Council", "2"),
             ContestKey("Not in the file")]
    issue = st.builds(lambda c, sev: Issue("f", "x", contest=c, severity=sev),
                      st.sampled_from([None, *names]), st.sampled_from(list(Severity)))

    @given(st.lists(issue, max_size=12), st.sets(st.sampled_from(names[:3]), min_size=1))
    def same(issues: list[Issue], keys: set[ContestKey]) -> None:
        got = errors_touching(issues, keys)
        assert set(got) == keys
        for k in keys:
            n = read_errors_of(issues, k, keys)
            assert got[k] == (n, n == own_errors_of(issues, k))

    same()
def _grand(path: Path, senate_votes: str) -> Path:
    path.write_text("county,precinct,office,district,party,candidate,votes\n"
                    "Grand,P1,U.S. Senate,,REP,Mike Lee,100\n"
                    f"Grand,P1,U.S. Senate,,DEM,Misty Snow,{senate_votes}\n"
                    "Grand,P2,U.S. Senate,,REP,Mike Lee,90\n"
                    "Grand,P2,U.S. Senate,,DEM,Misty Snow,80\n", encoding="utf-8")
    return path


def test_a_county_portion_beside_a_reading_error_says_its_figures_cannot_be_relied_on(
        tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A statewide race in one county's file is that county's portion: the whole race
    decides (20A-4-401(1)(b)). A count not read leaves it a portion, but its figures are
    said not to be fit to add to the race, in the detail and under its line in `check`."""
    from recount_desk.cli import main

    sound = check_parsed(read_file(_grand(tmp_path / "a.csv", "70"))).contests[0].decision
    assert sound.verdict is Verdict.PORTION and not sound.doubt
    bad = _grand(tmp_path / "b.csv", "7o")
    d = check_parsed(read_file(bad)).contests[0].decision
    assert d.verdict is Verdict.PORTION
    assert d.doubt.startswith("These figures cannot be relied on: reading the file found errors")
    assert d.doubt in d.explanation and "added to the whole race" in d.doubt
    main(["check", str(bad), "--date", "2018-11-06"])
    lines = capsys.readouterr().out.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("U.S. Senate"))
    assert "County portion" in lines[at]
    assert lines[at + 1].strip() == d.doubt
