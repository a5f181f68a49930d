"""An empty value handed back by PySide6 leaves ``None`` its reference (recount_desk.ui.qtfix):
without the mend, PySide6 6.12 loses one per call and Python dies of "none_dealloc"."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QStandardItemModel
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

import recount_desk.ui  # noqa: F401 - installs the mend


def _calls(qtbot: QtBot) -> list[tuple[str, Callable[[], object]]]:
    model = QStandardItemModel(2, 2)
    box = QComboBox()
    qtbot.addWidget(box)
    box.addItem("no value")
    action = QAction("no value")
    keep = [model, box, action]
    return [("index", lambda: QModelIndex().data()),
            ("persistent index", lambda: QPersistentModelIndex(model.index(0, 0)).data()),
            ("model's cell", lambda: model.index(1, 1).data(Qt.ItemDataRole.ToolTipRole)),
            ("model.data", lambda: model.data(model.index(0, 0))),
            ("header", lambda: model.headerData(9, Qt.Orientation.Horizontal)),
            ("combo current", box.currentData), ("combo item", lambda: box.itemData(0)),
            ("action", action.data), ("property", lambda: keep[2].property("absent"))]


@pytest.mark.parametrize("n", range(9), ids=["index", "persistent", "cell", "model.data",
                                             "header", "combo current", "combo item",
                                             "action", "property"])
def test_an_empty_value_handed_back_keeps_nones_reference(qtbot: QtBot, n: int) -> None:
    name, call = _calls(qtbot)[n]
    before = sys.getrefcount(None)
    for _ in range(2000):
        assert call() is None
    assert sys.getrefcount(None) >= before - 50, name  # a loss would be 2,000
