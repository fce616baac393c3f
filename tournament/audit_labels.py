"""Words for the audit log: what each action key (`log_action("participant.add", …)`) means to a director
(the shared keys here, each game's own through `Game.audit_words`), what the fields of its before/after values
are called, what their stored values are called (ValueWords: the models' and forms' choices, and each game's own
through `Game.audit_values`), and what its object is called in the reader's language (object_text).

The keys stay in the database as they are (they are stable, searchable and filtered on); only the page shows
the words. Every key a service writes needs a label here or in its game: tests/ops/test_audit_labels.py finds
the keys in the source and fails on one without. A key without a label (an old entry, a key from an imported
file) shows as itself, never as an error.
"""

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

ACTION_LABELS = {
    # tournaments
    "tournament.create": _("Tournament created"),
    "tournament.update": _("Tournament details changed"),
    "tournament.status": _("Tournament status changed"),
    "tournament.archive": _("Tournament archived"),
    "tournament.unarchive": _("Tournament taken out of the archive"),
    "tournament.import": _("Tournament imported from a file"),
    "tournament.update_from_file": _("Tournament updated from its file"),
    "public.publish": _("Public pages changed"),
    "public.evening_links": _("Players' personal links replaced"),
    "role.set": _("Helper role given"),
    "role.remove": _("Helper role taken away"),
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
    # the club's members
    "club.add": _("Club created"),
    "club.invite": _("Member invited"),
    "club.password_link": _("Password link made"),
    "club.role": _("Member's role changed"),
    "club.remove": _("Member removed"),
    "club.token_add": _("API token made"),
    "club.token_revoke": _("API token revoked"),
    "club.token_use": _("API token used"),
    "club.server_set": _("Club server set"),
    "club.server_remove": _("Club server forgotten"),
    "tournament.push": _("Tournament sent to the club's server"),
    # the federation: its register of members and its seasons
    "federation.add": _("Federation created"),
    "federation.club": _("Club joined the federation"),
    "federation.number_requested": _("Member number requested"),
    "federation.member_add": _("Member number assigned"),
    "federation.link": _("Register entry linked to a member number"),
    "federation.unlink": _("Member number link removed"),
    "federation.merge": _("Federation members merged"),
    "federation.season_add": _("Federation season created"),
    "federation.season_publish": _("Federation season publishing changed"),
    "federation.season_evening": _("Tournament's federation season changed"),
    "club.address": _("Short name in addresses changed"),
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
    # check-in
    "checkin.arrived": _("Checked in"),
    "checkin.not_arrived": _("Check-in undone"),
    "checkin.paid": _("Entry fee paid"),
    "checkin.not_paid": _("Entry fee payment undone"),
    "checkin.withdraw_no_shows": _("No-shows withdrawn"),
    # seating, rounds and the clock
    "seating.draw": _("Seating drawn"),
    "seating.redraw": _("Seating drawn again"),
    "seating.remove": _("Seating removed"),
    # the table games' actions: the seated layer writes them for the four table games alike
    "tablegames.settings": _("Game settings changed"),
    "tablegames.fixed_table": _("Fixed table set"),
    "tablegames.round.start": _("Round started"),
    "tablegames.substitute": _("Substitute set"),
    "participant.prize_eligible": _("Prize eligibility ticked"),
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
    "sheet.photo": _("Photo of the paper sheet sent from a table"),
}

#: keys no code writes any more, labelled for the entries stored under them: Schafkopf's draws until every seated
#: game drew through one service ("seating.draw")
FORMER_ACTIONS = frozenset({"schafkopf.seating.draw", "schafkopf.seating.redraw"})

