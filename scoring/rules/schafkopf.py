"""Schafkopf: tariff, game scoring, score-list validation, ranking and prize money.

The rules as implemented: docs/rules/schafkopf.md. Pure Python, no Django:
the Django layer passes seats, flags and counts in and stores what comes back.

Public API
----------
Game types  `GAME_TYPES` {key: GameType}; keys `RUF`="ruf", `SOLO`="solo" (Farbsolo), `WENZ`="wenz",
            `FARBWENZ`="farbwenz". The last three are solo-class and may each be played as tout.
Tariff      `Tariff` (frozen, validated on creation), `TARIFF_PRESETS` {"standard", "tout_24_8", "scale_15_5"},
            `tariff_to_dict(tariff)` / `tariff_from_dict(data)` to store an edited tariff as JSON.
Dealing     `dealer_of(game_number, table_size)`, `sitting_out(game_number, table_size)` (seat or None),
            `games_at_five(games_per_round)` (30 -> 40).
One game    `GameEntry`, `validate_entry(entry, *, game_number, table_size)`,
            `score_game(entry, *, game_number, table_size, tariff) -> {seat: points}` (sums to zero).
One list    `score_list(entries, *, table_size, tariff) -> ListResult`: per-game rows with running totals,
            totals per seat and the `Counts` (solo-class / tout played and won) the ranking needs.
Totals      `validate_totals(totals, counts, *, games=None, tariff=None)` for totals-only entry.
Ranking     `RANKING_CHAIN` (the six Metric columns; the lot follows as `standings.LOT_KEY`),
            `ranking(players, round_points, counts, *, seed, excluded=frozenset()) -> list[Standing]`.
Money       `PrizeSpec`, `prize_list(entry_fee, players_paid, prizes) -> PrizeList` (a list of Decimal
            with `.takings`, `.total`, `.shortfall` and `.warnings`).

Errors are `RuleError`s with a stable `code`, the input `field` and an English message marked for
translation. Errors from `score_list` also carry `params["game_number"]`.

Decisions the tournament rules leave open (docs/rules/schafkopf.md, "Differences from the rules digest")
- Tariff amounts are per player: Rufspiel amounts go to each of the four players, solo-class amounts to
  each opponent, and the soloist gets three times as much, so every game sums to zero by construction.
  Rufspiel keeps 1/2/3 in every preset (the tournament rules' presets only name the solo-class rows).
- "Sie" (from "tout 24/8 with Sie 24/8") is not a game type here: the tournament rules' list has no Sie.
- Schwarz alone is accepted and means Schneider and Schwarz (Schwarz is always also Schneider).
- A tout is worth the tout row whatever the Schneider/Schwarz flags say (a won tout is always Schwarz).
- Laufende (when the tariff counts them): from the threshold on, every Laufender adds `laufende_value`
  per player / per opponent, tout included; below the threshold they are ignored. Their number is checked
  against the trumps of the game type (Wenz 4, Farbwenz 11, Rufspiel and Farbsolo 14).
- Supervision initials on a game that is not a tout are refused: most likely the tout mark was forgotten.
- Excluded players are ranked among themselves by the same chain and placed after every other player;
  their ranks continue the numbering, `values["excluded"]` is True (False for everyone else) and the first
  of them is `separated_by="excluded"`. Nothing else about them changes: they stay on the lists.
- Percent prizes are a share of the whole takings (entry fee x paying players). When the prizes add up to
  more than the takings the list is still returned, with a warning naming what the organiser must add.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from decimal import ROUND_HALF_UP, Decimal
from math import ceil

from .base import RuleError, gettext_noop, is_whole_number, require_count
from .standings import Metric, Standing, rank

# --- game types -----------------------------------------------------------------------------------

RUF = "ruf"
SOLO = "solo"
WENZ = "wenz"
FARBWENZ = "farbwenz"

TABLE_SIZES = (4, 5)
MAX_LAUFENDE = 14


@dataclass(frozen=True)
class GameType:
    key: str
    name: str
    solo_class: bool
    #: trumps in this game: more Laufende than that cannot exist
    max_laufende: int


GAME_TYPES: dict[str, GameType] = {
    RUF: GameType(RUF, gettext_noop("Rufspiel"), False, 14),
    SOLO: GameType(SOLO, gettext_noop("Farbsolo"), True, 14),
    WENZ: GameType(WENZ, gettext_noop("Wenz"), True, 4),
    FARBWENZ: GameType(FARBWENZ, gettext_noop("Farbwenz"), True, 11),
}
TOUT_LABEL = gettext_noop("tout")


def is_solo_class(game_type: str) -> bool:
    """True for Farbsolo, Wenz and Farbwenz (the games a player plays alone)."""
    return game_type in GAME_TYPES and GAME_TYPES[game_type].solo_class


# --- tariff ---------------------------------------------------------------------------------------

AMOUNT_FIELDS = ("ruf", "ruf_schneider", "ruf_schwarz", "solo", "solo_schneider", "solo_schwarz", "tout")


@dataclass(frozen=True)
class Tariff:
    """Points per game, a named and editable preset per tournament.

    Rufspiel amounts (`ruf*`) are per player: declarer and partner gain them, the two others lose them
    (reversed when lost). Solo-class amounts (`solo*`, `tout`) are per opponent: each of the three loses
    them and the soloist gains three times as much (reversed when lost). The defaults are the standard preset
    of docs/rules/schafkopf.md. `laufende_from=None` means Laufende are not counted.
    """

    name: str
    ruf: int = 1
    ruf_schneider: int = 2
    ruf_schwarz: int = 3
    solo: int = 2
    solo_schneider: int = 3
    solo_schwarz: int = 4
    tout: int = 6
    laufende_from: int | None = None
    laufende_value: int = 0

    def __post_init__(self) -> None:
        for name in (*AMOUNT_FIELDS, "laufende_value"):
            _check_tariff_amount(name, getattr(self, name))
        if self.laufende_from is not None and not (
            is_whole_number(self.laufende_from) and 1 <= self.laufende_from <= MAX_LAUFENDE
        ):
            raise RuleError(
                "tariff_laufende_from_invalid",
                gettext_noop("Laufende can be counted from 1 to %(maximum)s running trumps; %(value)s is not "
                             "possible. Enter a number in that range, or leave it empty to not count Laufende."),
                field="laufende_from", maximum=MAX_LAUFENDE, value=self.laufende_from,
            )


def _check_tariff_amount(name: str, value: object) -> None:
    require_count(value, "tariff_amount_invalid",
                  gettext_noop("Every tariff amount must be a whole number of points, zero or more; %(value)s is "
                               "not. Correct the amount."),
                  field=name)


TARIFF_PRESETS: dict[str, Tariff] = {
    "standard": Tariff(gettext_noop("Standard (solo 6/2, tout 18/6)")),
    "tout_24_8": Tariff(gettext_noop("Tout 24/8"), tout=8),
    "scale_15_5": Tariff(gettext_noop("15/5 scale"), solo=5, solo_schneider=6, solo_schwarz=7, tout=14),
}

_TARIFF_KEYS = frozenset(f.name for f in fields(Tariff))
_OPTIONAL_TARIFF_KEYS = frozenset({"laufende_from", "laufende_value"})


def tariff_to_dict(tariff: Tariff) -> dict[str, object]:
    """The tariff as a JSON-ready dict (inverse of `tariff_from_dict`)."""
    return asdict(tariff)


def tariff_from_dict(data: Mapping[str, object]) -> Tariff:
    """Rebuild a stored or edited tariff; RuleError for missing, unknown or invalid entries."""
    unknown = sorted(set(data) - _TARIFF_KEYS)
    if unknown:
        raise RuleError(
            "tariff_unknown_entry",
            gettext_noop("The tariff has an entry this software does not know: %(names)s. Remove it."),
            field=unknown[0], names=", ".join(unknown),
        )
    missing = sorted(_TARIFF_KEYS - _OPTIONAL_TARIFF_KEYS - set(data))
    if missing:
        raise RuleError(
            "tariff_missing_entry",
            gettext_noop("The tariff lacks an amount for: %(names)s. Enter every amount."),
            field=missing[0], names=", ".join(missing),
        )
    if not isinstance(data["name"], str) or not data["name"].strip():
        raise RuleError("tariff_name_missing", gettext_noop("Give the tariff a name."), field="name")
    return Tariff(**data)


def _laufende_bonus(laufende: int, tariff: Tariff) -> int:
    if tariff.laufende_from is None or laufende < tariff.laufende_from:
        return 0
    return laufende * tariff.laufende_value


def amount_per_player(entry: GameEntry, tariff: Tariff) -> int:
    """What each Rufspiel player, or each opponent of a soloist, wins or loses in this game."""
    solo_class = is_solo_class(entry.game_type)
    if entry.tout:
        base = tariff.tout
    elif entry.schwarz:
        base = tariff.solo_schwarz if solo_class else tariff.ruf_schwarz
    elif entry.schneider:
        base = tariff.solo_schneider if solo_class else tariff.ruf_schneider
    else:
        base = tariff.solo if solo_class else tariff.ruf
    return base + _laufende_bonus(entry.laufende, tariff)


def _largest_seat_amount(tariff: Tariff) -> int:
    """The most one seat can win or lose in a single game under this tariff."""
    laufende = MAX_LAUFENDE * tariff.laufende_value if tariff.laufende_from is not None else 0
    return 3 * (max(getattr(tariff, name) for name in AMOUNT_FIELDS) + laufende)


# --- dealing --------------------------------------------------------------------------------------


def _check_table_size(table_size: int) -> None:
    if table_size not in TABLE_SIZES:
        raise RuleError(
            "table_size_invalid",
            gettext_noop("A Schafkopf table seats 4 or 5 players, not %(table_size)s."),
            field="table_size", table_size=table_size,
        )


def _check_game_number(game_number: int) -> None:
    if not (is_whole_number(game_number) and game_number >= 1):
        raise RuleError(
            "game_number_invalid",
            gettext_noop("Games are numbered from 1; %(game_number)s is not a game number."),
            field="game_number", game_number=game_number,
        )


def dealer_of(game_number: int, table_size: int) -> int:
    """The seat that deals game `game_number` (seat 1 deals game 1, then clockwise)."""
    _check_table_size(table_size)
    _check_game_number(game_number)
    return (game_number - 1) % table_size + 1


def sitting_out(game_number: int, table_size: int) -> int | None:
    """The seat that does not play this game: the dealer at a 5-table, nobody at a 4-table."""
    dealer = dealer_of(game_number, table_size)
    return dealer if table_size == 5 else None


def games_at_five(games_per_round: int) -> int:
    """Default games per round at a 5-table: games x 5/4 rounded up to a multiple of 5 (30 -> 40).

    A multiple of 5 lets every player of the table deal equally often.
    """
    if not (is_whole_number(games_per_round) and games_per_round >= 1):
        raise RuleError(
            "games_per_round_invalid",
            gettext_noop("A round needs at least one game; %(value)s games per round is not possible."),
            field="games_per_round", value=games_per_round,
        )
    return 5 * ceil(games_per_round / 4)


# --- one game -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One row of the score list: what the table wrote for one game.

    Seats are numbered 1..table size. `schwarz` alone means Schneider and Schwarz. `laufende` counts
    only when the tariff counts Laufende. `tout_initials` are the supervision's initials on a tout row.
    """

    game_type: str
    declarer: int
    partner: int | None
    won: bool
    schneider: bool = False
    schwarz: bool = False
    tout: bool = False
    laufende: int = 0
    tout_initials: str = ""


