"""The window a clerk can trust: nothing of another case shows, every view is current after
an action, undo undoes the last action, nothing typed is lost on quit or switch."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QDate, QEvent, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QDateTimeEdit,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from recount_desk.actions import contests as contest_actions
from recount_desk.actions import recount as rc
from recount_desk.actions.case import open_case
from recount_desk.core.model import ContestKind
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS, make_case
from .test_recount_pages import grand  # noqa: F401 - the fixture


def texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """Every text a widget under ``root`` shows or holds, with where it is."""
    for w in [root, *root.findChildren(QWidget)]:
        where = f"{type(w).__name__} {w.accessibleName() or w.objectName()}"
        yield where, w.windowTitle()
        yield where, w.toolTip()
        if isinstance(w, QLabel | QAbstractButton):
            yield where, w.text()
        if isinstance(w, QLineEdit):
            yield where, w.text()
            yield where, w.placeholderText()
        if isinstance(w, QPlainTextEdit):
            yield where, w.toPlainText()
            yield where, w.placeholderText()
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                yield where, w.itemText(i)
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield where, w.tabText(i)
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            for r in range(m.rowCount()):
                for c in range(m.columnCount()):
                    yield where, str(m.index(r, c).data() or "")
            for c in range(m.columnCount()):
                yield where, str(m.headerData(c, Qt.Orientation.Horizontal) or "")


def first_case_marks(path: Path) -> tuple[set[str], int]:
    """What only the first case holds: names, places, contests, precincts, people, notes;
    and the year of its election."""
    marks: set[str] = set()
    with open_case(path) as case:
        e = case.election
        marks |= {e.name, e.jurisdiction, e.officer}
        for row in contest_actions.overview(case):
            t = row.check.totals
            marks.add(t.contest.key.label())
            marks |= {ch.choice.name for ch in t.choices}
            marks |= set(contest_actions.precinct_table(case, row.id)[0])
            st = rc.recount_state(case, row.id)
            if st.settings is None:
                continue
            marks |= {m.name for m in st.board.members}
            if st.board.convening is not None:
                marks.add(st.board.convening.place)
            for u in st.units:
                marks |= {x for x in (u.first_officer, u.second_officer, u.variance_note) if x}
            marks |= {w.name for w in rc.witnesses(case, row.id)}
            for v in rc.envelope_list(case, row.id):
                marks |= {v.record.envelope_id, v.record.original_reason, v.checked_by,
                          v.check_note}
            if st.declaration is not None:
                marks |= {st.declaration.text, st.declaration.declared_by}
        year = e.date.year
    return {m for m in marks if m and len(m) >= 5}, year


def test_a_new_case_opened_after_the_demo_shows_nothing_of_the_demo(
        demo: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    assert demo.case is not None
    demo_path = demo.case.path
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    for key in page.panels:  # every panel shown and filled from the demo
        page.show_panel(key)
    # What a clerk might have typed and left in the fields.
    page.tally.officer.setText(page.state.units[0].first_officer or "x")  # type: ignore[union-attr]
    page.board.place.setText(page.state.board.convening.place)  # type: ignore[union-attr]
    marks, year = first_case_marks(demo_path)
    assert len(marks) > 30  # the demo holds a whole recount: the test can fail
    shown = {t for _w, t in texts(demo)}
    assert any(m in t for m in marks for t in shown)  # and the walk sees what is shown

    demo.settings.setValue("lastFolder", str(tmp_path))
    dlg = demo.new_case()
    assert dlg is not None
    qtbot.keyClicks(dlg.name, "2030 Municipal Primary")
    qtbot.keyClicks(dlg.jurisdiction, "Elsewhere Town")
    dlg.date.setDate(QDate(2030, 8, 13))
    with qtbot.waitSignal(demo.case_opened, timeout=SIGNAL_MS):
        dlg.create.click()
    # The demo's pages, hidden, are deleted piece by piece once the new case is shown.
    qtbot.waitUntil(lambda: not demo.discarding, timeout=SIGNAL_MS)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert demo.case is not None and demo.case.path != demo_path

    found = [(w, t) for w, t in texts(demo) for m in marks if t and m in t]
    assert found == []
    for d in demo.findChildren(QDateTimeEdit):
        assert d.date().year() != year, d.accessibleName()
    assert demo.recount_page.state is None
    assert demo.recount_page.tally.officer.text() == ""
    assert demo.undo_stack.count() == 0


def _signable(window: MainWindow, qtbot: QtBot) -> None:
    """The demo's recount is declared and the board convened: only the signing is left."""
    page = window.recount_page
    assert page.state is not None and page.state.declaration is not None
    assert page.state.signing is None and page.declare.sign_button.isEnabled()
    assert not page.declare.reopen_button.isEnabled()


