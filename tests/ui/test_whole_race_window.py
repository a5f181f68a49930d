"""The window on a county's portion of a multicounty or statewide contest: no verdict of a
portion in the table, the scope's source said truly, the district label the table corrects,
and the whole race and the county's part (order, transmittal) recorded from the window."""

from __future__ import annotations

import csv
from datetime import datetime
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from recount_desk.actions import whole_case as wc
from recount_desk.actions.canvass import import_canvass, read_file
from recount_desk.actions.case import open_case
from recount_desk.actions.contests import overview, set_contest_settings
from recount_desk.actions.demo_portion import portion_files, portion_spec
from recount_desk.core.model import Scope
from recount_desk.core.rules import Verdict
from recount_desk.ui.dialogs.whole_race import WholeRaceDialog
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.models import CONTEST_COLUMNS, WHOLE_RACE

from .conftest import SIGNAL_MS


def _grand(window: MainWindow, qtbot: QtBot, folder: Path) -> MainWindow:
    """Grand County's 2018 canvass alone (the bundled portion demo's own file)."""
    from recount_desk.actions.case import create_case

    spec = portion_spec()
    path = folder / "grand.recount"
    with create_case(path, spec.election) as case:
        import_canvass(case, read_file(spec.canvass))
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    return window


def _row(window: MainWindow, label: str) -> int:
    return next(r.id for r in window.rows if r.check.totals.contest.key.label() == label)


def _column(title: str) -> int:
    return next(c for c, col in enumerate(CONTEST_COLUMNS) if col.title.startswith(title))


