"""A seated game's evening as a season counts it (the `season_evening` hook): place, points, the chain's ties."""

from __future__ import annotations

from scoring.rules.season import EveningRanking, evening_rows


def evening_ranking(result) -> EveningRanking:
    """The evening of the standings `result` (a `scoring.seated.standings.Standings`)."""
    rows = [(row.participant.pk, row.rank, row.values) for row in result.rows]
    return EveningRanking(final=result.final, rows=evening_rows(rows, result.chain),
                          higher_is_better=result.chain[0].higher_is_better)
