"""`manage.py import_tournament FILE --user NAME`: a tournament file as a new tournament (never merged)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from tournament.transfer import TransferError, check_tournament_file, import_tournament


class Command(BaseCommand):
    help = (
        "Import a tournament file written by export_tournament as a NEW tournament; the given user becomes "
        "its director. A taken short name gets a new one; nothing is saved if the file is refused. Roles the "
        "file gives other users are dropped unless kept with --keep-role or --keep-all-roles."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="The tournament file (.json).")
        parser.add_argument("--user", required=True, help="The user name of the importing director.")
        parser.add_argument(
            "--keep-role", action="append", default=[], metavar="NAME", dest="keep_roles",
            help="Keep the role the file gives this user (repeatable); other roles in the file are dropped.",
        )
        parser.add_argument("--keep-all-roles", action="store_true",
                            help="Keep every role the file gives users known on this server.")

    def handle(self, *args, path, user, keep_roles, keep_all_roles, **options):
        User = get_user_model()
        try:
            by = User._default_manager.get_by_natural_key(user)
        except User.DoesNotExist:
            raise CommandError(f"No user named {user!r}.") from None
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            if keep_all_roles:
                keep_roles = [role.username for role in check_tournament_file(data, by=by).roles]
            tournament = import_tournament(data, by=by, keep_roles=keep_roles)
        except TransferError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported “{tournament.name}” as /manage/{tournament.slug}/ (director: {user}).")