#: Messages the entry pages also show live, as soon as a row is typed (static/schafkopf/entry.js), not only when
#: the list is saved: the same words in both places.
SITS_OUT = gettext_noop("Seat %(seat)s deals game %(game_number)s at this five-player table and sits it out: "
                        "enter one of the four players of that game.")
TOUT_IN_FIRST_GAME = gettext_noop("No tout may be played in the first game of a round: correct the game.")
PARTNER_IS_DECLARER = gettext_noop("The declarer cannot be his own partner: enter the seat of the called partner.")
LIVE_MESSAGES = {"sits_out": SITS_OUT, "tout_in_first_game": TOUT_IN_FIRST_GAME,
                 "partner_is_declarer": PARTNER_IS_DECLARER}


def _check_seat(role: str, seat: object, *, game_number: int, table_size: int) -> None:
    if not (is_whole_number(seat) and 1 <= seat <= table_size):
        raise RuleError(
            f"{role}_not_at_table",
            gettext_noop("Seat %(seat)s is not at this table: enter a seat from 1 to %(table_size)s."),
            field=role, seat=seat, table_size=table_size,
        )
    if seat == sitting_out(game_number, table_size):
        raise RuleError(
            f"{role}_sits_out",
            SITS_OUT,
            field=role, seat=seat, game_number=game_number,
        )


