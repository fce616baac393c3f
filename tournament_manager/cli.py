"""The console command `tournament-manager` (also `python -m tournament_manager`).

    tournament-manager                      serve on 127.0.0.1:8000 and open the browser
    tournament-manager serve [--host H] [--port N] [--hall] [--no-browser] [--no-demo] [--data-dir DIR]
    tournament-manager manage <command> …   any manage.py command (changepassword, backup, restore, …)
    tournament-manager --version

`serve` is the management command of the same name (tournament/management/commands/serve.py) with the set-up page
in the browser instead of a password printed in the terminal. `--data-dir` (or the variable DATA_DIR) chooses the
data folder before Django reads its settings; the default is the user's data folder (settings.DATA_DIR).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tournament_manager import __version__

PROG = "tournament-manager"
DATA_DIR_HELP = ("the folder of the database, the backups and the secret key (default: this user's data folder, "
                 "or the variable DATA_DIR)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Tournament manager for card and table games. Without a command: serve on "
                               "http://127.0.0.1:8000 and open it in the browser.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--data-dir", type=Path, help=DATA_DIR_HELP)
    parser.set_defaults(command=None, host=None, port=8000, hall=False, no_browser=False, no_demo=False)
    commands = parser.add_subparsers(dest="command", metavar="command")
    serve = commands.add_parser("serve", help="serve the app (the default)",
                                description="Serve the app; the first start opens the set-up page in the browser.")
    serve.add_argument("--host", help="the address to listen on (default 127.0.0.1: this computer only)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument("--hall", action="store_true",
                       help="let the hall's other laptops and phones in (prints the address to open there)")
    serve.add_argument("--no-browser", action="store_true", help="do not open the browser")
    serve.add_argument("--no-demo", action="store_true", help="(with a terminal set-up) no demo tournaments")
    serve.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS, help=DATA_DIR_HELP)
    commands.add_parser("manage", help="run a manage.py command, e.g. `manage changepassword director`",
                        add_help=False)
    return parser


def split_manage(argv: list[str]) -> tuple[list[str], list[str]]:
    """(what this command parses, what goes to Django untouched): everything after `manage` is Django's."""
    index = 0
    while index < len(argv):
        if argv[index] == "--data-dir":
            index += 2
        elif argv[index].startswith("--data-dir="):
            index += 1
        else:
            break
    if index < len(argv) and argv[index] == "manage":
        return argv[: index + 1], argv[index + 1:]
    return argv, []


def serve_arguments(options: argparse.Namespace) -> list[str]:
    """The `serve` management command's arguments for these options."""
    arguments = ["serve", "--port", str(options.port), "--setup-in-browser"]
    if options.host:
        arguments += ["--host", options.host]
    if options.hall:
        arguments.append("--hall")
    if options.no_demo:
        arguments.append("--no-demo")
    if not options.no_browser:
        arguments.append("--open-browser")
    return arguments


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    head, django_arguments = split_manage(argv)
    options = build_parser().parse_args(head)
    if options.data_dir is not None:
        # before Django reads its settings (config/settings.py: DATA_DIR), and for the serving child too
        os.environ["DATA_DIR"] = str(options.data_dir.expanduser().resolve())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if options.command == "manage":
        arguments = django_arguments or ["help"]
    else:
        arguments = serve_arguments(options)
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line([f"{PROG} manage" if options.command == "manage" else PROG, *arguments])
    except KeyboardInterrupt:
        return 130
    return 0
