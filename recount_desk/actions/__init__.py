"""The user's actions as plain functions: each one transaction and one audit entry.

Both the window (``recount_desk.ui``) and the command line (``recount_desk.cli``) call these
and nothing below them, so the two never diverge.
"""
