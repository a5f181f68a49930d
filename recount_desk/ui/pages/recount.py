"""The Recount page: one contest's recount, its checklist, and a panel per step of the work."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, CaseFileError
from recount_desk.core.recount import Stage
from recount_desk.core.rules import Verdict

from ..models import ChoiceListModel
from ..recount.common import LOCK_STYLE, heading, wrap_label
from ..recount.panels import (
    BoardPanel,
    CostsPanel,
    DeclarePanel,
    EnvelopesPanel,
    StartPanel,
    VariancePanel,
    WitnessesPanel,
)
from ..recount.tally import MismatchPanel, TallyEntryPanel
from ..tabs import PageTabs

if TYPE_CHECKING:
    from ..main_window import MainWindow

# Which panel each checklist step opens.
STEP_PANEL = {Stage.REQUESTED: "start", Stage.UNDER_WAY: "start", Stage.RECONCILED: "tally",
              Stage.REEXAMINED: "envelopes", Stage.DECLARED: "declare",
              Stage.BOARD_CONVENED: "board", Stage.SIGNED: "declare"}


# The steps' panels in order: key, tab title, attribute of the page, class.
PANELS: list[tuple[str, str, str, Any]] = [
    ("start", "Start", "start", StartPanel), ("tally", "Tally entry", "tally", TallyEntryPanel),
    ("mismatch", "Differences", "mismatch", MismatchPanel),
    ("variance", "Variance", "variance", VariancePanel),
    ("witnesses", "Witnesses", "witnesses", WitnessesPanel),
    ("envelopes", "Absentee envelopes", "envelopes", EnvelopesPanel),
    ("costs", "Costs", "costs", CostsPanel), ("board", "Board", "board", BoardPanel),
    ("declare", "Declare && sign", "declare", DeclarePanel)]


class ChecklistPane(QWidget):
    """The contest's steps in order, each with its subsection and what blocks it."""

    step_activated = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(6, 6, 6, 6)
        self.box.setSpacing(8)
        self.title = heading("Checklist")
        self.box.addWidget(self.title)
        self.labels: list[QLabel] = []
        for _ in Stage:
            lab = QLabel()
            lab.setWordWrap(True)
            lab.setTextFormat(Qt.TextFormat.RichText)
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                        | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
            lab.linkActivated.connect(self.step_activated.emit)
            self.box.addWidget(lab)
            self.labels.append(lab)
        self.box.addStretch(1)

    def show_checklist(self, st: rc.RecountState | None) -> None:
        if st is None:
            for lab in self.labels:
                lab.setText("")
            self.title.setText("Checklist")
            return
        self.title.setText("Checklist")
        nxt = st.checklist.next_step
        for lab, step in zip(self.labels, st.checklist.steps, strict=True):
            mark = "✔" if step.done else ("➜" if step is nxt else "○")
            colour = "#1d5e20" if step.done else ("#8a5a00" if step is nxt else "#444")
            block = "" if step.done or not step.blocker else (
                f"<br><span style='color:#8a3a00'>To do: {step.blocker}</span>")
            lab.setText(
                f"<span style='color:{colour}; font-size:large'>{mark}</span> "
                f"<a href='{STEP_PANEL[step.stage]}'><b>{step.stage.label}</b></a><br>"
                f"<span>{step.detail}</span>{block}<br>"
                f"<span style='color:#666'>{step.basis}</span>")
            lab.setAccessibleName(f"{step.stage.label}: {'done' if step.done else 'not done'}")
            lab.setAccessibleDescription(f"{step.detail}. {step.blocker or ''}")


