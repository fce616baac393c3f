"""Voms teams before the draw: players without a partner, partners by lot, the import of a registration list."""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.imports import ImportFileError, read_table, refuse_after_play
from tournament.models import Draw, Participant, Stage, Team
from tournament.permissions import require_director
from tournament.services.audit import log_action
from tournament.services.errors import DomainError
from tournament.services.participants import (
    ImportReport,
    name_warnings,
    new_player,
    next_team_number,
    refuse_team_after_play,
    register_team,
    split_name,
)
from tournament.services.replay import claim
from tournament.services.text import same_name

from ..queries import players_without_team


def _refuse_after_draw(tournament) -> None:
    if Stage.objects.filter(tournament=tournament, kind=Stage.Kind.POOLS).exists():
        raise DomainError(_("The pools are drawn already: redo the draw after changing the teams."))


def register_individual(tournament, *, by, name: str, sent=None) -> Participant:
    """A player without a partner yet: partners are drawn by lot (`draw_partners`)."""
    require_director(by, tournament)
    refuse_team_after_play(tournament)  # a player without a partner would play in no team and no pool
    if not name.strip():
        raise DomainError(_("Type the player's name."), field="name")
    with transaction.atomic():
        claim(sent, by=by, action="participant.add", what=name.strip())
        player = new_player(tournament, *split_name(name))
        log_action("participant.add", by=by, tournament=tournament, obj=player, after={"name": player.name})
    return player


def draw_partners(tournament, *, by, seed: int | None = None, sent=None) -> list[Team]:
    """Pair the players without a team by lot; with an odd number one plays alone."""
    require_director(by, tournament)
    _refuse_after_draw(tournament)
    players = list(players_without_team(tournament))
    if len(players) < 2:
        raise DomainError(_("At least two players without a partner are needed to draw partners."))
    seed = secrets.randbelow(10**9) if seed is None else seed
    random.Random(f"partners:{seed}").shuffle(players)
    teams = []
    with transaction.atomic():
        claim(sent, by=by, action="draw.partners", what=_("Partners drawn: %(count)s teams.")
              % {"count": (len(players) + 1) // 2})
        Draw.objects.create(tournament=tournament, kind=Draw.Kind.PARTNERS, seed=seed, created_by=by,
                            params={"players": [p.pk for p in players]})
        for i in range(0, len(players), 2):
            pair = players[i:i + 2]
            team = Team.objects.create(tournament=tournament, number=next_team_number(tournament),
                                       name=" & ".join(p.name for p in pair))
            team.members.set(pair)
            teams.append(team)
        log_action("draw.partners", by=by, tournament=tournament, obj=tournament,
                   after={"seed": seed, "teams": [t.name for t in teams]})
    return teams


#: what the "seeded" column may say (any case); anything else is refused with its row
SEEDED_YES = frozenset({"1", "x", "yes", "y", "ja", "j", "true"})

SEEDED_NO = frozenset({"", "0", "no", "n", "nein", "nej", "false", "-"})


def import_teams(tournament, filename: str, data: bytes, *, by, sent=None,
                 confirm_duplicates: bool = False) -> ImportReport:
    """Teams from a list with the columns team, player 1, player 2 (optional), seeded (optional).

    A list without a team column is read as individual players (first name, last name), to be
    paired by `draw_partners`. If any row is rejected, nothing is imported. A player's name twice (in the list
    or registered already), or a team whose players are those of a team registered already under another name,
    holds the import back with a warning until the director confirms it (`confirm_duplicates`).
    """
    require_director(by, tournament)
    report = ImportReport()
    try:
        refuse_after_play(tournament)
        parsed = read_table(filename, data, required=())
    except ImportFileError as error:
        report.rejected.append((0, str(error)))
        return report
    report.rejected.extend(parsed.rejected)
    columns = set().union(*(row.keys() for _n, row in parsed.rows)) if parsed.rows else set()
    as_teams = "team" in columns or "player1" in columns
    if not as_teams and "last_name" not in columns:
        report.rejected.append((1, _("The first row must name the columns: team, player 1, player 2 — or "
                                     "first name, last name for players without a partner.")))
        return report
    seen = set(tournament.teams.filter(withdrawn=False).values_list("name", flat=True))
    seen = {n.lower() for n in seen}
    wanted = []
    names = []  # (row, a player's full name): each checked for a second registration
    for row_number, row in parsed.rows:
        if as_teams:
            players = [row.get("player1", ""), row.get("player2", "")]
            players = [p for p in players if p]
            name = row.get("team", "") or " & ".join(players)
            seeded = row.get("seeded", "").lower()
            if not players:
                report.rejected.append((row_number, _("The team has no players.")))
            elif name.lower() in seen:
                report.rejected.append((row_number, _("There is a team called “%(name)s” already.") % {"name": name}))
            elif seeded not in SEEDED_YES | SEEDED_NO:
                report.rejected.append((row_number, _(
                    "“%(value)s” in the column Seeded: write yes (or x, 1) for a seeded team, no or nothing "
                    "for the others.") % {"value": row["seeded"]}))
            else:
                seen.add(name.lower())
                wanted.append((row_number, name, players, seeded in SEEDED_YES))
                names += [(row_number, player) for player in players]
        elif not row.get("last_name"):
            report.rejected.append((row_number, _("The last name is missing.")))
        else:
            name = f"{row.get('first_name', '')} {row['last_name']}"
            wanted.append((row_number, None, [name], False))
            names.append((row_number, name))
    if report.rejected:
        return report
    report.warnings = sorted(name_warnings(names, tournament) + _same_players_warnings(tournament, wanted),
                             key=lambda item: item[0])
    if report.warnings and not confirm_duplicates:
        return report
    with transaction.atomic():
        claim(sent, by=by, action="team.import", what=filename)
        for _row, name, players, seeded in wanted:
            if name is None:
                report.created.append(register_individual(tournament, by=by, name=players[0]))
            else:
                team = register_team(tournament, by=by, name=name, players=players, seeded=seeded,
                                     confirm_duplicate=True, imported_from=filename)  # rows checked above
                report.created.extend(team.members.all())
                report.teams += 1
        log_action("team.import", by=by, tournament=tournament, obj=tournament,
                   after={"file": filename, "teams": report.teams, "players": len(report.created)},
                   reason=_("the warnings about names in the list, confirmed") if report.warnings else "")
    return report


def _same_players_warnings(tournament, wanted) -> list[tuple[int, str]]:
    """A team of the list whose players are those of a team registered already (or of an earlier row) under
    another name: most likely one team registered twice."""
    def players_key(names) -> frozenset:
        return frozenset(same_name(n) for n in names)

    known = {}
    for team in tournament.teams.filter(withdrawn=False).prefetch_related("members").order_by("number"):
        known.setdefault(players_key(p.name for p in team.members.all()), _("team %(number)s “%(name)s”")
                         % {"number": team.number, "name": team.name})
    warnings = []
    for row_number, name, players, _seeded in wanted:
        if name is None:
            continue
        key = players_key(players)
        if key in known:
            warnings.append((row_number, _("“%(name)s” has the same players as %(team)s.")
                             % {"name": name, "team": known[key]}))
        else:
            known[key] = _("row %(row)s “%(name)s”") % {"row": row_number, "name": name}
    return warnings
