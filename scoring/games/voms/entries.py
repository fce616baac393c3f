"""A Voms slip as the table wrote it (`slip_entry`: what is stored) and what it is worth (`derive_slip`: the one
recompute path `record_sheet` uses). Plain values in, plain values out: the rules live in `scoring.rules.voms`."""

from __future__ import annotations

from scoring.rules import voms as rules
from scoring.rules.base import RuleError, gettext_noop


def derive_slip(settings: rules.VomsSettings, best_of: int = 1):
    """What a slip's games are worth; used by `record_sheet` as the one recompute path."""

    def derive(entries, mode) -> dict:
        if not isinstance(entries, list) or not entries:
            raise RuleError("no_games", gettext_noop("The slip has no game."))
        games = [score_entry(entry, settings) for entry in entries]
        if best_of > 1:
            state = rules.series_state(games, best_of)
            return {"games": [_game_dict(g) for g in games], "wins_a": state.wins_a, "wins_b": state.wins_b,
                    "winner": state.winner, "finished": state.finished}
        if len(games) != 1:
            raise RuleError("one_game", gettext_noop("A pool slip holds one game."))
        return {"games": [_game_dict(games[0])], "winner": games[0].winner, "finished": True}

    return derive


def score_entry(entry: dict, settings: rules.VomsSettings) -> rules.GameScore:
    absent = entry.get("absent")
    if absent in ("a", "b"):
        return rules.forfeit("b" if absent == "a" else "a", settings)
    return rules.score_game(entry.get("lus_a"), entry.get("lus_b"), entry.get("winner"),
                            confirm_low_winner=bool(entry.get("confirm_low_winner")),
                            confirm_high_lus=bool(entry.get("confirm_high_lus")), settings=settings)


def _game_dict(game: rules.GameScore) -> dict:
    return {"lus_a": game.lus_a, "lus_b": game.lus_b, "winner": game.winner, "kind": game.kind,
            "points_a": str(game.points_a), "points_b": str(game.points_b)}


def slip_entry(*, lus_a=None, lus_b=None, winner=None, confirm_low_winner=False, confirm_high_lus=False,
               absent=None) -> dict:
    """The raw entry as the slip says it (what is stored)."""
    if absent:
        return {"absent": absent}
    entry = {"lus_a": lus_a, "lus_b": lus_b}
    if winner:
        entry["winner"] = winner
    if confirm_low_winner:
        entry["confirm_low_winner"] = True
    if confirm_high_lus:
        entry["confirm_high_lus"] = True
    return entry
