"""A mend for PySide6's hand-back of an empty value (installed when ``recount_desk.ui`` is
imported).

PySide6 6.12 turns an invalid ``QVariant`` into Python's ``None`` without taking a
reference to it: every ``QModelIndex.data()``, ``QComboBox.currentData()`` or
``QAction.data()`` that finds no value leaves ``None`` one reference short. A session of
clicking through lists (or a test walking every cell) brings the count to zero and Python
stops with "Fatal Python error: none_dealloc" — issue 19 saw it on quitting after
switching cases. Where a probe shows the loss, each such method gives the reference back.
Should a later PySide6 keep the reference itself, the probe finds nothing and nothing is
changed (and a reference too many on ``None`` would be harmless, ``None`` lives for ever).
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex
from PySide6.QtGui import QAction, QStandardItem
from PySide6.QtWidgets import (
    QComboBox,
    QListWidgetItem,
    QTabBar,
    QTableWidgetItem,
    QTreeWidgetItem,
)

_INCREF = ctypes.pythonapi.Py_IncRef
_INCREF.argtypes = [ctypes.py_object]
_INCREF.restype = None

# The methods that hand back a QVariant as a Python value.
_HANDING_BACK: list[tuple[type, str]] = [
    (QModelIndex, "data"), (QPersistentModelIndex, "data"), (QAbstractItemModel, "data"),
    (QAbstractItemModel, "headerData"), (QComboBox, "currentData"), (QComboBox, "itemData"),
    (QAction, "data"), (QStandardItem, "data"), (QListWidgetItem, "data"),
    (QTreeWidgetItem, "data"),
    (QTableWidgetItem, "data"), (QTabBar, "tabData"), (QObject, "property"),
]


def loses_a_reference() -> bool:
    """Whether an empty value handed back leaves ``None`` a reference short."""
    before = sys.getrefcount(None)
    for _ in range(20):
        QModelIndex().data()
    return sys.getrefcount(None) < before - 10


def _mended(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kw: Any) -> Any:
        value = method(*args, **kw)
        if value is None:
            _INCREF(None)  # the reference PySide6 did not take
        return value

    call.__mended__ = True  # type: ignore[attr-defined]
    return call


def install() -> bool:
    """Mend the methods if this PySide6 needs it (once); True when they are mended."""
    if getattr(QModelIndex.data, "__mended__", False):
        return True
    if not loses_a_reference():
        return False
    from PySide6 import QtCore, QtGui, QtWidgets

    # Named, not found by walking the modules: PySide6 makes a class at its first use, and
    # one made after this would come without the mend.
    models = [getattr(m, name) for m, name in (
        (QtGui, "QStandardItemModel"), (QtCore, "QStringListModel"),
        (QtGui, "QFileSystemModel"), (QtCore, "QSortFilterProxyModel"),
        (QtCore, "QIdentityProxyModel"), (QtCore, "QAbstractProxyModel"),
        (QtCore, "QConcatenateTablesProxyModel"), (QtCore, "QTransposeProxyModel"),
        (QtWidgets, "QTreeWidgetItem"))
        if hasattr(m, name)]
    for cls in {cls for cls, _name in _HANDING_BACK} | set(models):
        for base, name in _HANDING_BACK:
            if issubclass(cls, base) and name in vars(cls):
                setattr(cls, name, _mended(vars(cls)[name]))
    return True
