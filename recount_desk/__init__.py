"""Recount Desk: the Utah recount workbench (Utah Code 20A-4-401)."""

__version__ = "0.1.0"