def test_recording_the_signing_in_the_report_dialog_shows_at_once_everywhere(
        demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    dlg = demo.open_report()
    assert dlg is not None
    with qtbot.waitSignal(dlg.report_generated, timeout=SIGNAL_MS):
        dlg.generate_button.click()
    cid = dlg.contest_id()
    assert cid is not None
    page.select_contest(cid)
    _signable(demo, qtbot)
    with qtbot.waitSignal(dlg.signing_recorded, timeout=SIGNAL_MS):
        dlg.sign(datetime(2018, 12, 3, 10, 0), ["Evelyn Marsh", "Nora Ashby"])
    dlg.close()
    # The Recount page, its checklist and the menus say it, without F5 or a restart.
    assert page.state is not None and page.state.signing is not None
    assert page.lock.isVisibleTo(page) and "Locked" in page.lock.text()
    assert not page.declare.sign_button.isEnabled()
    assert page.declare.reopen_button.isEnabled()
    assert "Signed" in page.declare.signing.text()
    signed = next(lab for lab in page.checklist.labels
                  if lab.accessibleName().startswith("Report signed"))
    assert signed.accessibleName().endswith(": done")
    assert "signing the report" in demo.act_undo.text()


def _contest_with_units(window: MainWindow) -> int:
    assert window.case is not None
    for r in window.rows:
        if r.check.decision.within_margin and r.check.totals.contest.kind is ContestKind.RACE:
            return r.id
    raise LookupError("no race within the margin")


def _type_sheet(qtbot: QtBot, window: MainWindow, values: list[int]) -> None:
    tally = window.recount_page.tally
    for f, v in zip(tally.fields.values(), values, strict=False):
        f.setText(str(v))


def test_undo_undoes_the_last_action_says_which_and_redo_redoes_it(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import add_person
    from recount_desk.core.people import Role
    from recount_desk.core.recount import EntryMode, RecountMethod

    from .test_recount_pages import GRAND, _hd69

    path = make_case(tmp_path, name="Grand 2018 undo")
    with open_case(path) as case:
        add_person(case, "Ann First", Role.DEPUTY)
        add_person(case, "Bo Second", Role.DEPUTY)
        import_canvass(case, read_file(GRAND))
        cid = _hd69(case)
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.DOUBLE)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    page.select_contest(cid)
    page.show_panel("tally")
    tally = page.tally
    a, b = (u.name for u in page.state.units[:2])  # type: ignore[union-attr]
    n = len(tally.fields)

    def enter(unit: str, entry: int, officer: str, value: int) -> None:
        tally.show_entry(unit, entry)
        tally.officer.setText(officer)
        for f in tally.fields.values():
            f.setText(str(value))
        with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
            tally.save()
            if tally.note.isVisible():  # the sheet check fails on these numbers
                tally.note.setText("test sheet")
                tally.save()

    enter(a, 1, "Ann First", 1)
    enter(b, 1, "Ann First", 2)
    assert window.act_undo.text() == f"&Undo entry 1 of {b}"
    window.act_undo.trigger()
    assert f"Undone: entry 1 of {b}" in window.statusBar().currentMessage()
    assert rc.entry_of(window.case, cid, b, 1) is not None  # type: ignore[arg-type]
    assert rc.entry_of(window.case, cid, b, 1).sheet.missing(page.state.layout)  # type: ignore
    assert rc.entry_of(window.case, cid, a, 1) is not None  # type: ignore[arg-type]
    assert window.act_redo.text() == f"&Redo entry 1 of {b}"
    window.act_redo.trigger()
    assert f"Redone: entry 1 of {b}" in window.statusBar().currentMessage()
    got = rc.entry_of(window.case, cid, b, 1)  # type: ignore[arg-type]
    assert got is not None and not got.sheet.missing(page.state.layout)  # type: ignore
    # An action that cannot be undone here ends what Ctrl+Z can reach: it never reaches
    # past it to an older entry, and it says why.
    page.variance.show_state(page.state)
    assert page.act("note", rc.set_variance_note, a, "a note") is True
    assert not window.undo_stack.canUndo()
    assert "not possible for writing a variance note" in window.act_undo.text()
    window.act_undo.trigger()
    assert "cannot be undone" in window.statusBar().currentMessage()
    got_a = rc.entry_of(window.case, cid, a, 1)  # type: ignore[arg-type]
    assert got_a is not None and got_a.sheet.value(next(iter(tally.fields))) == 1
    # A new entry is undoable again, and undo then takes it back only.
    enter(b, 2, "Bo Second", 2)
    assert window.act_undo.text() == f"&Undo entry 2 of {b}"
    window.act_undo.trigger()
    assert rc.entry_of(window.case, cid, b, 2).sheet.missing(page.state.layout)  # type: ignore
    assert n > 0


def _half_typed(window: MainWindow, qtbot: QtBot) -> tuple[str, str]:
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    st = page.state
    assert st is not None
    if st.settings is None or st.signing is not None:
        raise AssertionError("the contest should be recounted and not signed")
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None
    first = next(iter(tally.fields.values()))
    first.setText("98765")
    return unit, str(tally.number())


def test_quitting_with_a_half_typed_sheet_asks_and_nothing_typed_is_lost(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    from .test_recount_pages import _start

    demo, _cid = grand  # a hand-entered recount (the demo's is loaded from the tabulators)
    _start(qtbot, demo.recount_page)
    demo.recount_page.tally.officer.setText("Dana Whitlock")  # a deputy of the roster
    unit, _n = _half_typed(demo, qtbot)
    answers = [QMessageBox.StandardButton.Cancel]
    demo.ask_unsaved = lambda text: (demo.asked.append(("unsaved", text)),  # type: ignore
                                     answers.pop(0))[1]
    assert not demo.close()  # Cancel: the window stays, the numbers are still there
    assert demo.isVisible()
    assert demo.asked[-1][0] == "unsaved" and unit in demo.asked[-1][1]
    assert next(iter(demo.recount_page.tally.fields.values())).text() == "98765"
    # Switching case asks too, and Cancel keeps the case and the sheet.
    answers.append(QMessageBox.StandardButton.Cancel)
    before = demo.case
    demo.open_demo()
    assert demo.case is before
    assert next(iter(demo.recount_page.tally.fields.values())).text() == "98765"
    # Save: the sheet is saved, then the window closes.
    answers.append(QMessageBox.StandardButton.Save)
    tally = demo.recount_page.tally
    tally.note.setText("")
    cid, n = demo.recount_page.contest_id, tally.number()
    path = demo.case.path  # type: ignore[union-attr]
    closed = demo.close()
    if not closed:  # the sheet's check asked for a note: the window stays, nothing lost
        assert next(iter(tally.fields.values())).text() == "98765"
        tally.note.setText("typed before quitting")
        answers.append(QMessageBox.StandardButton.Save)
        assert demo.close()
    with open_case(path) as case:
        got = rc.entry_of(case, cid, unit, n)  # type: ignore[arg-type]
    assert got is not None and 98765 in [got.sheet.value(k) for k in tally.fields]


def test_declare_remove_member_reopen_and_start_without_request_ask_first(
        demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    said_no: list[str] = []

    def no(title: str, text: str) -> bool:
        said_no.append(title)
        return False

    demo.confirm = no  # type: ignore[method-assign]
    st = page.state
    assert st is not None and st.declaration is not None
    declared_at = st.declaration.declared_at
    page.declare.declare()
    assert said_no[-1] == "Declare the result"
    assert page.state.declaration.declared_at == declared_at  # type: ignore[union-attr]
    members = len(page.state.board.members)  # type: ignore[union-attr]
    page.board.view.selectRow(0)
    page.board.remove()
    assert said_no[-1] == "Remove a board member"
    assert len(page.state.board.members) == members  # type: ignore[union-attr]
    page.declare.reopen_reason.setText("a reason")
    page.declare.reopen()  # not signed: refused anyway, but asked first
    assert said_no[-1] == "Reopen the signed contest"
    # A contest with no request: starting its recount says so.
    other = next(r.id for r in demo.rows if r.id != page.contest_id and not r.requests)
    page.select_contest(other)
    page.start.start()
    assert said_no[-1] == "No recount request is recorded"
    assert page.state is not None and page.state.settings is None


def test_mid_recount_variance_sets_counted_units_against_their_own_canvass(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet

    from .test_recount_pages import GLENN, GRAND, RECOUNT, WATKINS, _hd69

    path = make_case(tmp_path, name="Grand 2018 variance")
    unit = next(iter(RECOUNT))
    w, g, wi, over, under, ballots = RECOUNT[unit]
    with open_case(path) as case:
        from recount_desk.actions.case import add_person
        from recount_desk.core.people import Role

        add_person(case, "Ann First", Role.DEPUTY)
        add_person(case, "Bo Second", Role.DEPUTY)
        import_canvass(case, read_file(GRAND))
        cid = _hd69(case)
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.DOUBLE)
        for n, who in ((1, "Ann First"), (2, "Bo Second")):
            rc.enter_tally(case, cid, unit, entry=n, officer=who,
                           sheet=TallySheet(ballots, {WATKINS: w, GLENN: g}, wi, over, under))
        vt = rc.variance(case, cid)
        canvass = next(r.canvass for r in vt.rows if r.unit == unit)
    assert vt.units_counted == 1 and not vt.complete
    assert dict(vt.change_total) == {WATKINS: w - canvass[WATKINS], GLENN: g - canvass[GLENN]}
    assert dict(vt.counted_canvass_total) == dict(canvass)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    page.select_contest(cid)
    text = page.variance.summary.text()
    left = len(vt.rows) - 1
    assert f"{left} of {len(vt.rows)} units not counted yet" in text
    assert f"{WATKINS} {w - canvass[WATKINS]:+,}" in text
    m = page.variance.model
    labels = [m.cell(r, 0) for r in range(m.rowCount())]
    assert "Counted units (1)" in labels and f"Not counted yet ({left})" in labels


def test_f8_opens_the_next_unit_awaiting_its_second_entry_and_a_mismatch_shows_in_the_form(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet

    from .test_recount_pages import GLENN, GRAND, RECOUNT, WATKINS, _hd69

    path = make_case(tmp_path, name="Grand 2018 second entry")
    units = list(RECOUNT)
    with open_case(path) as case:
        from recount_desk.actions.case import add_person
        from recount_desk.core.people import Role

        add_person(case, "Ann First", Role.DEPUTY)
        add_person(case, "Bo Second", Role.DEPUTY)
        import_canvass(case, read_file(GRAND))
        cid = _hd69(case)
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.DOUBLE)
        for unit in units[2:4]:  # the first two units are not started
            w, g, wi, over, under, ballots = RECOUNT[unit]
            rc.enter_tally(case, cid, unit, entry=1, officer="Ann First",
                           sheet=TallySheet(ballots, {WATKINS: w, GLENN: g}, wi, over, under))
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    page.select_contest(cid)
    page.show_panel("tally")
    tally = page.tally
    assert tally.current_unit() == units[0]
    tally.officer.setFocus()
    qtbot.keyClick(tally.officer, Qt.Key.Key_F8)
    assert tally.number() == 2
    assert tally.current_unit() == units[2]  # not the first unit, which is not started
    # A second entry that differs: the form says so in words, where the officer looks.
    tally.officer.setText("Bo Second")
    w, g, wi, over, under, ballots = RECOUNT[units[2]]
    first = rc.entry_of(window.case, cid, units[2], 1)  # type: ignore[arg-type]
    assert first is not None
    for k, f in tally.fields.items():
        v = first.sheet.value(k)
        f.setText(str(v))
    key = next(k for k in tally.fields if k.startswith("votes:"))
    tally.fields[key].setText(str(int(tally.fields[key].text()) + 1))
    tally.fields[next(iter(tally.fields))].setText(str(ballots + 1))
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        tally.save()
        if not tally.note.isHidden():
            tally.note.setText("re-read")
            tally.save()
    assert "entries differ" in tally.result.text()
    assert "Differences" in tally.result.text()
    assert tally.current_unit() == units[3]  # moved on to the next awaiting its second


def test_a_new_case_leads_to_the_import_and_help_has_a_getting_started_guide(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.settings.setValue("lastFolder", str(tmp_path))
    dlg = window.new_case()
    assert dlg is not None
    qtbot.keyClicks(dlg.name, "2030 General")
    qtbot.keyClicks(dlg.jurisdiction, "Sample County")
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        dlg.create.click()
    page = window.contests_page
    assert window.tabs.currentWidget() is page
    assert page.import_button.isVisible()
    qtbot.waitUntil(lambda: window.focusWidget() is page.import_button, timeout=SIGNAL_MS)
    assert "import the canvass" in window.statusBar().currentMessage()
    guide = window.show_getting_started()
    text = guide.browser.toPlainText()
    assert "Import the canvass" in text and "F8" in text
    assert guide.browser.accessibleName() == "Getting started"
    guide.close()
    assert window.act_guide in window.menuBar().actions()[-1].menu().actions()


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform's
def test_a_whole_scripted_recount_raises_nothing_and_logs_no_qt_warning(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:  # noqa: F811
    # pytest-qt fails the test on an exception raised in any slot or event handler, and
    # these marks on any Qt warning.
    from .test_recount_pages import (
        test_a_whole_recount_by_keyboard_double_entry_to_signed_and_locked as whole,
    )

    whole(grand, qtbot)
    window, _cid = grand
    assert window.recount_page.state is not None  # the recount ran to its end


def test_the_window_opens_within_the_screen_and_the_status_bar_names_the_law_as_the_pane(
        demo: MainWindow, settings: object) -> None:
    fresh = MainWindow(settings)  # type: ignore[arg-type]
    free = fresh.screen().availableGeometry()
    assert fresh.width() <= free.width() and fresh.height() <= free.height()
    fresh.close()
    assert demo.case is not None
    law = demo.case.edition.label.split(" (")[0]
    assert law in demo.status_case.text()
    assert law in demo.contests_page.detail.edition.text()


def _grand_recount(window: MainWindow, qtbot: QtBot, tmp_path: Path, name: str) -> int:
    """A Grand 2018 case, two deputies, State House 69's double-entry recount started,
    open in ``window``; returns the contest's id."""
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import add_person
    from recount_desk.core.people import Role
    from recount_desk.core.recount import EntryMode, RecountMethod

    from .test_recount_pages import GRAND, _hd69

    path = make_case(tmp_path, name=name)
    with open_case(path) as case:
        add_person(case, "Ann First", Role.DEPUTY)
        add_person(case, "Bo Second", Role.DEPUTY)
        import_canvass(case, read_file(GRAND))
        cid = _hd69(case)
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.DOUBLE)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    return cid


def test_undo_and_redo_walk_a_mixed_sequence_of_actions_in_order(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from recount_desk.actions.wizard import ContestSettings

    cid = _grand_recount(window, qtbot, tmp_path, "Grand 2018 mixed undo")
    other = next(r.id for r in window.rows if r.id != cid
                 and r.check.totals.contest.kind is ContestKind.RACE)
    label = next(r for r in window.rows if r.id == other).check.totals.contest.key.label()
    page = window.recount_page
    tally = page.tally

    def seats() -> int:
        return next(r for r in window.rows if r.id == other).check.totals.contest.seats

    def set_seats(n: int) -> None:  # as the Contests page's Apply does
        c = next(r for r in window.rows if r.id == other).check.totals.contest
        before = ContestSettings(c.seats, c.scope, c.voting_method, c.pass_rule)
        after = ContestSettings(n, c.scope, c.voting_method, c.pass_rule)
        with qtbot.waitSignal(window.settings_applied, timeout=SIGNAL_MS):
            window.contests_page.detail.settings_requested.emit(other, before, after)

    def enter(unit: str, value: int) -> None:
        window.tabs.setCurrentWidget(page)
        page.select_contest(cid)
        page.show_panel("tally")
        tally.show_entry(unit, 1)
        tally.officer.setText("Ann First")
        for f in tally.fields.values():
            f.setText(str(value))
        with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
            tally.save()
            if tally.note.isVisible():  # the sheet check fails on these numbers
                tally.note.setText("test sheet")
                tally.save()

    def entered(unit: str) -> bool:
        got = rc.entry_of(window.case, cid, unit, 1)  # type: ignore[arg-type]
        return got is not None and not got.sheet.missing(page.state.layout)  # type: ignore

    window.tabs.setCurrentWidget(page)
    page.select_contest(cid)
    a, b = (u.name for u in page.state.units[:2])  # type: ignore[union-attr]
    start = seats()
    set_seats(start + 1)
    enter(a, 1)
    set_seats(start + 2)
    enter(b, 2)
    # What each step back shows, last first: (the Undo item before it, the state after it).
    steps = [(f"entry 1 of {b}", lambda: not entered(b) and seats() == start + 2),
             (f"settings of {label}", lambda: seats() == start + 1 and entered(a)),
             (f"entry 1 of {a}", lambda: not entered(a) and seats() == start + 1),
             (f"settings of {label}", lambda: seats() == start and not entered(b))]
    for what, after in steps:
        assert window.act_undo.text() == f"&Undo {what}"
        if what.startswith("settings"):
            with qtbot.waitSignal(window.settings_applied, timeout=SIGNAL_MS):
                window.act_undo.trigger()
        else:
            window.act_undo.trigger()
        assert f"Undone: {what}" in window.statusBar().currentMessage()
        assert after(), what
    assert not window.undo_stack.canUndo()
    # And forward again, first first.
    forward = [(f"settings of {label}", lambda: seats() == start + 1 and not entered(a)),
               (f"entry 1 of {a}", lambda: entered(a) and seats() == start + 1),
               (f"settings of {label}", lambda: seats() == start + 2 and not entered(b)),
               (f"entry 1 of {b}", lambda: entered(b) and seats() == start + 2)]
    for what, after in forward:
        assert window.act_redo.text() == f"&Redo {what}"
        if what.startswith("settings"):
            with qtbot.waitSignal(window.settings_applied, timeout=SIGNAL_MS):
                window.act_redo.trigger()
        else:
            window.act_redo.trigger()
        assert f"Redone: {what}" in window.statusBar().currentMessage()
        assert after(), what
    assert not window.undo_stack.canRedo()


def test_switching_case_with_a_half_typed_sheet_saves_it_when_asked_to(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    cid = _grand_recount(window, qtbot, tmp_path, "Grand 2018 switch")
    page = window.recount_page
    window.tabs.setCurrentWidget(page)
    page.select_contest(cid)
    page.show_panel("tally")
    page.tally.officer.setText("Ann First")
    unit, number = _half_typed(window, qtbot)
    n = int(number)
    page.tally.note.setText("typed before switching")  # if the sheet's check asks for one
    keys = list(page.tally.fields)
    path = window.case.path  # type: ignore[union-attr]
    answers = [QMessageBox.StandardButton.Save]
    window.ask_unsaved = lambda text: (window.asked.append(("unsaved", text)),  # type: ignore
                                       answers.pop(0))[1]
    (tmp_path / "other").mkdir()
    other = make_case(tmp_path / "other", name="Another case")
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(other)
    assert window.asked[-1][0] == "unsaved" and unit in window.asked[-1][1]
    assert window.case is not None and window.case.path == other
    with open_case(path) as case:
        got = rc.entry_of(case, cid, unit, n)
    assert got is not None and 98765 in [got.sheet.value(k) for k in keys]
