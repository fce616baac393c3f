import datetime
from decimal import Decimal

import pytest
from django.utils import timezone


@pytest.fixture
def seated(director, db):
    """A seated game built straight from the models: rounds, tables, seats with a substitute, a sheet
    with two revisions, a draw, a team, an assistant, and audit values with decimals and dates."""
    return build_seated(director)


def build_seated(director):
    """`seated`, for build_once too."""
    from django.contrib.auth import get_user_model

    from scoring.games.schafkopf.checks import sheet_derive as schafkopf_derive
    from scoring.models import ScoreSheet, SheetRevision
    from tournament.models import Draw, Participant, Role, Round, Seat, Stage, Table, Team, TournamentRole
    from tournament.services.audit import log_action
    from tournament.services.tournaments import create_tournament

    tournament = create_tournament(by=director, name="Schafkopf night", game="schafkopf",
                                   date=datetime.date(2026, 12, 5))
    helper = get_user_model().objects.create_user("helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=tournament, user=helper, role=Role.ASSISTANT)
    names = ["Søren Ærø", "Anna Huber", "Sepp Maier", "Resi Mayr", "Kurt Ölz", "Lena Berg", "Toni Gruber",
             "Vroni Bauer"]
    players = [
        Participant.objects.create(tournament=tournament, number=n, first_name=name.split()[0],
                                   last_name=name.split()[1], club="SK Dorf" if n % 2 else "", group="")
        for n, name in enumerate(names, start=1)
    ]
    players[7].status, players[7].status_reason = Participant.Status.WITHDRAWN, "ill"
    players[7].save()
    team = Team.objects.create(tournament=tournament, number=1, name="Stammtisch", seeded=True)
    team.members.set([players[3], players[0]])
    Draw.objects.create(tournament=tournament, kind=Draw.Kind.SEATING, seed=2**40 + 7,
                        params={"rounds": 2, "tables": 2, "b": [1, 2]}, created_by=director)
    stage = Stage.objects.create(tournament=tournament, kind=Stage.Kind.ROUNDS, settings={"rounds": 2})
    for number in (1, 2):
        round_ = Round.objects.create(stage=stage, number=number, starts_at=timezone.now() if number == 1 else None)
        for t in (1, 2):
            table = Table.objects.create(round=round_, number=t)
            for seat in range(1, 5):
                player = players[(t - 1) * 4 + (seat - 1 + number - 1) % 4]
                Seat.objects.create(table=table, number=seat, participant=player,
                                    substitute=players[6] if player == players[7] else None,
                                    points_to_substitute=player == players[7])
    table = Table.objects.get(round__stage=stage, round__number=1, number=1)
    derive = schafkopf_derive(tournament, match=None, table=table)
    first = totals_list(30, -10, -10, -10)
    sheet = ScoreSheet.objects.create(tournament=tournament, table=table, mode="totals", entries=first,
                                      derived=derive(first, "totals"), entered_by=helper)
    SheetRevision.objects.create(sheet=sheet, version=1, kind="entry", entries=first, by=helper)
    second = totals_list(20, 0, -10, -10)
    sheet.entries, sheet.derived, sheet.version, sheet.corrected = second, derive(second, "totals"), 2, True
    sheet.save()
    SheetRevision.objects.create(sheet=sheet, version=2, kind="correction", entries=second, by=director,
                                 reason="misread 30")
    log_action("sheet.correction", by=director, tournament=tournament, obj=table, before={"entries": first},
               after={"entries": second, "bonus": Decimal("2.5"), "day": datetime.date(2026, 3, 1)},
               reason="misread 30")
    return tournament


def totals_list(*totals: int) -> list[dict]:
    """A Schafkopf score list entered as totals per seat (what `ScoreSheet.entries` holds)."""
    return [{"seat": seat, "total": total} for seat, total in enumerate(totals, start=1)]


def delete_tournament(tournament) -> None:
    """Remove a tournament with every row, as on a machine that never had it (PROTECT links and all)."""
    from tournament.transfer import rows_of, tournament_models

    for plan in reversed(tournament_models()):
        rows_of(plan, tournament).delete()


def row_counts(tournament) -> dict[str, int]:
    from tournament.transfer import rows_of, tournament_models

    return {plan.label: rows_of(plan, tournament).count() for plan in tournament_models()}


def all_rows() -> dict[str, int]:
    from tournament.transfer import tournament_models

    return {plan.label: plan.model._base_manager.count() for plan in tournament_models()}


# --- the club's server of the laptop-to-server tests: a process of its own -------------------------------------

CLUB_SERVER_SETUP = """
from django.contrib.auth import get_user_model
from tournament.services.api_tokens import make_token
from tournament.services.clubs import create_club
users = get_user_model().objects
club = create_club("Server club", users.create_user("boss", password="pw-Boss-12345"))
create_club("Another club", users.create_user("other", password="pw-Other-12345"))
token, text = make_token(club, by=users.get(username="boss"), name="Club laptop", scopes=["push", "read"])
print("TOKEN", text)
"""


@pytest.fixture(scope="module")
def club_server_process(tmp_path_factory):
    """A club server of its own: migrated, with two clubs, the first one's admin and token; its address and token."""
    import subprocess
    import sys
    from pathlib import Path

    from tests.ops.test_serving import clean_environment, free_port
    from tests.server_output import ServerOutput

    root = Path(__file__).resolve().parents[2]
    data = tmp_path_factory.mktemp("server-data")
    env = clean_environment(DATA_DIR=str(data), STATIC_ROOT=str(data / "static"), PYTHONPATH=str(root))
    manage = [sys.executable, str(root / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=root, env=env, check=True, timeout=600)
    # its pages' static files, as a server's deployment collects them (the manifest names them)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=root, env=env, check=True, timeout=600)
    made = subprocess.run([*manage, "shell", "-c", CLUB_SERVER_SETUP], cwd=root, env=env, check=True,
                          capture_output=True, text=True, timeout=300)
    token = made.stdout.split("TOKEN ")[1].strip()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "waitress", f"--listen=127.0.0.1:{port}", "config.wsgi:application"],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        ServerOutput(process).wait_for(rf"Serving on http://127\.0\.0\.1:{port}", timeout=300)
        yield {"url": f"http://127.0.0.1:{port}", "token": token}
    finally:
        process.terminate()
        process.wait(timeout=60)
