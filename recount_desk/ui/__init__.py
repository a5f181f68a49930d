"""The window: PySide6 widgets and models over ``recount_desk.actions``."""
