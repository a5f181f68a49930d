"""The report dialog on the demo case: generate with preview, save, print, sign, verify."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import pypdf
import pytest
from PySide6.QtGui import QPageSize
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from recount_desk.actions import recount as recount_actions
from recount_desk.actions import report_preview
from recount_desk.core.rules import Verdict
from recount_desk.ui.dialogs.report import ReportDialog
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS

HOUSE_32 = "State House — District 32"


@pytest.fixture
def dialog(demo: MainWindow) -> ReportDialog:
    dlg = demo.open_report()
    assert dlg is not None
    return dlg


def generate(qtbot: QtBot, dlg: ReportDialog) -> object:
    with qtbot.waitSignal(dlg.report_generated, timeout=SIGNAL_MS) as blocker:
        dlg.generate_button.click()
    return blocker.args[0]


def pdf_text(path: Path) -> str:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)


def test_file_menu_opens_the_report_dialog_with_ctrl_shift_p(demo: MainWindow) -> None:
    assert demo.act_report.shortcut().toString() == "Ctrl+Shift+P"
    file_menu = demo.menuBar().actions()[0].menu()
    assert demo.act_report in file_menu.actions()


def test_demo_report_of_house_69_is_generated_and_previewed(qtbot: QtBot,
                                                            dialog: ReportDialog) -> None:
    assert dialog.contest.currentText() == HOUSE_32
    assert not dialog.save_button.isEnabled()  # nothing to save before a generation
    g = generate(qtbot, dialog)
    assert len(dialog.pages.page_labels) >= 6
    assert len(dialog.pages.page_labels) == len(g.pages)  # type: ignore[attr-defined]
    pix = dialog.pages.page_labels[0].pixmap()
    assert not pix.isNull() and pix.height() > pix.width()  # a portrait page
    assert g.result.code in dialog.status.text()  # type: ignore[attr-defined]
    assert "Not signed yet" in dialog.status.text()
    assert dialog.save_button.isEnabled() and dialog.print_button.isEnabled()


def test_save_as_writes_a_pdf_that_verifies(qtbot: QtBot, dialog: ReportDialog,
                                            tmp_path: Path) -> None:
    generate(qtbot, dialog)
    dest = tmp_path / "House 32 report.pdf"
    with qtbot.waitSignal(dialog.saved, timeout=SIGNAL_MS):
        dialog.save_to(dest)
    assert dest.read_bytes()[:5] == b"%PDF-"
    assert "Recount Report (DRAFT)" in pdf_text(dest)  # not signed yet
    with qtbot.waitSignal(dialog.verified, timeout=SIGNAL_MS) as blocker:
        dialog.verify_file(dest)
    assert blocker.args[0].ok
    box = dialog.last_message
    assert box is not None and box.text().startswith("OK — ")
    assert box.icon() is QMessageBox.Icon.Information


def test_verify_of_an_altered_pdf_says_not_ok(qtbot: QtBot, dialog: ReportDialog,
                                              tmp_path: Path) -> None:
    generate(qtbot, dialog)
    dest = tmp_path / "report.pdf"
    with qtbot.waitSignal(dialog.saved, timeout=SIGNAL_MS):
        dialog.save_to(dest)
    blob = dest.read_bytes()
    assert b"Recount Desk" in blob
    dest.write_bytes(blob.replace(b"Recount Desk", b"Recount Dusk", 1))
    with qtbot.waitSignal(dialog.verified, timeout=SIGNAL_MS) as blocker:
        dialog.verify_file(dest)
    assert not blocker.args[0].ok
    box = dialog.last_message
    assert box is not None and box.text().startswith("NOT OK — report.pdf")
    assert "altered" in box.text()


def test_print_to_a_pdf_printer_sends_every_page(qtbot: QtBot, dialog: ReportDialog,
                                                 tmp_path: Path) -> None:
    g = generate(qtbot, dialog)
    out = tmp_path / "printed.pdf"
    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    printer.setPageSize(QPageSize(QPageSize.PageSizeId.Letter))
    printer.setResolution(96)
    with qtbot.waitSignal(dialog.printed, timeout=SIGNAL_MS) as blocker:
        dialog.print_to(printer)
    n = len(g.pages)  # type: ignore[attr-defined]
    assert blocker.args[0] == n
    assert out.stat().st_size > 10_000
    assert report_preview.page_count(out) == n
    first = report_preview.render_pages(out, 0.25)[0]
    assert (first.width, first.height) == (153, 198)  # US Letter


def test_signing_locks_the_contest_then_signed_original_then_reprint_1(
        qtbot: QtBot, demo: MainWindow, dialog: ReportDialog) -> None:
    generate(qtbot, dialog)
    cid = dialog.contest_id()
    assert cid is not None
    sign = dialog.record_signing()
    assert sign is not None
    assert sign.signers()[0] == "Evelyn Marsh" and len(sign.signers()) == 7
    with qtbot.waitSignal(dialog.signing_recorded, timeout=SIGNAL_MS):
        sign.buttons.accepted.emit()
    assert "locked" in dialog.status.text()
    assert not dialog.sign_button.isEnabled()
    assert demo.case is not None
    state = recount_actions.recount_state(demo.case, cid)
    assert state.signing is not None and "Evelyn Marsh" in state.signing.signers
    with pytest.raises(recount_actions.ContestLocked):
        recount_actions.set_variance_note(demo.case, cid, "DRP006", "late note")

    g = generate(qtbot, dialog)
    assert g.result.reprint == 0  # type: ignore[attr-defined]
    assert "Signed original" in dialog.status.text()
    text = pdf_text(g.result.path)  # type: ignore[attr-defined]
    assert "Official Recount Report" in text and "/s/ Evelyn Marsh" in text
    g = generate(qtbot, dialog)
    assert g.result.reprint == 1  # type: ignore[attr-defined]
    assert "Reprint 1" in dialog.status.text()
    assert "Reprint 1 — generated at" in pdf_text(g.result.path)  # type: ignore[attr-defined]


def test_report_not_ready_is_a_message_not_a_traceback(qtbot: QtBot, demo: MainWindow) -> None:
    assert demo.case is not None
    other = next(r for r in demo.rows if r.check.decision.verdict is not Verdict.EXCLUDED_IRV
                 and r.check.totals.contest.key.label() != HOUSE_32)
    recount_actions.start_recount(demo.case, other.id,
                                  method=recount_actions.RecountMethod.RETABULATION)
    dlg = demo.open_report()
    assert dlg is not None
    dlg.contest.setCurrentIndex(dlg.contest.findData(other.id))
    with qtbot.waitSignal(dlg.report_failed, timeout=SIGNAL_MS) as blocker:
        dlg.generate_button.click()
    assert "not reconciled" in blocker.args[0]
    assert dlg.last_message is not None and "not reconciled" in dlg.last_message.text()
    assert "Traceback" not in dlg.last_message.text()
    assert "not reconciled" in dlg.status.text()
    assert not dlg.save_button.isEnabled()


def test_a_case_without_a_recount_says_so(empty_case: MainWindow) -> None:
    dlg = empty_case.open_report()
    assert dlg is not None
    assert dlg.contest.count() == 0
    assert not dlg.generate_button.isEnabled()
    assert "No contest in this case has a recount yet" in dlg.status.text()
    assert dlg.verify_button.isEnabled()


def test_closing_the_dialog_removes_its_temporary_report(qtbot: QtBot,
                                                         dialog: ReportDialog) -> None:
    g = generate(qtbot, dialog)
    pdf = g.result.path  # type: ignore[attr-defined]
    assert pdf.exists()
    with qtbot.waitSignal(dialog.finished, timeout=SIGNAL_MS):
        dialog.reject()
    assert not pdf.exists()


def test_the_audit_appendix_is_included_when_asked(qtbot: QtBot, dialog: ReportDialog) -> None:
    plain = generate(qtbot, dialog)
    dialog.appendix.setChecked(True)
    assert not dialog.save_button.isEnabled()  # the pages shown were made without it
    with_log = generate(qtbot, dialog)
    assert len(with_log.pages) > len(plain.pages)  # type: ignore[attr-defined]
    text = pdf_text(with_log.result.path)  # type: ignore[attr-defined]
    assert "Appendix — audit log of this contest" in text


def test_the_signing_date_is_typed_as_a_clerk_writes_it(
        qtbot: QtBot, dialog: ReportDialog) -> None:
    generate(qtbot, dialog)
    sign = dialog.record_signing()
    assert sign is not None
    qtbot.waitExposed(sign)
    sign.date.edit.clear()
    qtbot.keyClicks(sign.date.edit, "12/32/2016")  # no such day: refused, never another date
    sign.date.edit.editingFinished.emit()
    assert sign.date.problem()
    sign.accept()
    assert sign.isVisible()
    sign.date.edit.clear()
    qtbot.keyClicks(sign.date.edit, "12/6/2016")
    sign.date.edit.editingFinished.emit()
    assert sign.date.problem() is None
    assert sign.signed_at() == datetime(2016, 12, 6, 0, 0)
    sign.reject()
