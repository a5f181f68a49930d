"""python -m recount_desk: the window, or the command line when given a command."""

import sys


def main() -> int:
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-psn"):
        from recount_desk.cli import main as cli_main

        return cli_main()
    from recount_desk.app import main as app_main

    return app_main()


if __name__ == "__main__":
    raise SystemExit(main())
