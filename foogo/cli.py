"""The `foogo` command: `foogo gtp | bench | stats | match | compile`.

Each subcommand lives in its own module, which provides `configure_parser(parser)`
and `run(args) -> exit code`; modules are imported only when their command runs,
so `foogo bench` never loads the GTP engine and `foogo gtp` starts quickly.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "gtp": ("gtp", "play over the Go Text Protocol on stdin/stdout (GoGui, Sabaki, KGS, twogtp)"),
    "bench": ("bench", "playout throughput benchmark, light or heavy (libego-style report)"),
    "stats": ("stats", "first-move-advantage statistics from random playouts or self-play"),
    "match": ("match_command", "play engines against each other over GTP, GNU Go as referee"),
    "compile": ("compile_kernels", "compile every kernel into numba's cache ahead of use, in parallel"),
}


class _VersionAction(argparse.Action):
    """--version: version.source_version, looked up only when asked (it may run git)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from .version import source_version
        print(f"foogo {source_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command (their modules loaded lazily)."""
    parser = argparse.ArgumentParser(prog="foogo", description="foogo: a Monte Carlo Go engine")
    parser.add_argument("--version", action=_VersionAction, help="show foogo's version (with its commit, run "
                        "from a git checkout) and exit")
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(COMMANDS) + "}")
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, description=help_text, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `foogo` console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or argv[0] not in COMMANDS:
        parser.parse_args(argv)  # prints help or a usage error for unknown commands
        parser.print_help(sys.stderr)
        return 2
    name = argv[0]
    module = importlib.import_module(f".{COMMANDS[name][0]}", __package__)
    sub = argparse.ArgumentParser(prog=f"foogo {name}", description=COMMANDS[name][1])
    module.configure_parser(sub)
    args = sub.parse_args(argv[1:])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        print(f"foogo {name}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
