"""The official recount report in the window: generate, preview, save, print, sign, verify.

Every generation goes through ``actions.report.make_report`` in a worker (so it is recorded
in the audit log with its fingerprint, and after the signing it is a numbered reprint); the
pages are rendered by ``actions.report_preview`` and only turned into Qt images here.
"""

from __future__ import annotations

import re
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QImage, QKeySequence, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import case as case_actions
from recount_desk.actions import recount as recount_actions
from recount_desk.actions import report as report_actions
from recount_desk.actions import report_preview
from recount_desk.actions.case import Case
from recount_desk.actions.contests import ContestRow
from recount_desk.actions.report import ReportCheck, ReportNotReady, ReportResult
from recount_desk.actions.report_preview import PageImage, PreviewError
from recount_desk.core.report_model import RecountReport, format_date

from .. import workers
from ..dates import DateTimeField
from .messages import show_message

PREVIEW_SCALE = 1.25  # 90 pixels per inch: a Letter page is 765 pixels wide
PRINT_DPI_MAX = 300  # enough for 6-point text; more only makes the print job heavier
PDF_FILTER = "PDF documents (*.pdf)"

# Problems the officer can act on: shown as a message, never as a traceback.
EXPECTED = (ReportNotReady, recount_actions.RecountError, case_actions.CaseFileError,
            PreviewError, ValueError, OSError, sqlite3.Error)


@dataclass(frozen=True)
class Generated:
    """What one generation gives the dialog (made in the worker)."""

    result: ReportResult
    report: RecountReport
    signed_on: date | None
    signed_by: tuple[str, ...]
    pages: list[PageImage]


def _qimage(page: PageImage) -> QImage:
    # QImage does not own the bytes it is given: copy so it outlives the page's buffer.
    return QImage(page.rgb, page.width, page.height, page.stride,
                  QImage.Format.Format_RGB888).copy()


def _file_name(label: str) -> str:
    safe = re.sub(r'[<>:"/\\|?*\x00-\x1f]+', " ", label).strip(" .") or "contest"
    return f"Recount report - {safe}.pdf"


