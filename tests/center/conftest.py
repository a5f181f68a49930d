"""The window's fixtures (tests/ui/conftest.py) for the station's window tests here."""

from tests.ui.conftest import settings, window  # noqa: F401 - fixtures used by name
