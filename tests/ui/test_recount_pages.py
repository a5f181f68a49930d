"""The Recount page: a whole recount driven through the window, blind entry, warnings, undo."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.canvass import import_canvass, read_file
from recount_desk.actions.case import add_person, open_case
from recount_desk.actions.contests import RequestRefused, overview, record_request
from recount_desk.core.model import ElectionKind
from recount_desk.core.people import Role
from recount_desk.core.recount import EnvelopeCheck, EnvelopeOutcome, RejectionReason, UnitStatus
from recount_desk.core.rules import Requester
from recount_desk.ui.dialogs.request import office_from_name
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.pages.recount import RecountPage

from .conftest import SIGNAL_MS, make_case

GRAND = Path(__file__).parent.parent / "data" / "openelections" / \
    "20181106__ut__general__grand__precinct.csv"
FIRST, SECOND, SUPERVISOR = "Dana Whitlock", "Marcus Ortega", "Helen Strand"
MISMATCH_UNIT = "17 Moab 11:69"
WATKINS, GLENN = "Christine Watkins", "Tim Glenn"
# precinct: (Watkins, Glenn, write-ins, over, under, ballots) as recounted (illustrative);
# the canvass differs by one vote in Castle Valley 8 (Watkins 90 → 91) and Moab 9 (Glenn
# 43 → 44).
RECOUNT: dict[str, tuple[int, int, int, int, int, int]] = {
    "02 Moab 2:69": (397, 436, 0, 1, 27, 861),
    "05 Moab 4:69": (0, 0, 0, 0, 0, 0),
    "07 Moab 5:69": (0, 0, 0, 0, 0, 0),
    "09 Thompson 6:69": (22, 6, 0, 0, 2, 30),
    "11 Green River 7:69": (10, 1, 0, 0, 1, 12),
    "13 Castle Valley 8:69": (91, 163, 1, 0, 8, 263),
    "14 Moab 9:69": (68, 44, 0, 0, 4, 116),
    "17 Moab 11:69": (254, 194, 0, 1, 15, 464),
}


def _hd69(case: object) -> int:
    for r in overview(case):  # type: ignore[arg-type]
        key = r.check.totals.contest.key
        if key.title == "State House" and key.district == "69":
            return r.id
    raise LookupError("no State House 69")


@pytest.fixture
def grand(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> tuple[MainWindow, int]:
    """A new case holding the Grand County 2018 canvass and a request for State House 69,
    made through the actions, then opened in the window on the Recount page."""
    path = make_case(tmp_path, name="Grand 2018", day=date(2018, 11, 6),
                     kind=ElectionKind.GENERAL, canvass=datetime(2018, 11, 20, 10, 0))
    with open_case(path) as case:
        for name, role in ((FIRST, Role.DEPUTY), (SECOND, Role.DEPUTY),
                           (SUPERVISOR, Role.SUPERVISOR)):
            add_person(case, name, role)
        import_canvass(case, read_file(GRAND))
        cid = _hd69(case)
        row = next(r for r in overview(case) if r.id == cid)
        kw = {"requester": Requester.CANDIDATE, "candidate": WATKINS, "voters": [],
              "filed_at": datetime(2018, 11, 21, 14, 30),
              "filed_with": office_from_name(row.check.office)}
        try:
            record_request(case, cid, **kw)
        except RequestRefused:
            record_request(case, cid, **kw, override_reason="Accepted for the test.")
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    window.activateWindow()  # keyboard shortcuts go to the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=SIGNAL_MS)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    page = window.recount_page
    assert window.tabs.currentWidget() is page
    page.select_contest(cid)
    return window, cid


def _page(window: MainWindow) -> RecountPage:
    return window.recount_page


def _start(qtbot: QtBot, page: RecountPage) -> None:
    page.show_panel("start")
    assert page.start.double.isChecked() and page.start.by_precinct.isChecked()
    with qtbot.waitSignal(page.start.started, timeout=SIGNAL_MS):
        qtbot.mouseClick(page.start.start_button, Qt.MouseButton.LeftButton)
    assert page.state is not None and page.state.settings is not None
    assert len(page.state.units) == 8


def _type(qtbot: QtBot, text: str) -> None:
    """Type into whatever has the focus, then press Enter (keyboard only)."""
    w = QApplication.focusWidget()
    assert isinstance(w, QLineEdit), w
    qtbot.keyClicks(w, text)
    qtbot.keyClick(w, Qt.Key.Key_Return)


def _row(unit: str, entry: int) -> list[int]:
    w, g, wi, over, under, ballots = RECOUNT[unit]
    if entry == 2 and unit == MISMATCH_UNIT:
        over, under = 0, 16  # the second officer read the over-vote as an under-vote
    return [ballots, w, g, wi, over, under]  # paper order


def _enter_all(qtbot: QtBot, page: RecountPage, entry: int, officer: str) -> None:
    """Every unit's sheet by keyboard alone: officer, Enter, then each line and Enter."""
    tally = page.tally
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F8 if entry == 2 else Qt.Key.Key_F7)
    assert tally.number() == entry
    assert QApplication.focusWidget() is tally.officer  # a new officer types the name first
    _type(qtbot, officer)
    for _ in RECOUNT:
        unit = tally.current_unit()
        assert unit is not None
        if entry == 2:  # blind: nothing of the first entry shows
            assert all(f.text() == "" for f in tally.fields.values())
        with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
            for v in _row(unit, entry):
                _type(qtbot, str(v))


