"""Creating, editing and archiving tournaments."""

from __future__ import annotations

from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

from ..models import Role, Tournament, TournamentRole
from ..models.tournament import installation_time_zone
from ..permissions import can_create_tournaments, is_director
from .audit import log_action
from .errors import DomainError

EDITABLE_FIELDS = ("name", "game", "date", "venue", "time_zone", "language", "status", "entry_fee", "double_entry",
                   "link_entries_count")


def _snapshot(tournament: Tournament) -> dict:
    return model_to_dict(tournament, fields=EDITABLE_FIELDS + ("slug", "archived"))


def create_tournament(*, by, name, game, date, venue="", language="en", status=Tournament.Status.PLANNED,
                      entry_fee=None, time_zone: str | None = None) -> Tournament:
    if not can_create_tournaments(by):
        raise DomainError(_("You are not allowed to create tournaments."))
    with transaction.atomic():
        tournament = Tournament(
            name=name, game=game, date=date, venue=venue, language=language, status=status, created_by=by,
            entry_fee=entry_fee, time_zone=time_zone or installation_time_zone(),
        )
        tournament.slug = Tournament.unique_slug(name)
        tournament.full_clean()
        tournament.settings = tournament.game_type.default_settings()
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
    from scoring.progress import missing_result_condition, result_progress

    current, missing = _status_and_missing(tournament, missing_result_condition(tournament))
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


def _status_and_missing(tournament: Tournament, condition) -> tuple[str | None, bool]:
    """The stored status and whether `condition` (a result certainly missing; None: unknown) holds, in one query:
    on most saves that settles the status without counting the results."""
    row = Tournament.objects.filter(pk=tournament.pk).order_by()
    if condition is None:
        return row.values_list("status", flat=True).first(), False
    found = row.annotate(missing=ExpressionWrapper(condition, output_field=BooleanField())).values_list(
        "status", "missing").first()
    return (found[0], bool(found[1])) if found else (None, False)
