"""Work the window does in pieces, one piece per turn of the event loop.

Opening a case builds pages, fills them, fits columns and deletes the pages shown before:
each is cut into pieces short enough not to stall the window (benchmarks/gui_keystroke.py).
Two chains of pieces each on its own timer would fire in the same pass of the event loop
and add up to one long stall; here every piece, whoever queued it, waits for its own turn,
and between two turns the window paints and takes input.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QTimer


class Turns(QObject):
    """A queue of pieces of work run one per turn of the event loop, first come first."""

    def __init__(self) -> None:
        super().__init__()
        self._queue: deque[tuple[QObject, Callable[[], Any]]] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._run)

    def later(self, owner: QObject, piece: Callable[[], Any]) -> None:
        """Run ``piece`` in a turn of its own, unless ``owner`` is deleted before then."""
        self._queue.append((owner, piece))
        if not self._timer.isActive():
            self._timer.start()

    def pending(self) -> int:
        return len(self._queue)

    def _run(self) -> None:
        while self._queue:
            owner, piece = self._queue.popleft()
            if shiboken6.isValid(owner):
                try:
                    piece()
                finally:
                    if self._queue:
                        self._timer.start()
                return


_TURNS: list[Turns] = []


def later(owner: QObject, piece: Callable[[], Any]) -> None:
    """Queue ``piece`` for a turn of its own (see the module's docstring)."""
    if not _TURNS:
        _TURNS.append(Turns())
    _TURNS[0].later(owner, piece)
