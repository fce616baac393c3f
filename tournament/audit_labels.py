"""Words for the audit log: what each action key (`log_action("participant.add", …)`) means to a director,
and what the fields of its before/after values are called.

The keys stay in the database as they are (they are stable, searchable and filtered on); only the page shows
the words. Every key a service writes needs a label here: tests/ops/test_audit_labels.py finds the keys in the
source and fails on one without. A key without a label (an old entry, a key from an imported file) shows as
itself, never as an error.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

ACTION_LABELS = {
    # tournaments
    "tournament.create": _("Tournament created"),
    "tournament.update": _("Tournament details changed"),
    "tournament.status": _("Tournament status changed"),
    "tournament.archive": _("Tournament archived"),
    "tournament.unarchive": _("Tournament taken out of the archive"),
    "tournament.import": _("Tournament imported from a file"),
    "public.publish": _("Public pages changed"),
    "role.set": _("Helper role given"),
    "role.remove": _("Helper role taken away"),
    "settings.update": _("Game settings changed"),
    "schafkopf.settings": _("Game settings changed"),
    "tablegames.settings": _("Game settings changed"),
    # the register of people and the seasons
    "person.add": _("Person added to the register"),
    "person.update": _("Person in the register changed"),
    "person.merge": _("People in the register merged"),
    "season.add": _("Season created"),
    "season.update": _("Season changed"),
    "season.publish": _("Season publishing changed"),
    "season.director": _("Season director added"),
    "season.add_evening": _("Evening added to the season"),
    "season.remove_evening": _("Evening removed from the season"),
    # players and teams
    "participant.add": _("Player registered"),
    "participant.update": _("Player details changed"),
    "participant.delete": _("Player deleted"),
    "participant.import": _("Players imported from a list"),
    "participant.take_over": _("Players taken over from another evening"),
    "participant.active": _("Player reinstated"),
    "participant.withdrawn": _("Player withdrawn"),
    "participant.excluded": _("Player excluded"),
    "team.add": _("Team registered"),
    "team.update": _("Team changed"),
    "team.delete": _("Team deleted"),
    "team.withdraw": _("Team withdrawn"),
    "team.reinstate": _("Team reinstated"),
    "team.disqualify": _("Team disqualified"),
    # check-in
    "checkin.arrived": _("Checked in"),
    "checkin.not_arrived": _("Check-in undone"),
    "checkin.paid": _("Entry fee paid"),
    "checkin.not_paid": _("Entry fee payment undone"),
    "checkin.withdraw_no_shows": _("No-shows withdrawn"),
    # draws, rounds and the clock
    "draw.partners": _("Partners drawn"),
    "draw.pools": _("Pools drawn"),
    "seating.draw": _("Seating drawn"),
    "seating.redraw": _("Seating drawn again"),
    "seating.remove": _("Seating removed"),
    "schafkopf.seating.draw": _("Seating drawn"),
    "schafkopf.seating.redraw": _("Seating drawn again"),
    "schafkopf.fixed_table": _("Fixed table set"),
    "schafkopf.round.start": _("Round started"),
    "schafkopf.substitute": _("Substitute set"),
    "knockout.create": _("Knockout stage created"),
    "knockout.final": _("Final set up"),
    "clock.start": _("Round clock started"),
    "clock.pause": _("Round clock paused"),
    "clock.resume": _("Round clock resumed"),
    "clock.reset": _("Round clock reset"),
    "clock.slot": _("Round time changed"),
    # results
    "sheet.first_entry": _("Result entered (waiting for the second entry)"),
    "sheet.entry": _("Result entered"),
    "sheet.confirmed": _("Result confirmed by a second entry"),
    "sheet.decided": _("Different entries decided by a director"),
    "sheet.correction": _("Result corrected"),
    "tablelink.issue": _("Table links made"),
    "tablelink.revoke": _("Table link withdrawn"),
    "tablelink.reissue": _("Table link replaced"),
    "tableproblem.signal": _("Problem reported from a table"),
    "tableproblem.close": _("Table problem closed"),
}

#: names of the fields in before/after values that a director reads often; any other field shows its key,
#: underscores as spaces
FIELD_LABELS = {
    "archived": _("Archived"),
    "arrived": _("Arrived"),
    "club": _("Club"),
    "created": _("Created"),
    "date": _("Date"),
    "director": _("Director"),
    "double_entry": _("Double entry"),
    "entered_by": _("Entered by"),
    "confirmed_by": _("Confirmed by"),
    "entries": _("Entries"),
    "entry_fee": _("Entry fee"),
    "file": _("File"),
    "first_name": _("First name"),
    "last_name": _("Last name"),
    "from": pgettext_lazy("taken over from", "From"),
    "game": _("Game"),
    "games_per_round": _("Games per round"),
    "language": _("Language"),
    "matches": _("Matches"),
    "mode": _("Mode"),
    "name": _("Name"),
    "number": _("Number"),
    "paid": _("Paid"),
    "paid_amount": _("Amount paid"),
    "players": _("Players"),
    "pools": _("Pools"),
    "prizes": _("Prizes"),
    "publish": _("Published"),
    "reason": _("Reason"),
    "round": _("Round"),
    "rounds": _("Rounds"),
    "seed": _("Seed"),
    "seeded": _("Seeded"),
    "slot_minutes": _("Minutes per round"),
    "status": _("Status"),
    "table": _("Table"),
    "tables": _("Tables"),
    "table_sizes": _("Table sizes"),
    "teams": _("Teams"),
    "time_zone": _("Time zone"),
    "venue": _("Venue"),
    "withdrawn": _("Withdrawn"),
}


def action_label(key: str) -> str:
    """The words for an action key; the key itself for one without (never an error)."""
    label = ACTION_LABELS.get(key)
    return str(label) if label is not None else key


def field_label(key: str) -> str:
    label = FIELD_LABELS.get(key)
    if label is not None:
        return str(label)
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def value_label(field: str, value):
    """A stored choice in words where the field's choices are known (a status, a game); else the value."""
    if not isinstance(value, str):
        return value
    if field == "status":
        from tournament.models import Participant, Tournament

        labels = dict(Participant.Status.choices) | dict(Tournament.Status.choices)
    elif field == "game":
        from scoring.games import game_choices

        labels = dict(game_choices())
    else:
        return value
    return str(labels.get(value, value))


def keys_labelled(text: str) -> list[str]:
    """The action keys whose words (in the active language) contain `text`, for the page's search."""
    needle = text.casefold()
    return [key for key, label in ACTION_LABELS.items() if needle in str(label).casefold()]
