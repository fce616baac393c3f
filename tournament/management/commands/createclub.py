"""A club on a server shared by clubs, with its first admin (docs/server.md): the server's superuser runs it."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from tournament.services.clubs import create_club, password_link
from tournament.services.errors import DomainError


class Command(BaseCommand):
    help = ("Create a club with its admin. A user name that has no account yet gets one, and a one-time link where "
            "its owner chooses the password.")

    def add_arguments(self, parser):
        parser.add_argument("name", help="The club's name.")
        parser.add_argument("--admin", required=True, help="The user name of the club's first admin.")

    def handle(self, *args, name, admin, **options):
        users = get_user_model()._default_manager
        user = users.filter(**{users.model.USERNAME_FIELD: admin}).first()
        made = user is None
        if made:
            user = users.create_user(**{users.model.USERNAME_FIELD: admin})
            user.set_unusable_password()
            user.save(update_fields=["password"])
        try:
            club = create_club(name, user)
        except DomainError as error:
            if made:
                user.delete()
            raise CommandError(error.message) from None
        self.stdout.write(self.style.SUCCESS(f"Club “{club.name}” created; {admin} is its admin."))
        if made:
            base = (getattr(settings, "PUBLIC_BASE_URL", "") or "").rstrip("/")
            self.stdout.write(f"{admin} chooses a password at: {base}{password_link(user)}")