def _check_players(entry: GameEntry, *, game_number: int, table_size: int) -> None:
    _check_seat("declarer", entry.declarer, game_number=game_number, table_size=table_size)
    if is_solo_class(entry.game_type):
        if entry.partner is not None:
            raise RuleError(
                "partner_not_allowed",
                gettext_noop("A Farbsolo, Wenz or Farbwenz is played alone: remove the partner."),
                field="partner",
            )
        return
    if entry.partner is None:
        raise RuleError(
            "partner_missing",
            gettext_noop("A Rufspiel is played with the called partner: enter the partner's seat."),
            field="partner",
        )
    _check_seat("partner", entry.partner, game_number=game_number, table_size=table_size)
    if entry.partner == entry.declarer:
        raise RuleError(
            "partner_is_declarer",
            PARTNER_IS_DECLARER,
            field="partner",
        )


def _check_tout(entry: GameEntry, *, game_number: int) -> None:
    if not entry.tout:
        if entry.tout_initials.strip():
            raise RuleError(
                "initials_without_tout",
                gettext_noop("Supervision initials are recorded only for a tout: mark the game as tout or "
                             "remove the initials."),
                field="tout_initials",
            )
        return
    if not is_solo_class(entry.game_type):
        raise RuleError(
            "tout_not_solo",
            gettext_noop("Only a Farbsolo, Wenz or Farbwenz can be played as tout, not a Rufspiel: remove the "
                         "tout mark or correct the game type."),
            field="tout",
        )
    if game_number == 1:
        raise RuleError(
            "tout_in_first_game",
            TOUT_IN_FIRST_GAME,
            field="tout", game_number=game_number,
        )
    if not entry.tout_initials.strip():
        raise RuleError(
            "tout_initials_missing",
            gettext_noop("A tout must be approved by the supervision: enter the supervision's initials."),
            field="tout_initials",
        )


