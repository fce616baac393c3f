"""Uploading a tournament's file again: the tournament of the same identity is updated, not copied (issue 26).

A tournament file carries the tournament's identity (`Tournament.uid`, tournament/transfer.py). The laptop at the
venue plays the evening, the club's server gets its file after each session; uploading a newer file of the same
tournament replaces the server copy's content (players, seating, sheets, slips, results, settings, its log) in
one transaction and keeps what is this server's: the tournament's key and identity, its short name (its public
addresses and printed QR codes), the roles given here, its season, and the tokens of the table links the file
holds unchanged. What it replaces is kept first as a snapshot (`TournamentSnapshot`, tournament/snapshots.py), so
nothing is lost: restoring it is importing that snapshot's file. A file that holds fewer score sheets than the
copy here is older: it replaces the copy only when the director confirms that.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, TableLink

from .models import Participant, Round, Tournament, TournamentRole
from .permissions import can_create_tournaments, is_director
from .services.audit import log_action
from .snapshots import take_snapshot
from .tenancy import organisation_of
from .transfer import (
    TransferError,
    export_document,
    file_uid,
    import_document,
    import_tournament,
    join_federation,
    join_season,
    link_key,
    parse_document,
    rows_of,
    same_tournament,
    tournament_models,
)


@dataclass(frozen=True)
class Content:
    """What a tournament holds, as its director counts it."""

    players: int
    rounds: int
    sheets: int
    #: when its newest score sheet was last entered or changed
    newest_sheet: datetime.datetime | None

    def as_dict(self) -> dict:
        return {"players": self.players, "rounds": self.rounds, "sheets": self.sheets}


def content_here(tournament: Tournament) -> Content:
    sheets = ScoreSheet.objects.filter(tournament=tournament)
    return Content(players=Participant.objects.filter(tournament=tournament).count(),
                   rounds=Round.objects.filter(stage__tournament=tournament).count(), sheets=sheets.count(),
                   newest_sheet=sheets.aggregate(newest=Max("updated_at"))["newest"])


def content_in_file(document: dict) -> Content:
    def rows(model) -> list:
        found = next((t.get("rows") for t in document["models"] if t.get("model") == model._meta.label_lower), [])
        return found if isinstance(found, list) else []

    times = [parse_datetime(row["updated_at"]) for row in rows(ScoreSheet)
             if isinstance(row, dict) and isinstance(row.get("updated_at"), str)]
    times = [time for time in times if time is not None]
    return Content(players=len(rows(Participant)), rounds=len(rows(Round)), sheets=len(rows(ScoreSheet)),
                   newest_sheet=max(times, default=None))


@dataclass(frozen=True)
class Update:
    """What uploading the file does to the tournament of its identity: the director reads it before he confirms."""

    tournament: Tournament
    here: Content
    in_file: Content
    #: score sheets here entered or changed after the newest one in the file (the file does not hold them)
    changed_here: int

    @property
    def older(self) -> bool:
        """The file holds fewer score sheets than the tournament here: an older state of it."""
        return self.in_file.sheets < self.here.sheets

    @property
    def since(self) -> datetime.datetime | None:
        return self.in_file.newest_sheet


def planned_update(tournament: Tournament, data: bytes) -> Update:
    document = parse_document(data)
    in_file = content_in_file(document)
    sheets = ScoreSheet.objects.filter(tournament=tournament)
    if in_file.newest_sheet is not None:
        sheets = sheets.filter(updated_at__gt=in_file.newest_sheet)
    return Update(tournament, content_here(tournament), in_file, sheets.count())


def _table_links(tournament: Tournament) -> dict[str, tuple[str, str]]:
    """The tournament's table links by their row in its file, with their token (nonce and hash)."""
    document = export_document(tournament)
    rows = next(t["rows"] for t in document["models"] if t["model"] == TableLink._meta.label_lower)
    links = TableLink.objects.filter(tournament=tournament).order_by("pk").values_list("nonce", "token_hash")
    return {link_key(row): secret for row, secret in zip(rows, links, strict=True)}