class RecountPage(QWidget):
    """Pick a contest; see its checklist; do each step of the recount in its panel."""

    state_loaded = Signal()
    action_failed = Signal(str)

    start: StartPanel
    tally: TallyEntryPanel
    mismatch: MismatchPanel
    variance: VariancePanel
    witnesses: WitnessesPanel
    envelopes: EnvelopesPanel
    costs: CostsPanel
    board: BoardPanel
    declare: DeclarePanel

    def __init__(self, window: MainWindow, in_turns: bool = False) -> None:
        """With ``in_turns`` the panels are added by ``build_step``, one per call."""
        super().__init__()
        self.window = window
        self.complete = False
        self.contest_id: int | None = None
        self.state: rc.RecountState | None = None
        self.last_error = ""
        # A contest chosen on the Contests page since this page was last shown.
        self._pending: int | None = None

        self.contest = QComboBox()
        self.contest_items = ChoiceListModel(self.contest)
        self.contest.setModel(self.contest_items)
        self.contest.setAccessibleName("Contest to recount")
        self.contest.setMinimumWidth(420)
        # Sized by a length, not by measuring every item: a 1,000-contest list measured at
        # each reload stalled the window (benchmarks/gui_keystroke.py).
        self.contest.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.contest.setMinimumContentsLength(40)
        contest_label = QLabel("Con&test:")
        contest_label.setBuddy(self.contest)
        self.status = wrap_label("", "Where the recount stands")
        self.lock = wrap_label("", "Locked", LOCK_STYLE)
        self.lock.hide()
        bar = QHBoxLayout()
        bar.addWidget(contest_label)
        bar.addWidget(self.contest)
        bar.addSpacing(12)
        bar.addWidget(self.status, 1)

        self.checklist = ChecklistPane()
        self.checklist.step_activated.connect(self.show_panel)
        side = QScrollArea()
        side.setAccessibleName("Checklist of the recount's steps")
        side.setWidgetResizable(True)
        side.setFrameShape(QFrame.Shape.StyledPanel)
        side.setWidget(self.checklist)
        side.setMinimumWidth(250)

        self.panels: dict[str, tuple[str, Any]] = {}
        self.tabs = PageTabs()
        self.tabs.setAccessibleName("Steps of the recount")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(side)
        split.addWidget(self.tabs)
        split.setStretchFactor(1, 1)
        split.setSizes([270, 1000])
        box = QVBoxLayout(self)
        box.addLayout(bar)
        box.addWidget(self.lock)
        box.addWidget(split, 1)

        self.contest.currentIndexChanged.connect(lambda _i: self._contest_changed())
        if not in_turns:
            while not self.build_step():
                pass

    def build_step(self) -> bool:
        """Add the next step's panel (one per turn of the event loop when the window builds
        the page anew for a case it opens: all nine at once stalled it for a quarter of a
        second, benchmarks/gui_keystroke.py); True once the page is complete."""
        if self.complete:
            return True
        if len(self.panels) < len(PANELS):
            key, title, attr, make = PANELS[len(self.panels)]
            w = make(self)
            setattr(self, attr, w)
            self.panels[key] = (title, w)
            n = len(self.panels)
            self.tabs.addTab(w, f"{n} {title}")
            self.tabs.setTabToolTip(n - 1, f"Alt+{n}")
            w.setAccessibleName(title.replace("&&", "and"))
            # The window's context, not the page's: after a menu the focus may be on the
            # tab bar, and Alt+1…9 must still work while this page is shown.
            sc = QShortcut(QKeySequence(f"Alt+{n}"), self)
            sc.setContext(Qt.ShortcutContext.WindowShortcut)
            sc.activated.connect(lambda k=key: self.show_panel(k))
            return False
        self.complete = True
        # The window re-reads this page with every other after each action (refresh), and
        # builds it anew for each case it opens.
        if self.window._contests_page is not None:
            self.window._contests_page.contest_selected.connect(self._chosen_elsewhere)
        if self.window.case is not None:
            self.reload_contests()
        return True

    # -- what the panels use ------------------------------------------------------------------
    @property
    def case(self) -> Case | None:
        return self.window.case

    def say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10000)

    def fail(self, title: str, error: BaseException | str, details: str | None = None) -> None:
        """Show a refusal as a message (never a traceback)."""
        self.last_error = str(error)
        self.window.tell(title, str(error), details=details)
        self.action_failed.emit(self.last_error)

    def confirm(self, title: str, text: str) -> bool:
        """Ask before an action that is hard to take back."""
        return self.window.confirm(title, text)

    def unsaved_work(self) -> str | None:
        """The tally sheet typed and not saved, in words (None when there is none)."""
        return self.tally.unsaved_work()

    def save_unsaved_work(self) -> None:
        self.show_panel("tally")
        self.tally.save()

    def act(self, title: str, fn: Any, *args: Any, **kw: Any) -> Any:
        """Run one recount action on the open contest; re-read the page after it.

        Returns the action's result (``True`` for an action that returns nothing), or
        ``None`` when it was refused — the refusal is shown as a message.
        """
        if self.case is None or self.contest_id is None:
            return None
        try:
            result = fn(self.case, self.contest_id, *args, **kw)
        except (rc.RecountError, CaseFileError) as e:
            self.fail(title, e)
            return None
        self.reload()
        return True if result is None else result

    def precincts(self) -> list[str]:
        from recount_desk.actions import contests as contest_actions

        if self.case is None or self.contest_id is None:
            return []
        return contest_actions.precinct_table(self.case, self.contest_id)[0]

    def show_panel(self, key: str) -> None:
        if key in self.panels:
            self.tabs.setCurrentWidget(self.panels[key][1])
            if key == "tally":
                self.tally.focus_entry()

    # -- contests -----------------------------------------------------------------------------
    def reload_contests(self) -> None:
        """The contest list from the window's overview; keep the current contest if possible."""
        rows = self.window.rows if self.case is not None else []
        keep = self.contest_id
        items = []
        for r in rows:
            d = r.check.decision
            tag = {Verdict.WITHIN_MARGIN: " — within the margin",
                   Verdict.AUTOMATIC: " — automatic recount (tie)"}.get(d.verdict, "")
            req = f" — {r.requests} request{'s' if r.requests != 1 else ''}" if r.requests \
                else ""
            items.append((f"{r.check.totals.contest.key.label()}{tag}{req}", r.id))
        self.contest.blockSignals(True)
        self.contest_items.set_items(items)
        self.contest.blockSignals(False)
        target = keep if keep is not None and self.contest.findData(keep) >= 0 else \
            self._default_contest()
        if target is None:
            self.contest_id = None
            self.reload()
            return
        self.select_contest(target, force=True)

    def case_opened(self) -> None:
        # The overview selects its first row as it loads: that is no choice of the user's.
        self.contest_id, self._pending = None, None
        self.reload_contests()

    def _chosen_elsewhere(self, contest_id: int) -> None:
        if self.window.refreshing:
            return  # the overview re-selecting as it reloads is no choice of the user's
        self._pending = contest_id
        if self.isVisible():
            self._follow()

    def _follow(self) -> None:
        if self._pending is not None:
            cid, self._pending = self._pending, None
            self.select_contest(cid)

    def _default_contest(self) -> int | None:
        """The contest chosen on the Contests page, else the first within the margin."""
        if self._pending is not None and self.contest.findData(self._pending) >= 0:
            return self._pending
        for r in self.window.rows:
            if r.check.decision.within_margin:
                return r.id
        for r in self.window.rows:  # a county's portion with a recount on record
            if r.requests:
                return r.id
        return self.window.rows[0].id if self.window.rows else None

    def select_contest(self, contest_id: int, force: bool = False) -> None:
        i = self.contest.findData(contest_id)
        if i < 0:
            return
        if i == self.contest.currentIndex() and not force and contest_id == self.contest_id:
            return
        self.contest.blockSignals(True)
        self.contest.setCurrentIndex(i)
        self.contest.blockSignals(False)
        self._contest_changed()

    def _contest_changed(self) -> None:
        d = self.contest.currentData()
        self.contest_id = int(d) if d is not None else None
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._follow()  # the contest chosen on the Contests page since the last visit

    # -- reading ------------------------------------------------------------------------------
    def reload(self, state: rc.RecountState | None = None) -> None:
        """Re-read the contest's recount and show it in the checklist and every panel
        (``state``: the contest's recount as a worker just read it after its save)."""
        st: rc.RecountState | None = None
        if state is not None and state.contest_id == self.contest_id and self.case is not None:
            st = state
        elif self.case is not None and self.contest_id is not None:
            try:
                st = rc.recount_state(self.case, self.contest_id)
            except (rc.RecountError, CaseFileError) as e:
                self.fail("The recount could not be read", e)
        self.state = st
        self.checklist.show_checklist(st)
        if st is None:
            self.status.setText("Open a case that holds a canvass (File › Open…)."
                                if self.case is None else "Choose a contest.")
            self.lock.hide()
        else:
            self.status.setText(f"<b>{st.status_line}</b>")
            if st.signing is not None:
                self.lock.setText(
                    f"<b>Locked.</b> The report was signed {st.signing.signed_at:%b %d, %Y} "
                    f"by {', '.join(st.signing.signers)}. Nothing can be changed unless the "
                    "contest is reopened with a reason (9 Declare & sign).")
            self.lock.setVisible(st.signing is not None)
        for _title, panel in self.panels.values():
            panel.show_state(st)
        # A field filled longer than it is wide shows its start, not its end ("…ernment
        # Center, Council Chambers"); the field being typed in keeps its place.
        for edit in self.findChildren(QLineEdit):  # plain fields, not a date's or a list's
            if type(edit) is QLineEdit and not edit.hasFocus() and not isinstance(
                    edit.parent(), QAbstractSpinBox | QComboBox):
                edit.setCursorPosition(0)
        n = self.mismatch.pending()
        self.tabs.setTabText(2, f"3 Differences ({n})" if n else "3 Differences")
        self.window.note_changes()  # an action of this page may not be undone past
        self.state_loaded.emit()
