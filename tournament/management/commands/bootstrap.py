"""First start on a laptop: a director account with a random password, and the demo tournaments.

The same account and demos as the one-time set-up page in the browser (tournament/services/first_start.py).
"""

import secrets

from django.conf import settings
from django.core.management import BaseCommand

from tournament.services.first_start import AccountsExist, create_director, make_demo_tournaments


class Command(BaseCommand):
    help = "On first start: create the director account (printing its password once) and the demo tournaments."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="director")
        parser.add_argument("--no-demo", action="store_true", help="Do not create the demo tournaments.")

    def handle(self, *args, username, no_demo, **options):
        password = secrets.token_urlsafe(12)
        try:
            create_director(username, password)
        except AccountsExist:
            self.stdout.write("Accounts exist already; nothing to set up.")
            return
        line = "=" * 64
        self.stdout.write(self.style.SUCCESS(line))
        self.stdout.write(self.style.SUCCESS("Director account created. It is shown only this once:"))
        self.stdout.write(self.style.SUCCESS(f"  user name: {username}"))
        self.stdout.write(self.style.SUCCESS(f"  password:  {password}"))
        manage = "tournament-manager manage" if settings.INSTALLED else "python manage.py"
        self.stdout.write(self.style.SUCCESS(f"Lost it? {manage} changepassword {username}"))
        self.stdout.write(self.style.SUCCESS(line))
        if not no_demo:
            make_demo_tournaments(stdout=self.stdout)
