"""`manage.py import_tournament FILE --user NAME`: a tournament file as a new tournament (never merged)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from tournament.transfer import TransferError, import_tournament


class Command(BaseCommand):
    help = (
        "Import a tournament file written by export_tournament as a NEW tournament; the given user becomes "
        "its director. A taken short name gets a new one; nothing is saved if the file is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="The tournament file (.json).")
        parser.add_argument("--user", required=True, help="The user name of the importing director.")

    def handle(self, *args, path, user, **options):
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
            tournament = import_tournament(data, by=by)
        except TransferError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported “{tournament.name}” as /manage/{tournament.slug}/ (director: {user}).")
