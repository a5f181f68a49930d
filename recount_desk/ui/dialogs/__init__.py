"""Dialogs: new case, import wizard, recount request, help texts."""