def test_a_portion_shows_no_winner_margin_or_threshold_of_its_own(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    page = w.contests_page
    m = page.model
    portions = [i for i in range(m.rowCount()) if m.row_at(i).check.portion]  # type: ignore
    assert portions, "Grand's 2018 file holds portions of multicounty and statewide races"
    for i in portions:
        texts = {col.title: m.data(m.index(i, c)) for c, col in enumerate(CONTEST_COLUMNS)}
        assert texts["Winner(s) / result"] == WHOLE_RACE
        for title in ("Closest loser", "Margin", "Margin %", "Threshold"):
            assert texts[title] == "—", title
        assert texts["Verdict"] == Verdict.PORTION.label
        assert "lieutenant governor" in texts["File with"].lower()


def test_grand_s_us_house_row_is_named_for_its_district_not_the_file_s_label(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    labels = [r.check.totals.contest.key.label() for r in w.rows]
    assert "U.S. House — District 3" in labels
    assert "U.S. House — District 1" not in labels
    cid = _row(w, "U.S. House — District 3")
    w.contests_page.select_contest(cid)
    d = w.contests_page.detail
    assert d.title.text() == "U.S. House — District 3"
    assert "district 3" in d.explanation.text().lower()
    assert "district 1" not in d.explanation.text().lower()
    assert "U.S. House — District 1" in d.assumptions.text()  # the file's own label, said


def test_the_scope_s_source_is_said_truly(window: MainWindow, qtbot: QtBot,
                                           tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    assert w.case is not None
    senate = _row(w, "U.S. Senate")
    w.contests_page.select_contest(senate)
    text = w.contests_page.detail.explanation.text()
    assert "A federal or statewide office" in text
    assert "Set by the election officer" not in text
    # The officer sets it to a county race and back: statewide again, from the office, with
    # the officer's agreement said, never the officer alone.
    c = next(r for r in w.rows if r.id == senate).check.totals.contest
    for scope in (Scope.COUNTY, Scope.STATEWIDE):
        set_contest_settings(w.case, senate, seats=c.seats, scope=scope,
                             voting_method=c.voting_method, pass_rule=c.pass_rule)
    w.refresh()
    w.contests_page.select_contest(senate)
    text = w.contests_page.detail.explanation.text()
    assert "A federal or statewide office" in text
    assert "The election officer's setting agrees" in text
    assert "Set by the election officer" not in text


def test_the_whole_race_and_the_county_s_part_from_the_window(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    hd69 = _row(w, "State House — District 69")
    w.contests_page.select_contest(hd69)
    detail = w.contests_page.detail
    assert detail.whole.isVisibleTo(w) and detail.whole.isEnabled()
    with qtbot.waitSignal(detail.whole_race_wanted, timeout=SIGNAL_MS):
        detail.whole.click()
    dlg = next(x for x in w.findChildren(WholeRaceDialog) if x.isVisible())
    qtbot.addWidget(dlg)
    assert "Grand" in dlg.figures.text() and "portion" in dlg.figures.text().lower()
    assert dlg.votes_model.cell(0, 2) == "not known"
    # The transmittal follows the order: refused before it, in words.
    assert not dlg.record_sent_button.isEnabled()
    assert "No recount order" in dlg.order_state.text()
    # The other counties' files combine into the whole race (in a worker).
    with qtbot.waitSignal(dlg.changed, timeout=SIGNAL_MS):
        dlg.combine_files(portion_files()[1:])
    assert "State House — District 69</b>: the whole race" in dlg.combined.text()
    assert "CHRISTINE F WATKINS" in dlg.combined.text()  # a name match to confirm
    watkins = next(i for i in range(dlg.votes_model.rowCount())
                   if dlg.votes_model.cell(i, 0) == "Christine Watkins")
    assert dlg.votes_model.cell(watkins, 2) == 8589
    row = next(r for r in w.rows if r.id == hd69)  # the window shows it at once
    assert not row.check.portion
    assert row.check.decision.verdict is Verdict.NOT_ELIGIBLE
    # The lieutenant governor's order, then the transmittal, typed as a US clerk writes them.
    dlg.ordered_at.edit.selectAll()
    qtbot.keyClicks(dlg.ordered_at.edit, "12/3/2018 9:30 AM")
    dlg.reference.setText("Letter of the Lieutenant Governor, Dec 3, 2018")
    assert dlg.record_order()
    assert "Recount ordered" in dlg.order_state.text()
    assert dlg.record_sent_button.isEnabled()
    dlg.sent_at.edit.selectAll()
    qtbot.keyClicks(dlg.sent_at.edit, "12/10/2018 4:00 PM")
    dlg.how.setText("")
    assert not dlg.record_transmittal()
    assert "Say how the report was sent" in dlg.problem.text()
    dlg.how.setText("Registered mail")
    assert dlg.record_transmittal()
    assert "Sent to the lieutenant governor" in dlg.transmit_state.text()
    assert w.case is not None
    part = wc.county_part(w.case, hd69)
    assert part.ordered is not None and part.ordered["ordered_at"] == "2018-12-03T09:30"
    assert part.transmitted is not None and part.transmitted["how"] == "Registered mail"
    assert part.transmitted["sent_at"] == "2018-12-10T16:00"
    assert not part.declares_winner


def test_the_whole_race_s_official_totals_typed_in_the_window(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    hd69 = _row(w, "State House — District 69")
    dlg = w.open_whole_race(hd69)
    assert dlg is not None
    qtbot.addWidget(dlg)
    dlg.typed["Christine Watkins"].setValue(8589)
    dlg.typed["Tim Glenn"].setValue(3320)
    dlg.source.setText("")
    assert not dlg.record_totals()
    assert "Say where the figures come from" in dlg.problem.text()
    dlg.source.setText("State canvass, Nov 26, 2018")
    assert dlg.record_totals()
    row = next(r for r in w.rows if r.id == hd69)
    assert row.check.decision.verdict is Verdict.NOT_ELIGIBLE
    assert "State canvass, Nov 26, 2018" in dlg.combined.text()
    m = w.contests_page.model
    i = m.row_of(hd69)
    assert m.data(m.index(i, _column("Winner"))) == "Christine Watkins"


def test_export_from_the_window_writes_the_results(window: MainWindow, qtbot: QtBot,
                                                   tmp_path: Path) -> None:
    w = _grand(window, qtbot, tmp_path)
    out = w.export_results(tmp_path / "results.csv")
    assert out == tmp_path / "results.csv"
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["Contest"] for r in rows} >= {"U.S. Senate", "State House"}
    hd69 = [r for r in rows if r["Contest"] == "State House" and r["District"] == "69"]
    assert {r["Choice"]: int(r["Votes"]) for r in hd69}["Tim Glenn"] == 843
    assert all(r["Threshold (votes)"] == "" for r in hd69)  # a portion: the whole race decides
    assert w.export_results(tmp_path / "results") == tmp_path / "results.xlsx"
    assert (tmp_path / "results.xlsx").stat().st_size > 0
    with open_case(w.case.path, readonly=True) as case:  # type: ignore[union-attr]
        assert len(overview(case)) == len(w.rows)


def test_record_order_refused_for_a_race_within_the_county(tmp_path: Path) -> None:
    from recount_desk.actions.case import create_case

    spec = portion_spec()
    with create_case(tmp_path / "g.recount", spec.election) as case:
        import_canvass(case, read_file(spec.canvass))
        row = next(r for r in overview(case)
                   if r.check.totals.contest.key.label() == "State House — District 69")
        c = row.check.totals.contest
        set_contest_settings(case, row.id, seats=c.seats, scope=Scope.COUNTY,
                             voting_method=c.voting_method, pass_rule=c.pass_rule)
        with pytest.raises(wc.WholeRaceRefused, match="lies within the county"):
            wc.record_recount_order(case, row.id, ordered_at=datetime(2018, 12, 3),
                                    reference="x")


def test_a_city_across_a_county_line_in_the_dialog_names_the_citys_canvass(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    # Park City (Summit and Wasatch): the dialog cites the city's canvass, not the state's,
    # and the lieutenant governor's order and transmittal are not offered.
    from datetime import date

    from recount_desk.actions.case import create_case
    from recount_desk.core.model import Election, ElectionKind

    summit = tmp_path / "20231107__ut__municipal__summit__precinct.csv"
    summit.write_text("county,precinct,office,district,party,candidate,votes\n"
                      "Summit,S1,Park City Council,,,Ann Cole,1000\n"
                      "Summit,S1,Park City Council,,,Bo Lund,999\n", encoding="utf-8")
    path = tmp_path / "summit.recount"
    with create_case(path, Election("2023 Municipal General", date(2023, 11, 7),
                                    ElectionKind.MUNICIPAL_GENERAL, "Summit County",
                                    datetime(2023, 11, 21, 10, 0), "Clerk")) as case:
        import_canvass(case, read_file(summit))
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    (row,) = window.rows
    assert row.check.portion
    dlg = window.open_whole_race(row.id)
    assert dlg is not None
    assert "board of municipal canvassers" in dlg.law.text()
    assert "lieutenant governor" not in dlg.law.text()
    assert "the city's canvass" in dlg.typed_box.title()
    assert not dlg.part_box.isEnabled()
    dlg.close()
