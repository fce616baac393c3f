"""A seated game's evening as a season counts it (the `season_evening` hook): place, points, the chain's ties."""

from __future__ import annotations

from scoring.rules.season import EveningRanking, evening_rows

from .game import seated_game


def season_evening(tournament) -> EveningRanking:
    result = seated_game(tournament).standings(tournament)
    rows = [(row.participant.pk, row.rank, row.values) for row in result.rows]
    return EveningRanking(final=result.final, rows=evening_rows(rows, result.chain),
                          higher_is_better=result.chain[0].higher_is_better)
