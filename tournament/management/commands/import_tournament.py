"""`manage.py import_tournament FILE --user NAME`: a tournament file as a new tournament (never merged), or with
`--update` the new content of the tournament of the file's identity (tournament/transfer_update.py).

A file whose tournament is here already is refused unless `--update` (its director replaces its content; the
state replaced is kept as a snapshot; an older file also needs `--older`) or `--as-new` (a copy of its own).

Where the file's person may be one of several register entries here (same name and club more than once, or
that name in another club), the command asks, as the web import does: that entry, or a new entry. With
`--no-input` it asks nothing and makes a new entry for each (nobody is linked to someone they may not be; two
entries of one person can be merged in the register later), and says so for each.
"""

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.transfer import FoundPerson, TransferError, check_tournament_file, import_tournament
from tournament.transfer_update import update_tournament

NEW = "n"


class Command(BaseCommand):
    help = (
        "Import a tournament file written by export_tournament as a NEW tournament; the given user becomes "
        "its director. A taken short name gets a new one; nothing is saved if the file is refused. Roles the "
        "file gives other users are dropped unless kept with --keep-role or --keep-all-roles. Where a person "
        "of the file may be one of several register entries here, the command asks (--no-input: a new entry)."
    )
    # call_command(..., stdin=...) in tests: the answers to the questions
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="The tournament file (.json).")
        parser.add_argument("--user", required=True, help="The user name of the importing director.")
        parser.add_argument(
            "--keep-role", action="append", default=[], metavar="NAME", dest="keep_roles",
            help="Keep the role the file gives this user (repeatable); other roles in the file are dropped.",
        )
        parser.add_argument("--keep-all-roles", action="store_true",
                            help="Keep every role the file gives users known on this server.")
        parser.add_argument("--update", action="store_true",
                            help="The file is a tournament here: replace its content with the file's.")
        parser.add_argument("--older", action="store_true",
                            help="With --update: replace it even with a file that holds fewer score sheets.")
        parser.add_argument("--as-new", action="store_true",
                            help="The file is a tournament here: import it as a new tournament all the same.")
        parser.add_argument(
            "--no-input", "--noinput", action="store_false", dest="interactive",
            help="Ask nothing: a person whose register entry is unsure gets a new entry (merge later if needed).",
        )

    def handle(self, *args, path, user, keep_roles, keep_all_roles, interactive=True, update=False, older=False,
               as_new=False, **options):
        self.stdin = options.get("stdin") or sys.stdin
        User = get_user_model()
        try:
            by = User._default_manager.get_by_natural_key(user)
        except User.DoesNotExist:
            raise CommandError(_("No user named %(user)s.") % {"user": repr(user)}) from None
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(_("Cannot read %(path)s: %(error)s") % {"path": path, "error": error}) from None
        try:
            preview = check_tournament_file(data, by=by)
            if keep_all_roles:
                keep_roles = [role.username for role in preview.roles]
            people = {person.key: self.ask(person) if interactive else self.new_entry(person)
                      for person in preview.people}
            notes: list[str] = []
            if update:
                if preview.existing is None:
                    raise CommandError(_("The file's tournament is not on this server: import it without --update."))
                tournament = update_tournament(preview.existing, data, by=by, people=people, older_ok=older,
                                               notes=notes)
            else:
                tournament = import_tournament(data, by=by, keep_roles=keep_roles, people=people, as_new=as_new,
                                               notes=notes)
        except TransferError as error:
            raise CommandError(str(error)) from None
        for note in notes:
            self.stdout.write(note)
        if update:
            self.stdout.write(_("Updated “%(name)s” at /manage/%(slug)s/ from the file.")
                              % {"name": tournament.name, "slug": tournament.slug})
            return
        self.stdout.write(_("Imported “%(name)s” as /manage/%(slug)s/ (director: %(user)s).")
                          % {"name": tournament.name, "slug": tournament.slug, "user": user})

    def new_entry(self, person: FoundPerson) -> None:
        self.stdout.write(_("%(person)s: a new register entry (not asked: --no-input). If it is the same person "
                            "as an entry already there, merge the two in the register.") % {"person": person.label})
        return None

    def ask(self, person: FoundPerson) -> int | None:
        """The importer's answer for one unsure person: a register entry's key, or None for a new entry."""
        self.stdout.write(_("%(person)s in the file may be someone the register already has:")
                          % {"person": person.label})
        for number, (pk, label) in enumerate(person.candidates, start=1):
            self.stdout.write("  " + _("%(number)s: the same person as %(entry)s (register entry %(pk)s)")
                              % {"number": number, "entry": label, "pk": pk})
        self.stdout.write("  " + _("%(key)s: someone else: a new register entry") % {"key": NEW})
        last = len(person.candidates)
        choices = "1" if last == 1 else f"1–{last}"
        while True:
            self.stdout.write(_("Your answer (%(choices)s or %(key)s): ") % {"choices": choices, "key": NEW},
                              ending="")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise CommandError(_("No answer for %(person)s: nothing was imported.") % {"person": person.label})
            answer = line.strip().casefold()
            if answer == NEW:
                return None
            if answer.isdigit() and 1 <= int(answer) <= last:
                return person.candidates[int(answer) - 1][0]
            self.stdout.write(_("Please answer with a number from %(choices)s, or %(key)s for a new entry.")
                              % {"choices": choices, "key": NEW})