#: names of the fields in before/after values that a director reads often; any other field shows its key,
#: underscores as spaces
FIELD_LABELS = {
    "ace_points": _("Ace points"),
    "archived": _("Archived"),
    "arrived": _("Arrived"),
    "beamer_seconds": _("Seconds per beamer page"),
    "best_of": _("Knockout series"),
    "bonus": _("Bonus"),
    "cards_each": _("Cards each"),
    "club": _("Club"),
    "confirmed_by": _("Confirmed by"),
    "count_down": _("Count down from the limit"),
    "created": _("Created"),
    "date": _("Date"),
    "decision": _("Decision"),
    "declarer": _("Declarer"),
    "director": _("Director"),
    "double_entry": _("Double entry"),
    "draw_from_boneyard": _("Draw from the boneyard"),
    "draw_penalty": _("Draw penalty"),
    "entered_by": _("Entered by"),
    "entries": _("Entries"),
    "entry_fee": _("Entry fee"),
    "face_card_points": _("Face card points"),
    "field": _("Whole field"),
    "file": _("File"),
    "finish_time": _("Finish time"),
    "first_name": _("First name"),
    "fixed_tables": _("Fixed tables"),
    "from": pgettext_lazy("taken over from", "From"),
    "from_link": _("Sent from the table's link"),
    "holder": _("Whose link"),
    "game": _("Game"),
    "game_type": _("Game type"),
    "games_at_five": _("Games at a table of five"),
    "games_per_round": _("Games per round"),
    "group_conflicts": _("Group conflicts"),
    "hand_rummi": _("Hand rummi"),
    "joker_in_hand_points": _("Joker left in hand"),
    "joker_in_hand_variant": _("Joker in hand variant"),
    "joker_points": _("Joker points"),
    "kam_points": _("Points for a win against a kam (9:0)"),
    "kind": _("Kind"),
    "language": _("Language"),
    "large_table_twice": _("Twice at a table of five"),
    "last_name": _("Last name"),
    "laufende": _("Laufende"),
    "laufende_from": _("Laufende from"),
    "laufende_value": _("Per Laufender"),
    "limit": _("Limit"),
    "link": _("Link"),
    "link_entries_count": _("Table entries count at once"),
    "agreeing_reports_count": _("Two agreeing reports count"),
    "linked_to_register": _("Players linked to the register"),
    "links": _("Table links"),
    "lus_a": _("Lus team A"),
    "lus_b": _("Lus team B"),
    "matches": _("Matches"),
    "max_absences": _("Absences allowed before disqualification"),
    "max_hands": _("Hands at most"),
    "max_lus": _("Most lus accepted for a team"),
    "max_per_tile": _("Points per tile at most"),
    "max_pips_per_tile": _("Pips per tile at most"),
    "max_rounds": _("Rounds at most"),
    "mode": _("Mode"),
    "name": _("Name"),
    "note": _("Note"),
    "number": _("Number"),
    "out": _("Went out"),
    "over_points": _("Points for a win with more than 9 lus"),
    "paid": _("Paid"),
    "paid_amount": _("Amount paid"),
    "partner": _("Partner"),
    "pass_penalty": _("Pass penalty"),
    "penalties": _("Penalty points"),
    "phone_totals": _("Totals from phones"),
    "pips": _("Pips"),
    "players": _("Players"),
    "points_to_substitute": _("Points go to the substitute"),
    "pools": _("Pools"),
    "prizes": _("Prizes"),
    "prize_eligible": _("Eligible for a prize although he did not play every round"),
    "publish": _("Published"),
    "published": _("Published"),
    "qualifiers": _("Qualified teams"),
    "qualifiers_per_pool": _("Teams per pool in the knockout"),
    "reason": _("Reason"),
    "remaining": _("Points left in hand"),
    "repeated_pairs": _("Pairs who meet again"),
    "role": _("Role"),
    "round": _("Round"),
    "rounds": _("Rounds"),
    "ruf": _("Ruf"),
    "ruf_schneider": _("Ruf Schneider"),
    "ruf_schwarz": _("Ruf Schwarz"),
    "rules": _("Rules"),
    "schneider": _("Schneider"),
    "schwarz": _("Schwarz"),
    "seat": _("Seat"),
    "seat_repeats": _("Same seat again"),
    "seed": _("Seed"),
    "seeded": _("Seeded"),
    "semifinal": _("Semifinal"),
    "semifinal_pool_order": _("Order after the semifinal round robin"),
    "separate_clubs": _("Clubs kept apart"),
    "series_minutes": _("Minutes per knockout round (a whole series)"),
    "sizes": _("Table sizes allowed"),
    "slot_minutes": _("Minutes per round"),
    "slug": _("Address"),
    "solo": _("Solo"),
    "solo_played": _("Solo/Wenz played"),
    "solo_schneider": _("Solo Schneider"),
    "solo_schwarz": _("Solo Schwarz"),
    "solo_won": _("Solo/Wenz won"),
    "start_bonus": _("Start bonus"),
    "start_time": _("First round starts at"),
    "status": _("Status"),
    "substitute": _("Substitute"),
    "sure_lus": _("Lus above this need a confirmation at entry"),
    "table": _("Table"),
    "table_sizes": _("Table sizes"),
    "tables": _("Tables"),
    "target": _("Target"),
    "tariff": _("Tariff"),
    "tariff_preset": _("Tariff preset"),
    "teams": _("Teams"),
    "third_place": _("Match for third place"),
    "tiles_each": _("Tiles each"),
    "tiles_in_set": _("Tiles in the set"),
    "tiles_left": _("Tiles left"),
    "time_zone": _("Time zone"),
    "total": _("Total"),
    "tournament": _("Tournament"),
    "tout": _("Tout"),
    "tout_initials": _("Tout initials"),
    "tout_played": _("Tout played"),
    "tout_won": _("Tout won"),
    "turn_points": _("Points during play"),
    "user": _("User"),
    "value": _("Value"),
    "variant": _("Variant"),
    "venue": _("Venue"),
    "win_points": _("Points for a normal win (9 against 1 or more)"),
    "winner": _("Winner"),
    "withdrawn": _("Withdrawn"),
    "withdrawn_from_round": _("Withdrawn from round"),
    "won": _("Won"),
}


