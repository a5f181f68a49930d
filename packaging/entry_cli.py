"""Entry point of the frozen console executable (recount-desk-cli): the command line."""

from __future__ import annotations

import sys

from recount_desk.cli import main

if __name__ == "__main__":
    sys.exit(main())