def validate_entry(entry: GameEntry, *, game_number: int, table_size: int) -> None:
    """Raise RuleError when the rules do not allow this row as game `game_number` at this table."""
    _check_table_size(table_size)
    _check_game_number(game_number)
    if entry.game_type not in GAME_TYPES:
        raise RuleError(
            "game_type_unknown",
            gettext_noop("Unknown game type %(game_type)s: choose Rufspiel, Farbsolo, Wenz or Farbwenz."),
            field="game_type", game_type=entry.game_type,
        )
    _check_players(entry, game_number=game_number, table_size=table_size)
    _check_tout(entry, game_number=game_number)
    maximum = GAME_TYPES[entry.game_type].max_laufende
    if not (is_whole_number(entry.laufende) and 0 <= entry.laufende <= maximum):
        raise RuleError(
            "laufende_invalid",
            gettext_noop("This game has at most %(maximum)s Laufende; %(value)s is not possible. Correct the "
                         "number of Laufende."),
            field="laufende", maximum=maximum, value=entry.laufende,
        )


def score_game(entry: GameEntry, *, game_number: int, table_size: int, tariff: Tariff) -> dict[int, int]:
    """Points of every seat at the table for one game; they sum to zero.

    At a 5-table the dealer of the game sits out and gets 0.
    """
    validate_entry(entry, game_number=game_number, table_size=table_size)
    amount = amount_per_player(entry, tariff) * (1 if entry.won else -1)
    out = sitting_out(game_number, table_size)
    points = {seat: (0 if seat == out else -amount) for seat in range(1, table_size + 1)}
    if is_solo_class(entry.game_type):
        points[entry.declarer] = 3 * amount
    else:
        points[entry.declarer] = points[entry.partner] = amount
    return points


# --- one score list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """What the ranking counts per player: self-played solo-class games and touts (a tout is also solo)."""

    solo_played: int = 0
    solo_won: int = 0
    tout_played: int = 0
    tout_won: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(**{name: getattr(self, name) + getattr(other, name) for name in COUNT_FIELDS})


COUNT_FIELDS = ("solo_played", "solo_won", "tout_played", "tout_won")