def action_labels() -> dict:
    """Every action key's words: the shared ones and each game's own (`Game.audit_words`)."""
    from scoring.games import all_games

    labels = dict(ACTION_LABELS)
    for game in all_games():
        labels |= game.audit_words()
    return labels


def action_label(key: str) -> str:
    """The words for an action key; the key itself for one without (never an error)."""
    label = action_labels().get(key)
    return str(label) if label is not None else key


def field_label(key: str) -> str:
    label = FIELD_LABELS.get(key)
    if label is not None:
        return str(label)
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


#: the ways a sheet is entered (its "mode"): a Schafkopf list game by game or as totals, a table game's hands or a
#: patience's results, a Voms slip's games
SHEET_MODES = {"games": _("Games"), "totals": _("Totals"), "hands": _("Hands"), "results": _("Results")}

#: a director's decision between two different entries of a sheet (`sheet.decided`): which one counts
SHEET_DECISIONS = {"first": _("The first entry counts"), "mine": _("The director's own entry counts")}


def _common_values() -> dict:
    """Stored values every game's entries hold, by field: the models' and forms' own choices."""
    from django.conf import settings

    from scoring.games import game_choices
    from scoring.models import TableProblem
    from tournament.models import Participant, Role, Tournament
    from tournament.services.publishing import KIND_NAMES

    return {
        "status": dict(Participant.Status.choices) | dict(Tournament.Status.choices),
        "game": dict(game_choices()),
        "language": dict(settings.LANGUAGES),
        "role": dict(Role.choices),
        "published": KIND_NAMES,
        "kind": dict(TableProblem.Kind.choices),  # a problem reported from a table
        "mode": SHEET_MODES,  # how a sheet was entered
        "decision": SHEET_DECISIONS,  # which of two different entries a director let count
    }


