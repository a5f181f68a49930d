"""Issue #12 (1): an import whose file says another election kind than the case's is pointed
out among the wizard's problems (the deadline and office follow the case's kind)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWizard
from pytestqt.qtbot import QtBot

from recount_desk.core.model import ElectionKind
from recount_desk.ui.dialogs.import_wizard import FORMAT_PAGE, ISSUES_PAGE
from recount_desk.ui.main_window import MainWindow

from .conftest import SIGNAL_MS, make_case


@pytest.mark.parametrize(
    ("kind", "pointed_out"),
    [(ElectionKind.MUNICIPAL_GENERAL, True), (ElectionKind.GENERAL, False)],
    ids=["(1)(d)(ii)(A) municipal case, general file: pointed out",
         "(1)(d)(ii)(C) general case, general file: nothing to say"],
)
def test_a_file_of_another_kind_is_pointed_out(window: MainWindow, qtbot: QtBot,
                                               tmp_path: Path, ui_data: Path,
                                               kind: ElectionKind, pointed_out: bool) -> None:
    path = make_case(tmp_path, kind=kind)
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    wiz = window.import_canvass()
    assert wiz is not None
    wiz.file_page.path.setText(str(ui_data / "20221108__ut__general__beaver__precinct.csv"))
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        wiz.button(QWizard.WizardButton.NextButton).click()
    qtbot.waitUntil(lambda: wiz.currentId() == FORMAT_PAGE)
    while wiz.currentId() != ISSUES_PAGE:
        wiz.button(QWizard.WizardButton.NextButton).click()
    model = wiz.issues_page.model
    texts = [" ".join(str(model.cell(r, c)) for c in range(model.columnCount()))
             for r in range(model.rowCount())]
    hit = [t for t in texts if "looks like a regular general election" in t]
    assert bool(hit) is pointed_out
    if pointed_out:
        assert "municipal general election" in hit[0]
    wiz.reject()
