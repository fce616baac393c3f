"""First start on a laptop: a director account with a random password, and the demo tournaments."""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command

from scoring.games import all_games


class Command(BaseCommand):
    help = "On first start: create the director account (printing its password once) and the demo tournaments."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="director")
        parser.add_argument("--no-demo", action="store_true", help="Do not create the demo tournaments.")

    def handle(self, *args, username, no_demo, **options):
        User = get_user_model()
        if User.objects.exists():
            self.stdout.write("Accounts exist already; nothing to set up.")
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(username=username, email="", password=password)
        line = "=" * 64
        self.stdout.write(self.style.SUCCESS(line))
        self.stdout.write(self.style.SUCCESS("Director account created. It is shown only this once:"))
        self.stdout.write(self.style.SUCCESS(f"  user name: {username}"))
        self.stdout.write(self.style.SUCCESS(f"  password:  {password}"))
        manage = "tournament-manager manage" if settings.INSTALLED else "python manage.py"
        self.stdout.write(self.style.SUCCESS(f"Lost it? {manage} changepassword {username}"))
        self.stdout.write(self.style.SUCCESS(line))
        if no_demo:
            return
        for game in all_games():
            if game.demo is not None:
                call_command("demo", game.key, "--results", stdout=self.stdout)