def counts_of(entry: GameEntry) -> Counts:
    """What this game adds to its declarer's counts (partners in a Rufspiel count nothing)."""
    if not is_solo_class(entry.game_type):
        return Counts()
    return Counts(1, int(entry.won), int(entry.tout), int(entry.tout and entry.won))


@dataclass(frozen=True)
class ListRow:
    game_number: int
    dealer: int
    entry: GameEntry
    points: Mapping[int, int]
    running: Mapping[int, int]


@dataclass(frozen=True)
class ListResult:
    rows: tuple[ListRow, ...]
    totals: Mapping[int, int]
    counts: Mapping[int, Counts]


def score_list(entries: Sequence[GameEntry], *, table_size: int, tariff: Tariff) -> ListResult:
    """Score a whole list entered game by game; entry i is game i + 1.

    RuleErrors carry `params["game_number"]` so the form can point at the row.
    """
    _check_table_size(table_size)
    running = dict.fromkeys(range(1, table_size + 1), 0)
    counts = dict.fromkeys(range(1, table_size + 1), Counts())
    rows = []
    for game_number, entry in enumerate(entries, start=1):
        try:
            points = score_game(entry, game_number=game_number, table_size=table_size, tariff=tariff)
        except RuleError as error:
            error.params = {**error.params, "game_number": game_number}
            raise
        running = {seat: running[seat] + points[seat] for seat in running}
        counts[entry.declarer] += counts_of(entry)
        rows.append(ListRow(game_number, dealer_of(game_number, table_size), entry, points, running))
    return ListResult(tuple(rows), running, counts)


# --- totals-only entry ----------------------------------------------------------------------------


def _check_counts(seat: int, counts: Counts) -> None:
    for name in COUNT_FIELDS:
        value = getattr(counts, name)
        require_count(value, "count_invalid",
                      gettext_noop("Seat %(seat)s: counts must be whole numbers, zero or more; %(value)s is not."),
                      field=name, seat=seat)
    for smaller, larger, message in _COUNT_ORDER:
        if getattr(counts, smaller) > getattr(counts, larger):
            raise RuleError(
                f"{smaller}_exceeds_{larger}", message,
                field=smaller, seat=seat, smaller=getattr(counts, smaller), larger=getattr(counts, larger),
            )


# a won game was also played, and a tout is also a solo-class game
_COUNT_ORDER = (
    ("solo_won", "solo_played",
     gettext_noop("Seat %(seat)s: %(smaller)s solo games won but only %(larger)s played. Correct the counts.")),
    ("tout_won", "tout_played",
     gettext_noop("Seat %(seat)s: %(smaller)s touts won but only %(larger)s played. Correct the counts.")),
    ("tout_played", "solo_played",
     gettext_noop("Seat %(seat)s: %(smaller)s touts played but only %(larger)s solo games played; a tout counts "
                  "as a solo game too. Correct the counts.")),
    ("tout_won", "solo_won",
     gettext_noop("Seat %(seat)s: %(smaller)s touts won but only %(larger)s solo games won; a won tout counts "
                  "as a won solo game too. Correct the counts.")),
)


def _check_against_games(totals: Mapping[int, int], counts: Mapping[int, Counts], games: int,
                         tariff: Tariff | None) -> None:
    require_count(games, "games_invalid",
                  gettext_noop("The number of games must be a whole number, zero or more; %(value)s is not."),
                  field="games")
    solos = sum(c.solo_played for c in counts.values())
    if solos > games:
        raise RuleError(
            "solos_exceed_games",
            gettext_noop("The list counts %(solos)s solo games but only %(games)s games were played. "
                         "Correct the counts."),
            field="solo_played", solos=solos, games=games,
        )
    touts = sum(c.tout_played for c in counts.values())
    if touts > max(games - 1, 0):
        raise RuleError(
            "touts_exceed_games",
            gettext_noop("The list counts %(touts)s touts in %(games)s games, but the first game of a round "
                         "cannot be a tout. Correct the counts."),
            field="tout_played", touts=touts, games=games,
        )
    if tariff is None:
        return
    limit = games * _largest_seat_amount(tariff)
    for seat, total in totals.items():
        if abs(total) > limit:
            raise RuleError(
                "total_implausible",
                gettext_noop("Seat %(seat)s: a total of %(total)s is not possible in %(games)s games with this "
                             "tariff (at most %(limit)s either way). Check the total."),
                field="totals", seat=seat, total=total, games=games, limit=limit,
            )


