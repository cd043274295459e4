"""The `flamme-tui` command: the app, and headless tools (conformance, race, bench)."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="flamme-tui", description="Flamme Rouge in the terminal, for hot-seat play.")
    sub = parser.add_subparsers(dest="command")

    conf = sub.add_parser("conformance", help="run rules conformance cases")
    conf.add_argument("paths", nargs="+", metavar="PATH", help="case files or folders of *.yaml")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "conformance":
        from .conformance import main as run

        return run(args.paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
