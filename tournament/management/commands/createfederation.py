"""A federation above clubs, with its first admin and its member clubs (docs/server.md): the server's superuser
runs it."""

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from tournament.models import Organisation
from tournament.services.errors import DomainError
from tournament.services.federation import create_federation


class Command(BaseCommand):
    help = "Create a federation with its admin (an existing user) and, with --club, its member clubs."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The federation's name.")
        parser.add_argument("--admin", required=True, help="The user name of the federation's first admin.")
        parser.add_argument("--club", action="append", default=[], help="A member club's name (again for more).")

    def handle(self, *args, name, admin, club, **options):
        users = get_user_model()._default_manager
        user = users.filter(**{users.model.USERNAME_FIELD: admin}).first()
        if user is None:
            raise CommandError(f"There is no user “{admin}”: create the account first (manage.py createsuperuser, "
                               "or a club admin's invitation).")
        clubs = []
        for club_name in club:
            found = Organisation.objects.filter(name=club_name).first()
            if found is None:
                raise CommandError(f"There is no club “{club_name}”.")
            clubs.append(found)
        try:
            federation = create_federation(name, admin=user, clubs=clubs)
        except DomainError as error:
            raise CommandError(error.message) from None
        self.stdout.write(self.style.SUCCESS(
            f"Federation “{federation.name}” created; {admin} is its admin"
            + (f"; member clubs: {', '.join(c.name for c in clubs)}." if clubs else ".")))