def _remove_content(tournament: Tournament) -> None:
    """Every row of the tournament but its own and its roles, the most dependent first."""
    for plan in reversed(tournament_models()):
        if plan.model not in (Tournament, TournamentRole):
            rows_of(plan, tournament).delete()


def update_tournament(tournament: Tournament, data: bytes, *, by, people: Mapping[str, int | None] | None = None,
                      older_ok: bool = False, notes: list[str] | None = None) -> Tournament:
    """Replace the tournament's content with the file of the same identity, keeping what is this server's.

    The state replaced is kept as a snapshot first. An older file (fewer score sheets) is refused unless
    `older_ok`. What became of the file's season is appended to `notes`.
    """
    if not (can_create_tournaments(by) and is_director(by, tournament)):
        raise TransferError(_("Only a director of the tournament can update it from a file."))
    document = parse_document(data)
    if file_uid(document) != tournament.uid:
        raise TransferError(_("This file is another tournament: it cannot update “%(name)s”.")
                            % {"name": tournament.name})
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.archived:
            raise TransferError(_("“%(name)s” is archived: take it out of the archive before updating it.")
                                % {"name": tournament.name})
        update = planned_update(tournament, data)
        if update.older and not older_ok:
            raise TransferError(
                _("The file holds %(file)s score sheets, the tournament here %(here)s: the file is older. Confirm "
                  "that it replaces the tournament here.")
                % {"file": update.in_file.sheets, "here": update.here.sheets})
        snapshot = take_snapshot(tournament.pk)
        links = _table_links(tournament)
        _remove_content(tournament)
        tournament = import_document(document, by=by, keep_roles=(), people=people, into=tournament, kept_links=links)
        note = join_season(tournament, document, by=by)
        federation_notes = join_federation(tournament, document, by=by)
        log_action("tournament.update_from_file", by=by, tournament=tournament, obj=tournament,
                   before={**update.here.as_dict(), "snapshot": snapshot.pk},
                   after={**content_here(tournament).as_dict(),
                          "links_kept": len(update_links_kept(links, tournament))})
    if notes is not None:
        notes.extend(([note] if note is not None else []) + federation_notes)
    return tournament


def update_links_kept(before: dict[str, tuple[str, str]], tournament: Tournament) -> list[str]:
    """The token hashes of the tournament's links that kept the token they had before the update."""
    hashes = {token_hash for _nonce, token_hash in before.values()}
    return list(TableLink.objects.filter(tournament=tournament, token_hash__in=hashes)
                .values_list("token_hash", flat=True))


class NotYours(TransferError):
    """The file is a tournament of the club that the sender does not direct: not updated, and not copied."""


@dataclass(frozen=True)
class Received:
    """What a pushed file did (tournament/club_api.py): the tournament it made or updated, and the season notes."""

    tournament: Tournament
    created: bool
    notes: tuple[str, ...]


def receive_file(data: bytes, *, by) -> Received:
    """The file sent without a person to answer questions (a laptop's push): the tournament of its identity in
    `by`'s club is updated (`update_tournament`, a snapshot first); a file of no tournament of the club becomes a
    new one (`import_tournament`; the roles it names other users are dropped, its players join the register
    entries of the same name and club or new ones). An older file than the copy here is refused, and so is a
    tournament of the club `by` does not direct (`NotYours`: a second copy of it would only confuse)."""
    document = parse_document(data)
    existing = same_tournament(document, organisation_of(by))
    notes: list[str] = []
    if existing is not None and not is_director(by, existing):
        raise NotYours(_("“%(name)s” is on the server already and is directed by others: ask its director to make "
                         "you a director of it, then send it again.") % {"name": existing.name})
    if existing is None:
        tournament = import_tournament(data, by=by, notes=notes)
    else:
        tournament = update_tournament(existing, data, by=by, notes=notes)
    return Received(tournament, existing is None, tuple(notes))
