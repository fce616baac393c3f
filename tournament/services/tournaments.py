"""Creating, editing and archiving tournaments."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import connections, router, transaction
from django.db.models import BooleanField, ExpressionWrapper, Value
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

from scoring.games import game_of, is_game

from ..models import Role, Tournament, TournamentRole
from ..models.tournament import installation_time_zone
from ..permissions import is_director
from ..tenancy import directs_in, organisation_of
from .audit import log_action
from .errors import DomainError

EDITABLE_FIELDS = ("name", "game", "date", "venue", "time_zone", "language", "status", "entry_fee", "double_entry",
                   "link_entries_count", "agreeing_reports_count")


def _snapshot(tournament: Tournament) -> dict:
    return model_to_dict(tournament, fields=EDITABLE_FIELDS + ("slug", "archived"))


def check_game(key: str) -> None:
    """A `ValidationError` on "game" unless a registered game has the key (the model checks only its form)."""
    if not is_game(key):
        raise ValidationError({"game": ValidationError(_("Unknown game: %(game)s"), params={"game": key},
                                                       code="unknown_game")})


def create_tournament(*, by, name, game, date, venue="", language="en", status=Tournament.Status.PLANNED,
                      entry_fee=None, time_zone: str | None = None, club=None) -> Tournament:
    """A new tournament of the club `by` works for; `club`: of this one (a server's superuser of no club)."""
    club = club or organisation_of(by)
    if club is None or not directs_in(by, club):
        raise DomainError(_("You are not allowed to create tournaments."))
    with transaction.atomic():
        tournament = Tournament(
            organisation=club, name=name, game=game, date=date, venue=venue, language=language, status=status,
            created_by=by, entry_fee=entry_fee, time_zone=time_zone or installation_time_zone(),
        )
        tournament.slug = Tournament.unique_slug(name, club)
        check_game(game)
        tournament.full_clean()
        tournament.settings = game_of(tournament).default_settings()
        tournament.save()
        TournamentRole.objects.create(tournament=tournament, user=by, role=Role.DIRECTOR)
        log_action("tournament.create", by=by, tournament=tournament, obj=tournament, after=_snapshot(tournament))
    return tournament


def update_tournament(tournament: Tournament, *, by, reason: str = "", **changes) -> Tournament:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can change it."))
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise DomainError(_("These fields cannot be changed here: %(fields)s") % {"fields": ", ".join(sorted(unknown))})
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = _snapshot(locked)
        if "game" in changes and changes["game"] != locked.game and locked.status != Tournament.Status.PLANNED:
            raise DomainError(_("The game cannot be changed once the tournament has started."))
        for field, value in changes.items():
            setattr(locked, field, value)
        check_game(locked.game)
        locked.full_clean()
        locked.save()
        after = _snapshot(locked)
        if before != after:
            log_action(
                "tournament.update", by=by, tournament=locked, obj=locked, before=before, after=after, reason=reason
            )
    return locked


def set_archived(tournament: Tournament, archived: bool, *, by) -> Tournament:
    if not is_director(by, tournament):
        raise DomainError(_("Only a director of this tournament can archive it."))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.archived != archived:
            locked.archived = archived
            locked.save(update_fields=["archived", "updated"])
            log_action(
                "tournament.archive" if archived else "tournament.unarchive",
                by=by,
                tournament=locked,
                obj=locked,
                before={"archived": not archived},
                after={"archived": archived},
            )
    return locked


def sync_status(tournament: Tournament, *, by=None) -> Tournament:
    """Move the status by what is recorded: planned → running at the first draw or result, → finished once
    every result of the last stage is in (and back to running should more become expected, e.g. a knockout
    built after the pools). Called by the services that record draws and results, inside their transaction."""
    from scoring.progress import result_progress

    current, missing = _status_and_missing(tournament)
    if missing:
        status = Tournament.Status.RUNNING  # something is expected (so started) and not all of it is in
    else:
        progress = result_progress(tournament)
        started = progress.entered or progress.awaiting or progress.expected or tournament.draws.exists()
        if progress.complete:
            status = Tournament.Status.FINISHED
        elif started:
            status = Tournament.Status.RUNNING
        else:
            return tournament
    if current is not None and current != status:
        Tournament.objects.filter(pk=tournament.pk).update(status=status)
        log_action("tournament.status", by=by, tournament=tournament, obj=tournament,
                   before={"status": current}, after={"status": status})
    tournament.status = status
    return tournament


#: an id no tournament has: marks where the tournament's id goes among the compiled query's parameters
_PK_MARK = -7_654_321_987
#: the SQL of `_status_and_missing` per database alias and game, compiled once per process
_STATUS_SQL: dict[tuple[str, str], tuple[str, tuple]] = {}


def _status_and_missing(tournament: Tournament) -> tuple[str | None, bool]:
    """The stored status and whether a result is certainly missing (`scoring.progress.missing_result_condition`;
    a game where only counting can tell: False), in one query: on most saves that settles the status without
    counting the results. The query's SQL is compiled once per database and game, for a marked id replaced by the
    tournament's: compiling its EXISTS subqueries through the ORM on every save cost more CPU than running them."""
    alias = router.db_for_read(Tournament)
    key = (alias, tournament.game)
    if key not in _STATUS_SQL:
        from scoring.progress import missing_result_condition

        condition = missing_result_condition(Tournament(pk=_PK_MARK, game=tournament.game))
        row = Tournament.objects.filter(pk=_PK_MARK).order_by()
        missing = Value(False) if condition is None else ExpressionWrapper(condition, output_field=BooleanField())
        sql, params = row.annotate(missing=missing).values_list("status", "missing").query.sql_with_params()
        _STATUS_SQL[key] = (sql, tuple(params))
    sql, params = _STATUS_SQL[key]
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, [tournament.pk if param == _PK_MARK else param for param in params])
        found = cursor.fetchone()
    return (found[0], bool(found[1])) if found else (None, False)