def validate_totals(
    totals: Mapping[int, int],
    counts: Mapping[int, Counts],
    *,
    games: int | None = None,
    tariff: Tariff | None = None,
) -> None:
    """Check a list entered as totals per seat plus counts; RuleError when it cannot be right.

    Seats without counts count as zero. With `games` (games played on the list) the counts are checked
    against it, and with `tariff` too each total against the most that many games can give.
    """
    for seat, total in totals.items():
        if not is_whole_number(total):
            raise RuleError(
                "total_invalid",
                gettext_noop("Seat %(seat)s: the total must be a whole number of points; %(total)s is not."),
                field="totals", seat=seat, total=total,
            )
    total_sum = sum(totals.values())
    if total_sum != 0:
        raise RuleError(
            "totals_not_zero",
            gettext_noop("The totals add up to %(sum)s instead of 0. Every game sums to zero, so a total is "
                         "wrong: check the list and correct it."),
            field="totals", sum=total_sum,
        )
    for seat in counts:
        if seat not in totals:
            raise RuleError(
                "counts_unknown_seat",
                gettext_noop("Counts were entered for seat %(seat)s, which has no total. Enter its total or "
                             "remove the counts."),
                field="counts", seat=seat,
            )
    for seat, seat_counts in counts.items():
        _check_counts(seat, seat_counts)
    if games is not None:
        _check_against_games(totals, counts, games, tariff)


# --- ranking --------------------------------------------------------------------------------------

POINTS = Metric("points", gettext_noop("Points"), gettext_noop("Pts"))
TOUT_WON = Metric("tout_won", gettext_noop("Tout won"), gettext_noop("TW"))
TOUT_PLAYED = Metric("tout_played", gettext_noop("Tout played"), gettext_noop("TP"))
SOLO_WON = Metric("solo_won", gettext_noop("Solo/Wenz won"), gettext_noop("SW"))
SOLO_PLAYED = Metric("solo_played", gettext_noop("Solo/Wenz played"), gettext_noop("SP"))
ROUND_SPREAD = Metric(
    "round_spread", gettext_noop("Difference between rounds"), gettext_noop("Diff"), higher_is_better=False
)
#: steps 1-6 of the ranking (docs/rules/schafkopf.md); step 7, the lot, is added by `standings.rank`
RANKING_CHAIN: tuple[Metric, ...] = (POINTS, TOUT_WON, TOUT_PLAYED, SOLO_WON, SOLO_PLAYED, ROUND_SPREAD)
EXCLUDED_KEY = "excluded"
EXCLUDED_LABEL = gettext_noop("excluded")


def ranking_values(
    players: Sequence[Hashable],
    round_points: Mapping[Hashable, Sequence[int]],
    counts: Mapping[Hashable, Counts],
) -> dict[Hashable, dict[str, int]]:
    """Each player's value for every metric of `RANKING_CHAIN`."""
    values = {}
    for player in players:
        rounds = list(round_points.get(player, ()))
        player_counts = counts.get(player, Counts())
        values[player] = {
            POINTS.key: sum(rounds),
            ROUND_SPREAD.key: max(rounds) - min(rounds) if rounds else 0,
            **{name: getattr(player_counts, name) for name in COUNT_FIELDS},
        }
    return values


def ranking(
    players: Sequence[Hashable],
    round_points: Mapping[Hashable, Sequence[int]],
    counts: Mapping[Hashable, Counts],
    *,
    seed: int | str | None,
    excluded: frozenset = frozenset(),
    lot_keys: Mapping[Hashable, Hashable] | None = None,
) -> list[Standing]:
    """The standings: `RANKING_CHAIN`, then lot from `seed`; excluded players last and marked.

    `round_points` holds each player's points per round; `counts` their counts summed over the rounds.
    """
    values = ranking_values(players, round_points, counts)
    eligible = [p for p in players if p not in excluded]
    barred = [p for p in players if p in excluded]
    standings = rank(eligible, RANKING_CHAIN, values, seed=seed, lot_keys=lot_keys)
    tail = rank(barred, RANKING_CHAIN, values, seed=seed, lot_keys=lot_keys)
    for standing in tail:
        standing.rank += len(eligible)
    if standings and tail:
        tail[0].separated_by = EXCLUDED_KEY
    for standing in standings + tail:
        standing.values[EXCLUDED_KEY] = standing.participant in excluded
    return standings + tail


