"""The window: PySide6 widgets and models over ``recount_desk.actions``."""

from .qtfix import install as _mend_pyside

_mend_pyside()  # before any widget hands back a value (see qtfix)
