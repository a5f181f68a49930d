"""Pieces of work queued by several chains run one per turn of the event loop, in order,
and a piece whose owner is deleted is dropped (recount_desk.ui.turns)."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from pytestqt.qtbot import QtBot

from recount_desk.ui import turns


def test_two_chains_take_turns_and_never_share_one(qtbot: QtBot) -> None:
    owner = QObject()
    ran: list[str] = []

    def chain(name: str, left: int) -> None:
        ran.append(name)
        if left > 1:
            turns.later(owner, lambda: chain(name, left - 1))

    turns.later(owner, lambda: chain("a", 3))
    turns.later(owner, lambda: chain("b", 3))
    assert ran == []  # nothing runs before the loop turns
    for _ in range(200):  # each pass of the event loop runs one piece at most
        time.sleep(0.003)
        before = len(ran)
        QCoreApplication.processEvents()
        assert len(ran) - before <= 1
        if len(ran) == 6:
            break
    assert ran == ["a", "b", "a", "b", "a", "b"]  # first queued, first run


def test_a_piece_whose_owner_is_gone_is_dropped(qtbot: QtBot) -> None:
    gone, kept = QObject(), QObject()
    ran: list[str] = []
    turns.later(gone, lambda: ran.append("gone"))
    turns.later(kept, lambda: ran.append("kept"))
    gone.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.waitUntil(lambda: ran == ["kept"], timeout=2000)
    assert ran == ["kept"]
