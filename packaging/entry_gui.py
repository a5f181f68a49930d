"""Entry point of the frozen window executable (recount-desk / Recount Desk.exe).

``--self-test`` runs the installation self-test and then checks that the bundled Qt starts
(platform plugin, the icon); anything else goes to the window, which receives a case file
path when the officer double-clicks a ``.recount`` file.
"""

from __future__ import annotations

import sys


def _qt_check() -> tuple[bool, str]:
    """Start a QApplication, load the bundled icon and import the window's module."""
    from PySide6 import __version__ as pyside_version
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from recount_desk.paths import resource

    app = QApplication.instance() or QApplication(sys.argv[:1])
    icon = QIcon(str(resource("icons", "recount-desk.png")))
    if icon.isNull():
        return False, "qt: FAILED — the bundled icon did not load"
    try:
        import recount_desk.app  # noqa: F401  (the window module and everything it pulls in)
    except ImportError as e:
        return False, f"qt: FAILED — the window is not available in this build ({e})"
    return True, (f"qt: ok — PySide6 {pyside_version}, platform "
                  f"{app.platformName()}, icon and window module loaded")


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        from recount_desk.selftest import main as self_test

        code = self_test()
        ok, line = _qt_check()
        print(line, flush=True)
        return code if ok else 1
    from recount_desk.app import main as app_main

    return int(app_main() or 0)


if __name__ == "__main__":
    raise SystemExit(main())
