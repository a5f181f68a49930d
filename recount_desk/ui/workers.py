"""Long work off the GUI thread: a QRunnable on the global QThreadPool, with signals.

The function run takes ``(on_progress, cancelled)`` like the actions do and knows nothing of
Qt. Workers never touch widgets: they emit ``finished``, ``failed`` or ``cancelled`` and the
window reacts in its own thread.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

Progress = Callable[[int, int], None]
Job = Callable[[Progress, Callable[[], bool]], Any]


class WorkerSignals(QObject):
    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(object)
    cancelled = Signal()


class Worker(QRunnable):
    """Runs ``job(on_progress, cancelled)`` in the thread pool."""

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job
        self.signals = WorkerSignals()
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:
        from recount_desk.actions.canvass import Cancelled

        try:
            result = self.job(self.signals.progressed.emit, self.is_cancelled)
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as e:  # the worker boundary: every failure goes back to the window
            self.signals.failed.emit(e)
        else:
            if self._cancel.is_set():
                self.signals.cancelled.emit()
            else:
                self.signals.finished.emit(result)


class GuiThreadCollector(QObject):
    """Python's cyclic garbage collected on the GUI thread only.

    Left automatic, a collection may start in a worker (any allocation can start one) and
    free a widget there: Qt then crashes ("Fatal Python error: Segmentation fault ...
    Garbage-collecting" in a pool thread). The same thresholds are checked from a timer
    on the GUI thread, so a young generation is collected as often as before."""

    def __init__(self, interval_ms: int = 250) -> None:
        super().__init__()
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        young, middle, old = gc.get_count()
        t0, t1, t2 = self.thresholds
        if young > t0:
            gen = 2 if middle > t1 and old > t2 else 1 if middle > t1 else 0
            gc.collect(gen)


_COLLECTOR: list[GuiThreadCollector] = []


def collect_on_gui_thread() -> None:
    """Install the collector once per process (the window does, on the GUI thread)."""
    if not _COLLECTOR:
        _COLLECTOR.append(GuiThreadCollector())


# Workers in flight, so that Python keeps their signal objects alive until they finish.
_RUNNING: set[Worker] = set()


def start(job: Job, *, on_done: Callable[[Any], None],
          on_failed: Callable[[BaseException], None] | None = None,
          on_cancelled: Callable[[], None] | None = None,
          parent: QWidget | None = None, title: str | None = None,
          label: str = "") -> Worker:
    """Run ``job`` in the pool; with ``title``, show a progress dialog with Cancel after
    a short moment (quick jobs never flash a dialog)."""
    worker = Worker(job)
    worker.setAutoDelete(False)
    _RUNNING.add(worker)
    dialog: QProgressDialog | None = None
    if title is not None:
        dialog = QProgressDialog(label or title, "Cancel", 0, 0, parent)
        dialog.setWindowTitle(title)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(400)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumWidth(420)
        dialog.setAccessibleName(title)
        dialog.canceled.connect(worker.cancel)

        def progressed(done: int, total: int) -> None:
            if dialog is None:
                return
            dialog.setMaximum(max(total, 0))
            dialog.setValue(min(done, total))

        worker.signals.progressed.connect(progressed)

    def finish() -> None:
        _RUNNING.discard(worker)
        if dialog is not None:
            dialog.canceled.disconnect(worker.cancel)
            shown = dialog.isVisible()
            # reset() stops the timer that shows the dialog after its minimum duration:
            # hidden before that, it would show itself later, over whatever the job's end
            # opened (the demo's "Who is using Recount Desk?" was left under it).
            dialog.reset()
            dialog.hide()
            dialog.deleteLater()
            if shown and parent is not None:
                # The keyboard goes back to the window the progress dialog covered (some
                # platforms leave no window active when a modal dialog closes).
                parent.window().activateWindow()

    def done(result: object) -> None:
        finish()
        on_done(result)

    def failed(error: object) -> None:
        finish()
        if on_failed is not None:
            on_failed(error)  # type: ignore[arg-type]
        else:
            raise error  # type: ignore[misc]

    def cancelled() -> None:
        finish()
        if on_cancelled is not None:
            on_cancelled()

    worker.signals.finished.connect(done)
    worker.signals.failed.connect(failed)
    worker.signals.cancelled.connect(cancelled)
    QThreadPool.globalInstance().start(worker)
    return worker


def wait_all(timeout_ms: int = 30000) -> bool:
    """Wait for the pool (used when the window closes, so no write is cut short)."""
    return QThreadPool.globalInstance().waitForDone(timeout_ms)