# --- money ----------------------------------------------------------------------------------------

CENT = Decimal("0.01")
PRIZE_KINDS = ("fixed", "percent")


@dataclass(frozen=True)
class PrizeSpec:
    """One prize place: a fixed amount, or a percentage of the takings."""

    kind: str
    value: Decimal


@dataclass(frozen=True)
class Notice:
    """A warning for the director: translatable message with parameters, like a RuleError not raised."""

    code: str
    message: str
    params: Mapping[str, object]


class PrizeList(list):
    """The prize amounts in Decimal, first place first, with the takings and any warnings."""

    def __init__(self, amounts: Sequence[Decimal], *, takings: Decimal, warnings: Sequence[Notice] = ()):
        super().__init__(amounts)
        self.takings = takings
        self.warnings = tuple(warnings)

    @property
    def total(self) -> Decimal:
        return sum(self, Decimal("0.00"))

    @property
    def shortfall(self) -> Decimal:
        """What the organiser adds when the prizes exceed the takings (0.00 otherwise)."""
        return max(self.total - self.takings, Decimal("0.00"))


def _is_money(value: object) -> bool:
    # floats are refused: 0.1 euro is not exactly representable
    return isinstance(value, Decimal | int) and not isinstance(value, bool) and value >= 0


def _check_prizes(entry_fee: Decimal, players_paid: int, prizes: Sequence[PrizeSpec]) -> None:
    if not _is_money(entry_fee):
        raise RuleError(
            "entry_fee_invalid",
            gettext_noop("The entry fee must be an amount of money, zero or more; %(value)s is not."),
            field="entry_fee", value=entry_fee,
        )
    require_count(players_paid, "players_paid_invalid",
                  gettext_noop("The number of paying players must be a whole number, zero or more; %(value)s is "
                               "not."),
                  field="players_paid")
    for place, prize in enumerate(prizes, start=1):
        if prize.kind not in PRIZE_KINDS:
            raise RuleError(
                "prize_kind_invalid",
                gettext_noop("Prize for place %(place)s: choose a fixed amount or a percentage of the takings."),
                field="prizes", place=place,
            )
        if not _is_money(prize.value):
            raise RuleError(
                "prize_value_invalid",
                gettext_noop("Prize for place %(place)s: %(value)s is not an amount, zero or more."),
                field="prizes", place=place, value=prize.value,
            )
    percent = sum((p.value for p in prizes if p.kind == "percent"), Decimal(0))
    if percent > 100:
        raise RuleError(
            "prize_percent_over_100",
            gettext_noop("The percentage prizes add up to %(percent)s%% of the takings; they can share at most "
                         "100%%. Lower the percentages."),
            field="prizes", percent=percent,
        )


def prize_list(entry_fee: Decimal, players_paid: int, prizes: Sequence[PrizeSpec], *,
               takings: Decimal | None = None) -> PrizeList:
    """Prize money per place, rounded to cents (half up). Percentages are of the whole takings.

    The takings are the entry fee times the paying players, or `takings` when the desk recorded what was
    actually paid. Prizes beyond the takings are allowed (the organiser may add money): the result then
    carries a `prizes_exceed_takings` warning and a non-zero `shortfall`.
    """
    _check_prizes(entry_fee, players_paid, prizes)
    if takings is not None and not _is_money(takings):
        raise RuleError(
            "takings_invalid",
            gettext_noop("The takings must be an amount of money, zero or more; %(value)s is not."),
            field="takings", value=takings,
        )
    takings = (Decimal(entry_fee) * players_paid if takings is None else takings).quantize(CENT, ROUND_HALF_UP)
    amounts = [
        (takings * p.value / 100 if p.kind == "percent" else Decimal(p.value)).quantize(CENT, ROUND_HALF_UP)
        for p in prizes
    ]
    result = PrizeList(amounts, takings=takings)
    if result.shortfall:
        result.warnings = (Notice(
            "prizes_exceed_takings",
            gettext_noop("The prizes add up to %(total)s but the takings are %(takings)s: the organiser must add "
                         "%(shortfall)s."),
            {"total": result.total, "takings": takings, "shortfall": result.shortfall},
        ),)
    return result