class ValueWords:
    """Stored values in words for the entries of one game's tournament (or of none: the register, the seasons),
    in the active language: the choices the models and forms use, and the game's own (`Game.audit_values`).
    A value without words stays as it is, never an error."""

    def __init__(self, game: str | None = None):
        from scoring.games import get_game

        self.words = _common_values()
        try:
            self.words |= get_game(game).audit_values() if game else {}
        except KeyError:  # a game no longer installed
            pass

    def __call__(self, path: tuple[str, ...], value):
        """`value` at `path` (the field names leading to it, "tariff", "name") in words; else the value."""
        if isinstance(value, bool) or value is None or not path:
            return value
        for key in dict.fromkeys((".".join(path[-2:]), path[-1])):
            words = self.words.get(key)
            if callable(words):
                try:
                    shown = words(value)
                except (TypeError, ValueError, KeyError, AttributeError):  # not what the game stores there
                    shown = None
                if shown is not None:
                    return shown
            elif words is not None and isinstance(value, str | int):
                label = words.get(value)
                if label is not None:
                    return str(label)
        return value


    def stored_worded(self, text: str) -> list[str]:
        """The stored text values whose words (from the choices, not from a function) contain `text`, any case."""
        needle = text.casefold()
        if not needle:
            return []
        return sorted({value for words in self.words.values() if isinstance(words, dict)
                       for value, label in words.items() if isinstance(value, str) and needle in str(label).casefold()})


def value_label(field: str, value, game: str | None = None):
    """A stored value of `field` in words where its choices are known (a status, a game); else the value."""
    return ValueWords(game)((field,), value)


class UnknownObject(Exception):
    """A piece of an entry's object this code has no words for (an entry from a newer version)."""


#: the longest object shown from its pieces, as `AuditEntry.object_repr` keeps at most (a file may hold anything)
MAX_OBJECT = 200


def _piece_words(piece, inside_link: bool = False) -> str:
    from tournament.models import Draw, Role, Stage

    if isinstance(piece, str):
        return piece
    kind = piece.get("kind") if isinstance(piece, dict) else None
    if kind == "table":
        return gettext("Table %(number)s") % {"number": int(piece["number"])}
    if kind == "round":
        return gettext("Round %(number)s") % {"number": int(piece["number"])}
    if kind == "seat":
        return gettext("Seat %(number)s") % {"number": int(piece["number"])}
    if kind == "stage":
        return str(dict(Stage.Kind.choices).get(piece["stage"], piece["stage"]))
    if kind == "draw":
        return f"{dict(Draw.Kind.choices).get(piece['draw'], piece['draw'])} {int(piece['seed'])}"
    if kind == "role":
        return str(dict(Role.choices).get(piece["role"], piece["role"]))
    if kind == "link" and not inside_link:  # a table's or a match's link; never a link's link
        return gettext("Link of %(table)s") % {"table": object_words(piece["of"], inside_link=True)}
    raise UnknownObject(piece)


def object_words(ref, inside_link: bool = False) -> str:
    """An entry's object (`AuditEntry.object_ref`, see tournament.services.audit) in the active language.
    Raises UnknownObject for what has no words here: the caller shows the stored text instead."""
    if not isinstance(ref, list):
        raise UnknownObject(ref)
    try:
        text = "".join(_piece_words(piece, inside_link) for piece in ref)
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise UnknownObject(ref) from error
    if len(text) > MAX_OBJECT:
        raise UnknownObject(ref)
    return text


def object_text(entry) -> str:
    """What an entry's object is called in the active language; the stored text of an entry written before
    objects were kept language-neutral, or of one given as text."""
    if entry.object_ref:
        try:
            return object_words(entry.object_ref)
        except UnknownObject:
            pass
    return entry.object_repr


def fields_labelled(text: str) -> list[str]:
    """The field keys whose names (in the active language) contain `text`, any case."""
    needle = text.casefold()
    return [key for key, label in FIELD_LABELS.items() if needle in str(label).casefold()]


def keys_labelled(text: str) -> list[str]:
    """The action keys whose words (in the active language) contain `text`, for the page's search."""
    needle = text.casefold()
    return [key for key, label in action_labels().items() if needle in str(label).casefold()]
