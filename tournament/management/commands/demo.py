"""`manage.py demo <game> [options]`: create a complete demo tournament of a game."""

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from scoring.games import all_games, get_game


class Command(BaseCommand):
    help = "Create a demo tournament of the given game (options depend on the game)."

    def add_arguments(self, parser):
        games = parser.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=type(parser))
        for game in all_games():
            if not game.offers("demo"):
                continue
            sub = games.add_parser(game.key, help=str(game.name), called_from_command_line=False)
            sub.add_argument("--seed", type=int, default=None, help="Seed for the draw and the results.")
            sub.add_argument("--results", action="store_true", help="Also enter realistic random results.")
            sub.add_argument("--director", default=None, help="User name of the director (default: first superuser).")
            for flag, kwargs in game.demo_arguments:
                sub.add_argument(flag, **kwargs)

    def handle(self, *args, game, director, **options):
        chosen = get_game(game)
        User = get_user_model()
        user = (
            User.objects.filter(username=director).first()
            if director
            else User.objects.filter(is_superuser=True).order_by("pk").first()
        )
        if user is None:
            raise CommandError("No director account: run `python manage.py bootstrap` or name one with --director.")
        keys = ("seed", "results") + tuple(flag.lstrip("-").replace("-", "_") for flag, _ in chosen.demo_arguments)
        tournament = chosen.demo(user, **{k: options[k] for k in keys})
        self.stdout.write(f"Created demo tournament {tournament.name!r} ({tournament.slug}).")