def test_a_whole_recount_by_keyboard_double_entry_to_signed_and_locked(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:
    window, cid = grand
    page = _page(window)
    assert page.contest_id == cid
    assert "requested" in page.status.text()
    _start(qtbot, page)

    page.show_panel("tally")
    _enter_all(qtbot, page, 1, FIRST)
    st = page.state
    assert st is not None
    assert all(u.status is UnitStatus.AWAITING_SECOND for u in st.units)
    assert "Every unit has its entry 1" in page.tally.result.text()

    _enter_all(qtbot, page, 2, SECOND)
    st = page.state
    assert st is not None and st.readiness.units_counted == 7
    assert [u.name for u in st.units if u.status is UnitStatus.MISMATCH] == [MISMATCH_UNIT]
    assert "Differences (1)" in page.tabs.tabText(2)

    # The mismatch: the differing fields side by side, resolved as a recorded action.
    page.show_panel("mismatch")
    m = page.mismatch
    assert m.current_unit() == MISMATCH_UNIT
    fields = {m.diff_model.cell(r, 0): (m.diff_model.cell(r, 1), m.diff_model.cell(r, 2))
              for r in range(m.diff_model.rowCount())}
    assert fields == {"Over-votes": (1, 0), "Under-votes": (15, 16)}
    assert m.keep_first.isChecked()
    qtbot.keyClicks(m.by, SUPERVISOR)
    qtbot.keyClick(m.by, Qt.Key.Key_Return)
    qtbot.keyClicks(m.note, "Tape re-read together: one over-vote.")
    with qtbot.waitSignal(m.resolved, timeout=SIGNAL_MS):
        qtbot.keyClick(m.note, Qt.Key.Key_Return)
    st = page.state
    assert st is not None and st.readiness.units_counted == 8

    # Variance: canvass against recount, with a note.
    page.show_panel("variance")
    v = page.variance
    assert v.model.cell(v.model.rowCount() - 1, 0) == "Total"
    v.view.selectRow(0)
    qtbot.keyClicks(v.note, "Checked against the poll book.")
    qtbot.keyClick(v.note, Qt.Key.Key_Return)
    assert rc.variance(window.case, cid).rows[0].note == "Checked against the poll book."

    # Two envelopes reexamined: one accepted with a vote for Watkins, one stays rejected.
    page.show_panel("envelopes")
    e = page.envelopes
    for no, precinct in (("E-1", "02 Moab 2:69"), ("E-2", MISMATCH_UNIT)):
        e.env_id.setText(no)
        e.precinct.setCurrentText(precinct)
        qtbot.keyClicks(e.reason, "Signature did not match")
        qtbot.keyClick(e.reason, Qt.Key.Key_Return)
    assert [x.record.envelope_id for x in e.views] == ["E-1", "E-2"]
    e.select("E-1")
    for c, box in e.checks.items():
        box.select(True)
        assert c in EnvelopeCheck
    e.checked_by.setText(SUPERVISOR)
    qtbot.mouseClick(e.record_checks, Qt.MouseButton.LeftButton)
    assert "Every check passed" in e.assessment.text()
    e.outcome.select(EnvelopeOutcome.ACCEPTED)
    e.vote_checks[WATKINS].setChecked(True)
    e.decided_by.setText(SUPERVISOR)
    with qtbot.waitSignal(e.decided, timeout=SIGNAL_MS):
        qtbot.mouseClick(e.decide_button, Qt.MouseButton.LeftButton)
    e.select("E-2")
    e.outcome.select(EnvelopeOutcome.REJECTED)
    e.reject_reason.select(RejectionReason.LATE)
    e.decided_by.setText(SUPERVISOR)
    with qtbot.waitSignal(e.decided, timeout=SIGNAL_MS):
        qtbot.mouseClick(e.decide_button, Qt.MouseButton.LeftButton)
    assert "2 of 2 envelopes reexamined" in e.summary.text()
    st = page.state
    assert st is not None and st.readiness.complete
    assert st.totals[WATKINS] == sum(r[0] for r in RECOUNT.values()) + 1
    assert st.totals[GLENN] == sum(r[1] for r in RECOUNT.values())

    # Declaration.
    page.show_panel("declare")
    d = page.declare
    assert not d.override.isVisible()
    assert "Elected on the recount" in d.preview.text()
    with qtbot.waitSignal(d.declared, timeout=SIGNAL_MS):
        qtbot.mouseClick(d.declare_button, Qt.MouseButton.LeftButton)
    st = page.state
    assert st is not None and st.declaration is not None
    assert st.declaration.elected == (GLENN,)

    # The board: three members present of a five-seat council, convened.
    page.show_panel("board")
    b = page.board
    for name in ("Evelyn Marsh", "Priya Castillo", "Jonah Redd"):
        b.name.setText(name)
        qtbot.keyClicks(b.title, "Council Member")
        qtbot.keyClick(b.title, Qt.Key.Key_Return)
    assert b.model.rowCount() == 3
    b.body_size.setValue(5)
    qtbot.keyClicks(b.place, "Grand County Council Chambers")
    with qtbot.waitSignal(b.convened, timeout=SIGNAL_MS):
        qtbot.keyClick(b.place, Qt.Key.Key_Return)
    assert "quorum present" in b.quorum.text()

    # Sign: the contest is locked.
    page.show_panel("declare")
    assert d.signers() == ["Evelyn Marsh", "Priya Castillo", "Jonah Redd", *d.signers()[3:]]
    assert d.sign_place.text() == "Grand County Council Chambers"
    with qtbot.waitSignal(d.signed, timeout=SIGNAL_MS):
        qtbot.mouseClick(d.sign_button, Qt.MouseButton.LeftButton)
    st = page.state
    assert st is not None and st.locked
    assert page.lock.isVisible() and "Locked" in page.lock.text()
    assert all(s.done for s in st.checklist.steps)

    # A further entry is refused with a message, not a traceback.
    page.show_panel("tally")
    tally = page.tally
    tally.first.setChecked(True)
    tally.fields["under"].setFocus()
    with qtbot.waitSignal(page.action_failed, timeout=SIGNAL_MS) as blocker:
        qtbot.keyClick(tally.fields["under"], Qt.Key.Key_Return)
    assert "locked" in blocker.args[0]
    assert window.last_message is not None and "locked" in window.last_message.text()

    # Reopen with a reason.
    page.show_panel("declare")
    qtbot.keyClicks(d.reopen_reason, "Typo in a board member's title.")
    with qtbot.waitSignal(d.reopened, timeout=SIGNAL_MS):
        qtbot.mouseClick(d.reopen_button, Qt.MouseButton.LeftButton)
    st = page.state
    assert st is not None and not st.locked and st.reopens
    window.last_message.close()


def test_the_second_entry_is_blind(grand: tuple[MainWindow, int], qtbot: QtBot) -> None:
    window, cid = grand
    page = _page(window)
    _start(qtbot, page)
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None
    tally.officer.setText(FIRST)
    for f, v in zip(tally.fields.values(), _row(unit, 1), strict=True):
        f.setText(str(v))
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        tally.save()
    tally.unit.setCurrentIndex(0)
    tally.second.setChecked(True)
    assert tally.current_unit() == unit
    assert all(f.text() == "" for f in tally.fields.values())
    assert tally.officer.text() == ""
    assert "not shown" in tally.blind.text()
    # The first numbers appear nowhere on the panel: not in the units list either.
    shown = {str(tally.units_model.cell(r, c)) for r in range(tally.units_model.rowCount())
             for c in range(tally.units_model.columnCount())}
    assert not {str(v) for v in _row(unit, 1) if v > 9} & shown
    # The same officer (in any spelling the roster knows) cannot make the second entry: said
    # as soon as the name is given, before any figure is typed.
    tally.officer.setText("D. Whitlock")
    with qtbot.waitSignal(page.action_failed, timeout=SIGNAL_MS) as blocker:
        qtbot.keyClick(tally.officer, Qt.Key.Key_Return)
    assert "Dana Whitlock made the other entry" in blocker.args[0]
    assert tally.officer.hasFocus()
    window.last_message.close()
    # and saving anyway is refused too
    for f, v in zip(tally.fields.values(), _row(unit, 1), strict=True):
        f.setText(str(v))
    with qtbot.waitSignal(page.action_failed, timeout=SIGNAL_MS) as blocker:
        tally.save()
    assert "second person" in blocker.args[0]
    assert rc.entry_of(window.case, cid, unit, 2) is None
    window.last_message.close()


def test_a_sheet_that_fails_the_check_is_saved_only_with_a_note(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:
    window, cid = grand
    page = _page(window)
    _start(qtbot, page)
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None
    tally.officer.setText(FIRST)
    bad = _row(unit, 1)
    bad[-1] += 3  # three under-votes too many
    for f, v in zip(tally.fields.values(), bad, strict=True):
        f.setText(str(v))
    assert "⚠" in tally.check.text()
    assert not tally.note.isVisible()
    with qtbot.waitSignal(tally.note_needed, timeout=SIGNAL_MS):
        qtbot.keyClick(tally.fields["under"], Qt.Key.Key_Return)
    assert tally.note.isVisible()
    assert QApplication.focusWidget() is tally.note
    assert rc.entry_of(window.case, cid, unit, 1) is None  # nothing saved silently
    qtbot.keyClicks(tally.note, "Three spoiled ballots counted twice on the sheet.")
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        qtbot.keyClick(tally.note, Qt.Key.Key_Return)
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.warning_note.startswith("Three spoiled")
    assert got.sheet.under == bad[-1]


def test_undo_of_an_entry_re_enters_the_previous_values_and_is_recorded(
        grand: tuple[MainWindow, int], qtbot: QtBot) -> None:
    window, cid = grand
    page = _page(window)
    _start(qtbot, page)
    page.show_panel("tally")
    tally = page.tally
    unit = tally.current_unit()
    assert unit is not None
    tally.officer.setText(FIRST)
    good = _row(unit, 1)
    for f, v in zip(tally.fields.values(), good, strict=True):
        f.setText(str(v))
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        tally.save()
    tally.unit.setCurrentIndex(0)
    changed = list(good)
    changed[1] -= 1  # one vote fewer for Watkins …
    changed[-1] += 1  # … and one more under-vote
    for f, v in zip(tally.fields.values(), changed, strict=True):
        f.setText(str(v))
    with qtbot.waitSignal(tally.tally_saved, timeout=SIGNAL_MS):
        tally.save()
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.sheet.votes[WATKINS] == changed[1]
    assert window.act_undo.isEnabled()

    window.act_undo.trigger()
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.sheet.votes[WATKINS] == good[1]
    assert tally.fields[f"votes:{WATKINS}"].text() == str(good[1])
    entries = [json.loads(e.payload)["data"] for e in store.audit_entries(window.case.conn)
               if e.action == "enter tally"]
    assert len(entries) == 3
    assert entries[-1]["sheet"]["votes"][WATKINS] == good[1]
    assert entries[-1]["replaced"] is True

    window.act_undo.trigger()  # back to nothing entered: an empty sheet, recorded too
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.sheet.ballots is None
    window.act_redo.trigger()
    got = rc.entry_of(window.case, cid, unit, 1)
    assert got is not None and got.sheet.votes[WATKINS] == good[1]
    assert sum(1 for e in store.audit_entries(window.case.conn) if e.action == "enter tally") == 5


def test_the_envelope_fields_show_nothing_of_another_contest(
        demo: MainWindow, qtbot: QtBot) -> None:
    """The demo's HD 32 has two envelopes; a started contest with none shows empty fields."""
    from recount_desk.actions import recount as rc
    from recount_desk.core.recount import EntryMode, RecountMethod

    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    page.show_panel("envelopes")
    assert page.envelopes.views and page.envelopes.checked_by.text() == "Helen Strand"
    case = demo.case
    assert case is not None
    other = next(r.id for r in overview(case) if r.id != page.contest_id
                 and r.check.totals.contest.key.title == "State House")
    rc.start_recount(case, other, method=RecountMethod.HAND_COUNT, entry_mode=EntryMode.DOUBLE)
    demo.refresh()
    page.select_contest(other)
    page.show_panel("envelopes")
    e = page.envelopes
    assert e.views == []
    assert (e.check_note.text(), e.checked_by.text(), e.decided_by.text()) == ("", "", "")


def test_a_narrow_envelopes_panel_is_one_column_and_keeps_what_was_typed(
        demo: MainWindow, qtbot: QtBot) -> None:
    """At a large text scale on a small screen the list, the checks and the decision are one
    scrolled column (nothing to scroll sideways to); widening puts them side by side again,
    with the same fields and what was typed in them."""
    page = demo.recount_page
    demo.tabs.setCurrentWidget(page)
    page.show_panel("envelopes")
    e = page.envelopes
    demo.resize(1600, 900)
    qtbot.waitUntil(lambda: not e.narrow)
    assert e.split.isVisible() and not e._column.isVisible()
    e.env_id.setText("SL-2016-999")
    e.check_note.setText("typed before the move")
    demo.resize(853, 453)  # a 1280×720 screen at 150 %, less the task bar
    qtbot.waitUntil(lambda: e.narrow)
    assert e._column.isVisible() and not e.split.isVisible()
    assert e._column.horizontalScrollBar().maximum() == 0
    column = e._column.widget()
    assert column.isAncestorOf(e.decide_button) and column.isAncestorOf(e.view)
    # the decision is under the checks, not beside them
    assert e._decision.mapTo(column, e._decision.rect().topLeft()).y() > \
        e._checks.mapTo(column, e._checks.rect().topLeft()).y()
    demo.resize(1600, 900)
    qtbot.waitUntil(lambda: not e.narrow)
    assert e.split.isAncestorOf(e.decide_button)
    assert (e.env_id.text(), e.check_note.text()) == ("SL-2016-999", "typed before the move")