class SigningDialog(QDialog):
    """Who signed the printed report, and on which date."""

    def __init__(self, report: RecountReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Record the signing of the report")
        intro = QLabel(
            "<p>Record the signing once the board of canvassers and the election officer have "
            "signed the printed report.</p><p><b>This locks the contest</b>: nothing in its "
            "recount can be changed until it is reopened, and every copy of the report made "
            "from now on is marked as a reprint.</p>")
        intro.setWordWrap(True)
        # Typed as a US clerk writes it (11/29/2016) or picked from the calendar.
        self.date = DateTimeField("Date signed", report.report_date().date(), with_time=False)
        self.people: list[QCheckBox] = []
        box = QVBoxLayout()
        people = [(m.name, m.title) for m in report.board.present]
        people.append((report.officer.name, report.officer.title))
        for name, role in people:
            cb = QCheckBox(f"{name} — {role}" if role else name)
            cb.setChecked(True)
            cb.setProperty("signer", name)
            cb.setAccessibleName(f"{name} signed")
            self.people.append(cb)
            box.addWidget(cb)
        signers = QWidget()
        signers.setLayout(box)
        form = QFormLayout()
        form.addRow("Signed on", self.date)
        form.addRow("Signed by", signers)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Record the signing")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        for cb in self.people:
            cb.toggled.connect(lambda _on: ok.setEnabled(bool(self.signers())))
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        self.setMinimumWidth(460)

    def signers(self) -> list[str]:
        return [str(cb.property("signer")) for cb in self.people if cb.isChecked()]

    def signed_at(self) -> datetime:
        return datetime.combine(self.date.value().date(), time(0, 0))

    def accept(self) -> None:
        if self.date.problem():  # said beside the field; never turned into another date
            self.date.setFocus()
            return
        super().accept()


class PagesView(QScrollArea):
    """The report's pages one under the other, on a grey desk, as a PDF viewer shows them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setAccessibleName("Preview of the report's pages")
        self.setStyleSheet("QScrollArea { background: #8a8d91; border: none; }")
        self.page_labels: list[QLabel] = []
        self.show_note("Choose the contest and press Generate: the pages of the report "
                       "appear here.")

    def _desk(self) -> tuple[QWidget, QVBoxLayout]:
        desk = QWidget()
        desk.setStyleSheet("background: #8a8d91;")
        lay = QVBoxLayout(desk)
        lay.setContentsMargins(24, 20, 24, 20)
        lay.setSpacing(8)
        return desk, lay

    def show_note(self, text: str) -> None:
        desk, lay = self._desk()
        note = QLabel(text)
        note.setWordWrap(True)
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        note.setStyleSheet("color: white; font-size: 11pt;")
        lay.addStretch(1)
        lay.addWidget(note)
        lay.addStretch(2)
        self.page_labels = []
        self.setWidget(desk)

    def show_pages(self, images: Sequence[QImage], ratio: float = 1.0) -> None:
        """Show page images rendered at ``ratio`` device pixels per logical pixel."""
        desk, lay = self._desk()
        self.page_labels = []
        n = len(images)
        for i, img in enumerate(images, start=1):
            page = QLabel()
            pix = QPixmap.fromImage(img)
            pix.setDevicePixelRatio(ratio)
            page.setPixmap(pix)
            page.setStyleSheet("background: white; border: 1px solid #55585c;")
            page.setAccessibleName(f"Page {i} of {n}")
            caption = QLabel(f"Page {i} of {n}")
            caption.setStyleSheet("color: white;")
            lay.addWidget(page, 0, Qt.AlignmentFlag.AlignHCenter)
            lay.addWidget(caption, 0, Qt.AlignmentFlag.AlignHCenter)
            lay.addSpacing(10)
            self.page_labels.append(page)
        lay.addStretch(1)
        self.setWidget(desk)


class ReportDialog(QDialog):
    """Generate, preview, save, print, record the signing of, and verify the report."""

    report_generated = Signal(object)  # Generated
    report_failed = Signal(str)
    saved = Signal(str)
    printed = Signal(int)  # pages sent to the printer
    signing_recorded = Signal(int)  # contest id
    verified = Signal(object)  # ReportCheck

    def __init__(self, case: Case, rows: Sequence[ContestRow], current: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Official recount report")
        self.path = case.path
        self.actor = case.person.name if case.person else None
        self.readonly = case.readonly
        self.generated: Generated | None = None
        self.pdf_path: Path | None = None
        self.last_message: QMessageBox | None = None
        self.last_check: ReportCheck | None = None
        self._busy = False
        self._closed = False
        self._ratio = 1.0
        self._printer: Any = None
        self._tmp = tempfile.TemporaryDirectory(prefix="recount-desk-report-")

        labels = {r.id: r.check.totals.contest.key.label() for r in rows}
        recounted = [cid for cid in report_actions.reportable_contests(case) if cid in labels]

        self.contest = QComboBox()
        self.contest.setAccessibleName("Contest to report")
        for cid in recounted:
            self.contest.addItem(labels[cid], cid)
        if current in recounted:
            self.contest.setCurrentIndex(recounted.index(current))
        self.appendix = QCheckBox("Include the contest's audit log\nas an appendix")
        self.appendix.setAccessibleName("Include the audit log as an appendix")
        self.generate_button = self._button("&Generate", self.generate, "Ctrl+G",
                                            "Make the report from the case file and show it")
        self.generate_button.setDefault(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setAccessibleName("About the report shown")
        self.status.setMinimumHeight(90)
        self.status.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.save_button = self._button("&Save as…", self.save_as, QKeySequence.StandardKey.Save,
                                        "Save this report as a PDF file")
        self.print_button = self._button("&Print…", self.print_report,
                                         QKeySequence.StandardKey.Print,
                                         "Print this report (US Letter)")
        self.sign_button = self._button("Record &signing…", self.record_signing, None,
                                        "Record that the board signed the printed report; "
                                        "this locks the contest")
        self.verify_button = self._button("&Verify a printed report…", self.verify, None,
                                          "Check that a report PDF was made from this case "
                                          "and not altered since")
        note = QLabel("Every report made here is recorded in the case's audit log with the "
                      "fingerprint of its data. Once the signing is recorded the contest is "
                      "locked, and every later copy is marked as a reprint.")
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)

        side = QVBoxLayout()
        form = QFormLayout()
        form.addRow("&Contest", self.contest)
        form.addRow("", self.appendix)
        side.addLayout(form)
        side.addWidget(self.generate_button)
        side.addSpacing(6)
        side.addWidget(self.status)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        side.addWidget(line)
        for b in (self.save_button, self.print_button, self.sign_button):
            side.addWidget(b)
        side.addSpacing(10)
        side.addWidget(self.verify_button)
        side.addStretch(1)
        side.addWidget(note)
        side.addWidget(close)
        panel = QWidget()
        panel.setLayout(side)
        panel.setFixedWidth(330)

        self.pages = PagesView()
        lay = QHBoxLayout(self)
        lay.addWidget(panel)
        lay.addWidget(self.pages, 1)
        self.resize(1240, 780)

        self.contest.currentIndexChanged.connect(lambda _i: self._forget())
        self.appendix.toggled.connect(lambda _on: self._forget())
        if recounted:
            self._say("Press Generate to make the report of this contest from the case file.")
        else:
            self._say("No contest in this case has a recount yet. Start the recount of a "
                      "contest first; its report can be made once its result is declared "
                      "and the board has met.")
            self.pages.show_note("No contest has a recount to report.")
        self._update_buttons()

    # -- helpers ---------------------------------------------------------------------------
    def _button(self, text: str, slot: Callable[[], Any], shortcut: Any, tip: str
                ) -> QPushButton:
        b = QPushButton(text)
        b.setAutoDefault(False)
        if shortcut is not None:
            b.setShortcut(QKeySequence(shortcut))
        b.setToolTip(tip)
        b.setAccessibleDescription(tip)
        b.clicked.connect(lambda _checked=False: slot())
        return b

    def contest_id(self) -> int | None:
        data = self.contest.currentData()
        return int(data) if data is not None else None

    def _say(self, html_text: str, error: bool = False) -> None:
        colour = "#a4000f" if error else "#1d1d1d"
        self.status.setText(f"<div style='color:{colour}'>{html_text}</div>")

    def _tell(self, title: str, text: str,
              icon: QMessageBox.Icon = QMessageBox.Icon.Warning) -> None:
        self.last_message = show_message(self, title, text, icon)

    def _update_buttons(self) -> None:
        idle = not self._busy
        have = self.generated is not None
        self.contest.setEnabled(idle)
        self.appendix.setEnabled(idle)
        self.generate_button.setEnabled(idle and self.contest_id() is not None)
        self.save_button.setEnabled(idle and have)
        self.print_button.setEnabled(idle and have)
        signed = have and self.generated is not None and self.generated.signed_on is not None
        self.sign_button.setEnabled(idle and have and not signed and not self.readonly)
        self.verify_button.setEnabled(idle)

    def _start(self, job: workers.Job, done: Callable[[Any], None], what: str,
               title: str | None = None) -> None:
        self._busy = True
        self._update_buttons()

        def finished(result: Any) -> None:
            self._busy = False
            if self._closed:
                self._dispose()
                return
            self._update_buttons()
            done(result)

        def failed(error: BaseException) -> None:
            self._busy = False
            if self._closed:
                self._dispose()
                return
            self._update_buttons()
            self._failed(what, error)

        def cancelled() -> None:
            self._busy = False
            if self._closed:
                self._dispose()
                return
            self._update_buttons()

        workers.start(job, on_done=finished, on_failed=failed, on_cancelled=cancelled,
                      parent=self, title=title)

    def _failed(self, what: str, error: BaseException) -> None:
        text = str(error) if isinstance(error, EXPECTED) else (
            f"Something unexpected went wrong: {error}. Nothing was changed by the part "
            "that failed; please report this.")
        self._say(f"<b>{what}.</b> {_html(text)}", error=True)
        self._tell(what, text)
        if what.startswith("The report was not made"):
            self.report_failed.emit(text)

    def _forget(self) -> None:
        """Another contest or option: the pages shown no longer belong to it."""
        if self.generated is None:
            return
        self.generated = None
        self.pdf_path = None
        self._say("Press Generate to make the report with these settings.")
        self.pages.show_note("Press Generate to see the report.")
        self._update_buttons()

    # -- generate ----------------------------------------------------------------------------
    def generate(self) -> None:
        cid = self.contest_id()
        if cid is None or self._busy:
            return
        out = Path(self._tmp.name) / _file_name(self.contest.currentText())
        path, actor, appendix = self.path, self.actor, self.appendix.isChecked()
        # sharp on a high-density screen: as many pixels as the screen shows
        self._ratio = ratio = max(self.devicePixelRatioF(), 1.0)

        def job(progress: workers.Progress, cancelled: Callable[[], bool]) -> Generated:
            with case_actions.open_case(path, actor=actor) as case:
                result = report_actions.make_report(case, cid, out, appendix=appendix)
                report = report_actions.build_report_data(case, cid)
                signing = recount_actions.recount_state(case, cid).signing
            pages = report_preview.render_pages(out, PREVIEW_SCALE * ratio,
                                                cancelled=cancelled)
            return Generated(result, report, signing.signed_at.date() if signing else None,
                             tuple(signing.signers) if signing else (), pages)

        self._say("Making the report…")
        self._start(job, self._generated, "The report was not made",
                    title="Making the report")

    def _generated(self, g: Generated) -> None:
        self.generated = g
        self.pdf_path = g.result.path
        self.pages.show_pages([_qimage(p) for p in g.pages], self._ratio)
        r = g.result
        lines = [f"<b>{_html(self.contest.currentText())}</b>",
                 f"{len(g.pages)} pages · fingerprint <b>{r.code}</b>"]
        if r.problems:
            lines.append("<b>Not official</b> until these are put right: "
                         + " ".join(_html(p) for p in r.problems))
        if r.reprint:
            lines.append(f"<b>Reprint {r.reprint}</b> of the signed report.")
        elif r.signed:
            lines.append("<b>Signed original</b>, with the recorded signatures.")
        if g.signed_on is not None:
            who = ", ".join(g.signed_by)
            lines.append(f"Signed on {format_date(g.signed_on)} by {_html(who)}. "
                         "The contest is locked.")
        else:
            lines.append("Not signed yet: every page is marked DRAFT. Print it for the board; "
                         "after they sign, record the signing here, then make the signed "
                         "original.")
        self._say("<br>".join(lines))
        self._update_buttons()
        self.report_generated.emit(g)

    # -- save --------------------------------------------------------------------------------
    def save_as(self) -> None:
        if self.pdf_path is None:
            return
        start = str(Path.home() / self.pdf_path.name)
        got, _ = QFileDialog.getSaveFileName(self, "Save the report as", start, PDF_FILTER)
        if got:
            dest = Path(got)
            self.save_to(dest if dest.suffix.lower() == ".pdf" else dest.with_suffix(".pdf"))

    def save_to(self, dest: Path) -> None:
        """Write the report shown to ``dest`` (the same bytes, so it verifies)."""
        source = self.pdf_path
        if source is None:
            return

        def job(progress: workers.Progress, cancelled: Callable[[], bool]) -> Path:
            return report_preview.copy_report(source, dest)

        def done(p: Path) -> None:
            self._say(self.status.text() + f"<br>Saved to {_html(str(p))}.")
            self.saved.emit(str(p))

        self._start(job, done, "The report was not saved")

    # -- print -------------------------------------------------------------------------------
    def print_report(self) -> None:
        from PySide6.QtGui import QPageLayout, QPageSize
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        if self.pdf_path is None:
            return
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageSize(QPageSize(QPageSize.PageSizeId.Letter))
        printer.setPageOrientation(QPageLayout.Orientation.Portrait)
        printer.setDocName(self.pdf_path.stem)
        n = len(self.generated.pages) if self.generated else 0
        printer.setFromTo(1, max(n, 1))
        dlg = QPrintDialog(printer, self)
        dlg.setMinMax(1, max(n, 1))
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.print_to(printer)

    def print_to(self, printer: Any) -> None:
        """Print the report on ``printer`` (a QPrinter), one page image per sheet side, at
        up to PRINT_DPI_MAX: the pages look exactly as in the preview and the PDF."""
        source = self.pdf_path
        if source is None:
            return
        self._printer = printer  # the printer must outlive the worker painting on it
        printer.setFullPage(True)  # the PDF pages carry their own margins
        dpi = min(printer.resolution(), PRINT_DPI_MAX)
        count = len(self.generated.pages) if self.generated else 0
        first, last = printer.fromPage(), printer.toPage()
        wanted = list(range(first - 1, min(last, count))) if first > 0 and last > 0 else None

        def job(progress: workers.Progress, cancelled: Callable[[], bool]) -> int:
            # QPainter may paint on a QPrinter outside the GUI thread.
            painter = QPainter()
            if not painter.begin(printer):
                raise OSError("The printer could not be started.")
            sent = 0
            try:
                for page in report_preview.iter_pages(source, dpi / 72, wanted, cancelled):
                    if sent:
                        printer.newPage()
                    img = QImage(page.rgb, page.width, page.height, page.stride,
                                 QImage.Format.Format_RGB888)
                    painter.drawImage(_fit(painter.viewport().width(),
                                           painter.viewport().height(), img), img)
                    sent += 1
                    progress(sent, len(wanted) if wanted is not None else count)
            finally:
                painter.end()
            return sent

        def done(sent: int) -> None:
            self._say(self.status.text() + f"<br>{sent} pages sent to the printer.")
            self.printed.emit(sent)

        self._start(job, done, "The report was not printed", title="Printing the report")

    # -- signing -----------------------------------------------------------------------------
    def record_signing(self) -> SigningDialog | None:
        """Ask who signed and when (a window-modal dialog), then record it."""
        if self.generated is None:
            return None
        dlg = SigningDialog(self.generated.report, self)
        dlg.accepted.connect(lambda: self.sign(dlg.signed_at(), dlg.signers()))
        dlg.open()
        return dlg

    def sign(self, signed_at: datetime, signers: Sequence[str]) -> None:
        """Record the signing of the contest shown; the contest is then locked."""
        cid = self.contest_id()
        if cid is None:
            return
        path, actor, names = self.path, self.actor, list(signers)

        def job(progress: workers.Progress, cancelled: Callable[[], bool]) -> str:
            with case_actions.open_case(path, actor=actor) as case:
                return report_actions.record_signing(case, cid, signed_at, names)

        def done(_fp: str) -> None:
            if self.generated is not None:
                g = self.generated
                self.generated = Generated(g.result, g.report, signed_at.date(), tuple(names),
                                           g.pages)
            self._say(f"<b>Signing recorded</b> ({format_date(signed_at.date())}: "
                      f"{_html(', '.join(names))}).<br>The contest is now locked. Any copy "
                      "made from now on is marked as a reprint.")
            self._update_buttons()
            self.signing_recorded.emit(cid)

        self._start(job, done, "The signing was not recorded")

    # -- verify ------------------------------------------------------------------------------
    def verify(self) -> None:
        got, _ = QFileDialog.getOpenFileName(self, "Verify a report against this case",
                                             str(Path.home()), PDF_FILTER)
        if got:
            self.verify_file(Path(got))

    def verify_file(self, pdf: Path) -> None:
        """Check a PDF against the case: was it made from this case, and not altered?"""
        path = self.path

        def job(progress: workers.Progress, cancelled: Callable[[], bool]) -> ReportCheck:
            with case_actions.open_case(path, readonly=True) as case:
                return report_actions.verify_report(case, pdf)

        def done(check: ReportCheck) -> None:
            self.last_check = check
            if check.ok:
                self._tell("Report verified: OK",
                           f"OK — {pdf.name} {check.message}", QMessageBox.Icon.Information)
            else:
                self._tell("Report verified: NOT OK",
                           f"NOT OK — {pdf.name}: {check.message}", QMessageBox.Icon.Critical)
            self.verified.emit(check)

        self._start(job, done, "The report could not be checked", title="Checking the report")

    def done(self, r: int) -> None:
        """Closing: the dialog, its page images and its temporary PDF go away (once the
        work in flight, if any, has finished)."""
        super().done(r)
        self._closed = True
        if not self._busy:
            self._dispose()

    def _dispose(self) -> None:
        self.pages.show_note("")
        self._tmp.cleanup()
        self.deleteLater()


def _fit(width: int, height: int, img: QImage) -> QRectF:
    """The largest rectangle of the image's shape centred in width × height."""
    scale = min(width / img.width(), height / img.height())
    w, h = img.width() * scale, img.height() * scale
    return QRectF((width - w) / 2, (height - h) / 2, w, h)


def _html(text: str) -> str:
    import html

    return html.escape(text)
