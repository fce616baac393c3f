from hypothesis import HealthCheck, settings

from scoring.games import all_games
from tournament.models import Role, TournamentRole

#: small tournaments: the hostile suite posts hundreds of times and must stay quick on CI
SMALL = {"--teams": 6, "--pools": 1, "--players": 12}

#: CI-sized, reproducible runs (derandomize: the same examples every time)
FUZZ = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])


def demo_options(game, results):
    options = {"seed": 1, "results": results}
    for flag, kwargs in game.demo_arguments:
        options[flag.lstrip("-").replace("-", "_")] = SMALL.get(flag, kwargs.get("default"))
    return options


def build_world(make_director, django_user_model, keys, names=("boss", "helper")):
    """Small demo tournaments ("voms-played": every pool game entered), a director and an assistant (`names`)."""
    director = make_director(names[0])
    assistant = django_user_model.objects.create_user(names[1], password="pw-Helper-1")
    games = {g.key: g for g in all_games() if g.offers("demo")}
    tournaments = {}
    for key in keys:
        game = games[key.removesuffix("-played")]
        tournaments[key] = game.demo(director, **demo_options(game, results=key.endswith("-played")))
    for t in tournaments.values():
        TournamentRole.objects.create(tournament=t, user=assistant, role=Role.ASSISTANT)
        signal_a_problem(t, director)
    return {"director": director, "assistant": assistant, "tournaments": tournaments}


def signal_a_problem(tournament, director) -> None:
    """A table link and a problem signalled from it: the round page (Voms: the entry page) then has its Close
    form to walk."""
    from scoring.results.links import issue_links, issue_match_links
    from scoring.results.problems import signal_problem
    from tournament.models import Match, Round, Tournament

    # signalled while the evening ran: a played demo is finished, and a finished tournament's links record nothing
    status = Tournament.objects.filter(pk=tournament.pk)
    was = status.values_list("status", flat=True).get()
    status.update(status=Tournament.Status.RUNNING)
    round_ = Round.objects.filter(stage__tournament=tournament, tables__isnull=False).order_by("number").first()
    game = Match.objects.filter(stage__tournament=tournament, team_b__isnull=False).order_by("pk").first()
    if round_ is not None:
        signal_problem(issue_links(round_, by=director)[0], kind="dispute", note="demo")
    elif game is not None:
        signal_problem(issue_match_links(tournament, [game], by=director)[0], kind="dispute", note="demo")
    status.update(status=was)
