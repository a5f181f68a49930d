"""Screenshots of every screen at 1280×800 into a folder (default /tmp/shots), for review.

Run: QT_QPA_PLATFORM=offscreen python -m tests.ui.screenshots [folder]
Not a test: it writes PNG files for a person to look at.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication, QWidget, QWizard

DATA = Path(__file__).parent.parent / "data" / "ui"


def wait(signal: object, ms: int = 20000) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)  # type: ignore[attr-defined]
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def shot(w: QWidget, folder: Path, name: str) -> None:
    settle()
    w.grab().save(str(folder / f"{name}.png"))
    print(folder / f"{name}.png")


def main(folder: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rd-shots-"))
    os.environ["RECOUNT_DESK_DATA"] = str(tmp / "data")
    from recount_desk.app import application

    app = application(["shots"])
    from recount_desk.ui.main_window import MainWindow

    folder.mkdir(parents=True, exist_ok=True)
    w = MainWindow(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    # "Who is using the window?" answered with the roster's first person (the officer).
    w.choose_person = lambda names, _current: names[0]  # type: ignore[method-assign]
    w.resize(1280, 800)
    w.show()
    w.open_demo(fresh=True)
    wait(w.case_opened)
    house = next(r.id for r in w.rows if r.check.totals.contest.key.district == "32")
    w.contests_page.select_contest(house)
    shot(w, folder, "01_main_demo")
    shot(w.contests_page.detail, folder, "02_detail_pane")
    w.contests_page.within.setChecked(True)
    shot(w, folder, "03_main_within_margin")
    w.contests_page.within.setChecked(False)

    other = next(r.id for r in w.rows if r.id != house)
    dlg = w.record_request(other)
    assert dlg is not None
    dlg.set_filed_at(datetime(2016, 12, 6, 17, 5))  # after the demo's deadline
    shot(dlg, folder, "04_request_dialog_late")
    dlg.reason.setPlainText("Clerk's office door was locked at 4:55 p.m.; affidavit on file.")
    dlg.record_button.click()
    settle()
    w.tabs.setCurrentIndex(1)
    shot(w, folder, "05_requests_page")
    w.tabs.setCurrentIndex(0)

    nd = w.new_case()
    nd.name.setText("2026 General Election")
    nd._touched.update({"name", "jurisdiction"})
    nd.validate(True)
    shot(nd, folder, "06_new_case_dialog")
    nd.reject()

    wiz = w.import_canvass()
    assert wiz is not None
    shot(wiz, folder, "07_wizard_1_file")
    wiz.file_page.path.setText(str(DATA / "town_mapping_layout.csv"))
    wiz.button(QWizard.WizardButton.NextButton).click()
    wait(wiz.read_finished)
    settle()
    shot(wiz, folder, "08_wizard_2_format_unknown")
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "09_wizard_3_mapping")
    wiz.button(QWizard.WizardButton.NextButton).click()
    wait(wiz.read_finished)
    settle()
    shot(wiz, folder, "10_wizard_4_preview")
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "11_wizard_5_issues")
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "12_wizard_6_settings")
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "13_wizard_7_confirm_replace")
    wiz.reject()

    wiz = w.import_canvass()
    assert wiz is not None
    wiz.file_page.path.setText(str(DATA / "grand_2018_bad_vote.csv"))
    wiz.button(QWizard.WizardButton.NextButton).click()
    wait(wiz.read_finished)
    settle()
    shot(wiz, folder, "14_wizard_2_format_detected")
    wiz.button(QWizard.WizardButton.NextButton).click()
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "15_wizard_5_issues_with_error")
    wiz.reject()

    # Piute 2022 (OpenElections): a candidate spelled three ways; that contest is imported
    # with no verdict, the rest as read.
    wiz = w.import_canvass()
    assert wiz is not None
    wiz.file_page.path.setText(str(DATA.parent / "openelections" /
                                   "20221108__ut__general__piute__precinct.csv"))
    wiz.button(QWizard.WizardButton.NextButton).click()
    wait(wiz.read_finished)
    settle()
    wiz.button(QWizard.WizardButton.NextButton).click()
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "15b_wizard_5_issues_contest_withheld")
    wiz.reject()

    # Contests stacked down one sheet, a table each (session 14): read by the 'stacked'
    # family, a table each.
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from workbooks import write_workbook

    def table(title: str, cands: dict[str, list[int]]) -> list[list[object]]:
        names = ["Fremont", "Loa", "Lyman", "Teasdale"]
        return [[title], ["Precinct", *cands, "Total"],
                *[[p, *[v[k] for v in cands.values()], sum(v[k] for v in cands.values())]
                  for k, p in enumerate(names)], []]
    stacked = write_workbook(tmp / "Wayne stacked.xlsx", {"Results": [
        ["Wayne County 2020 General Election"], [],
        *table("President", {"Joseph R. Biden": [18, 35, 8, 91],
                             "Donald J. Trump": [120, 300, 140, 110]}),
        *table("County Commission Seat A", {"Ann Able": [50, 60, 70, 80],
                                            "Bob Baker": [49, 61, 70, 79]})]})
    wiz = w.import_canvass()
    assert wiz is not None
    wiz.file_page.path.setText(str(stacked))
    wiz.button(QWizard.WizardButton.NextButton).click()
    wait(wiz.read_finished)
    settle()
    shot(wiz, folder, "15c_wizard_2_stacked_tables")
    wiz.button(QWizard.WizardButton.NextButton).click()
    shot(wiz, folder, "15d_wizard_4_stacked_tables_preview")
    wiz.reject()

    shot(w.show_statute(), folder, "16_help_statute")
    shot(w.show_plain_words(), folder, "17_help_plain_words")
    about = w.show_about()
    shot(about, folder, "18_about")
    about.close()
    w.close()
    app.quit()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/shots"))
