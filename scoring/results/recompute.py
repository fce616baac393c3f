"""Recomputing what stored sheets are worth from what the table wrote, through each game's one recompute path.

A tournament file (tournament/transfer.py) carries `ScoreSheet.derived` too, but it is never trusted:
every counted sheet's `derived` is computed again from its `entries` with the game's `sheet_derive`
hook (the `derive` its entry services give `record_sheet`), and every first entry awaiting
confirmation must be one the rules accept. Nothing here is saved on a refusal: callers run it inside
their transaction.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.games import game_of
from scoring.models import PendingSheet, ScoreSheet
from scoring.rules.base import RuleError
from tournament.services.errors import DomainError

from .checks import rule_message

#: what a derive may raise on entries of the wrong shape (a number where a list belongs, a missing key)
UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


def _place_name(sheet) -> str:
    return str(sheet.match or sheet.table)


def _derived(game, tournament, sheet) -> dict:
    try:
        derive = game.sheet_derive(tournament, match=sheet.match, table=sheet.table)
        if derive is None:
            raise DomainError(_("This game keeps no score sheets, but the file holds some."))
        return derive(sheet.entries, sheet.mode)
    except RuleError as error:
        reason = rule_message(error)
    except ValidationError as error:
        reason = " ".join(error.messages)
    except UNREADABLE:
        reason = _("the entries cannot be read")
    raise DomainError(
        _("The results of %(place)s are not valid: %(reason)s") % {"place": _place_name(sheet), "reason": reason}
    )


def recompute_sheets(tournament) -> int:
    """Write every counted sheet's `derived` from its entries; check every pending first entry.

    Returns the number of sheets recomputed; raises `DomainError` (translated, naming the sheet's place)
    for entries the game's rules refuse.
    """
    game = game_of(tournament)
    sheets = ScoreSheet.objects.filter(tournament=tournament).select_related(
        "match__stage", "match__round", "table__round")
    pending = PendingSheet.objects.filter(tournament=tournament).select_related(
        "match__stage", "match__round", "table__round")
    count = 0
    for sheet in sheets:
        derived = _derived(game, tournament, sheet)
        if derived != sheet.derived:
            ScoreSheet.objects.filter(pk=sheet.pk).update(derived=derived)
        count += 1
    for first_entry in pending:
        _derived(game, tournament, first_entry)
    return count
