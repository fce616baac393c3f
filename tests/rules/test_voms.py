from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from scoring.rules.standings import LOT_KEY
from scoring.rules.voms import (
    DISPLAY_COLUMNS,
    MAX_LUS,
    PlayedGame,
    VomsSettings,
    check_series_game_allowed,
    forfeit,
    is_disqualified,
    pool_chain,
    pool_standings,
    score_game,
    series_state,
)

# --- Scoring one game: every example of the digest ---------------------------------------


@pytest.mark.parametrize(
    ("lus_a", "lus_b", "kind", "points"),
    [
        (9, 5, "normal", "2"),
        (9, 0, "kam", "2.5"),
        (11, 7, "over", "1.5"),
        (13, 10, "over", "1.5"),  # both above 9: the winner is named below
        (11, 0, "over", "1.5"),  # Decision: over the target beats kam
    ],
)
def test_digest_examples(lus_a, lus_b, kind, points):
    winner = "a" if lus_b >= 9 else None
    score = score_game(lus_a, lus_b, winner)
    assert (score.winner, score.kind, score.points_a, score.points_b) == ("a", kind, Decimal(points), Decimal(0))
    mirrored = score_game(lus_b, lus_a, "b" if winner else None)
    assert (mirrored.winner, mirrored.kind, mirrored.points_b, mirrored.points_a) == (
        "b",
        kind,
        Decimal(points),
        Decimal(0),
    )


def test_points_are_decimals():
    assert isinstance(score_game(9, 0).points_a, Decimal)
    assert isinstance(score_game(9, 0).points_b, Decimal)


def test_winner_inferred_when_only_one_team_reached_nine():
    assert score_game(3, 9).winner == "b"
    assert score_game(9, 8).winner == "a"


def test_named_winner_agreeing_with_the_lus_is_accepted():
    assert score_game(9, 5, "a").points_a == Decimal(2)


def _refusal(code, field, *args, **kwargs):
    with pytest.raises(RuleError) as caught:
        score_game(*args, **kwargs)
    error = caught.value
    assert (error.code, error.field) == (code, field)
    assert "%(" not in str(error)  # every placeholder was filled
    return error


def test_nine_nine_without_winner_refused():
    error = _refusal("winner_required", "winner", 9, 9)
    assert "9:9" in str(error)


def test_nine_nine_with_named_winner_is_a_normal_win():
    score = score_game(9, 9, "b")
    assert (score.winner, score.kind, score.points_b) == ("b", "normal", Decimal(2))


def test_both_over_nine_needs_the_winner():
    _refusal("winner_required", "winner", 13, 10)


def test_no_team_at_target_refused():
    _refusal("no_team_at_target", "lus_a", 8, 5)
    _refusal("no_team_at_target", "lus_a", 8, 5, "a")


def test_named_winner_below_target_refused():
    _refusal("winner_below_target", "winner", 9, 5, "b")


def test_low_winner_needs_confirmation():
    _refusal("low_winner_unconfirmed", "winner", 9, 11, "a")
    score = score_game(9, 11, "a", confirm_low_winner=True)
    assert (score.kind, score.points_a, score.points_b) == ("normal", Decimal(2), Decimal(0))
    assert score_game(10, 12, "a", confirm_low_winner=True).kind == "over"


@pytest.mark.parametrize("bad", [9.0, "9", Decimal("9"), True, None])
def test_non_whole_lus_refused(bad):
    _refusal("lus_not_whole", "lus_a", bad, 5)
    _refusal("lus_not_whole", "lus_b", 9, bad)


def test_negative_and_absurd_lus_refused():
    _refusal("lus_negative", "lus_b", 9, -1)
    _refusal("lus_too_large", "lus_a", MAX_LUS + 1, 3)
    assert score_game(MAX_LUS, 3).kind == "over"


def test_invalid_winner_refused():
    _refusal("winner_invalid", "winner", 9, 5, "c")


def test_other_target_from_settings():
    eleven = VomsSettings(target=11)
    assert score_game(11, 0, settings=eleven).kind == "kam"
    assert score_game(12, 4, settings=eleven).kind == "over"
    with pytest.raises(RuleError):
        score_game(9, 5, settings=eleven)


@pytest.mark.parametrize(
    ("field", "value"),
    [("best_of", 2), ("best_of", 0), ("target", 0), ("max_absences", -1), ("win_points", 2.0), ("kam_points", -1)],
)
def test_invalid_settings_refused(field, value):
    if field.endswith("points") and isinstance(value, int):
        value = Decimal(value)
    with pytest.raises(RuleError) as caught:
        VomsSettings(**{field: value})
    assert caught.value.field == field


lus = st.integers(min_value=0, max_value=MAX_LUS)


@settings(max_examples=300, deadline=None)
@given(lus, lus, st.sampled_from(["a", "b", None]), st.booleans())
def test_any_accepted_game_gives_the_winner_one_of_three_values(lus_a, lus_b, winner, confirm):
    try:
        score = score_game(lus_a, lus_b, winner, confirm_low_winner=confirm)
    except RuleError:
        return
    won, lost = (score.points_a, score.points_b) if score.winner == "a" else (score.points_b, score.points_a)
    winner_lus = lus_a if score.winner == "a" else lus_b
    assert lost == 0
    assert won == {"normal": Decimal(2), "kam": Decimal("2.5"), "over": Decimal("1.5")}[score.kind]
    assert winner_lus >= 9
    assert (score.kind == "over") == (winner_lus > 9)


# --- Forfeits and disqualification ------------------------------------------------------


def test_forfeit_is_nine_nil_worth_a_kam():
    score = forfeit("b")
    assert (score.lus_a, score.lus_b, score.winner, score.kind) == (0, 9, "b", "forfeit")
    assert (score.points_a, score.points_b) == (Decimal(0), Decimal("2.5"))
    with pytest.raises(RuleError):
        forfeit("x")


def test_absent_at_most_two_rounds_then_disqualified():
    assert [is_disqualified(n) for n in range(5)] == [False, False, False, True, True]
    assert is_disqualified(1, VomsSettings(max_absences=0))
    with pytest.raises(RuleError) as caught:
        is_disqualified(-1)
    assert caught.value.field == "absences"


# --- Pool ranking --------------------------------------------------------------------------


def game(team_a, team_b, lus_a, lus_b, winner=None, **kwargs):
    return PlayedGame.from_score(team_a, team_b, score_game(lus_a, lus_b, winner, **kwargs))


def order(rows):
    return [r.participant for r in rows]


def test_points_rank_first_and_display_values():
    games = [game("A", "B", 9, 5), game("A", "C", 9, 0), game("B", "C", 11, 7)]
    rows = pool_standings(["C", "B", "A"], games, seed=1)
    assert order(rows) == ["A", "B", "C"]
    a = rows[0].values
    assert (a["points"], a["wins"], a["played"], a["lus_for"], a["lus_against"], a["lus_diff"]) == (
        Decimal("4.5"),
        2,
        2,
        18,
        5,
        13,
    )
    assert rows[1].separated_by == "points"
    assert {key for key, _, _ in DISPLAY_COLUMNS} <= set(a)


def test_wins_break_a_points_tie_before_lus_difference():
    # X: three wins over the target (3 x 1.5); Y: a kam and a normal win (2.5 + 2). Y has the
    # better lus difference and beat X, but X has more wins.
    games = [
        game("Y", "X", 9, 0),
        game("X", "P", 11, 7),
        game("X", "Q", 11, 7),
        game("X", "R", 11, 7),
        game("Y", "P", 9, 5),
        game("Q", "Y", 9, 5),
        game("R", "Y", 9, 5),
    ]
    rows = pool_standings(["P", "Q", "R", "X", "Y"], games, seed=1)
    assert order(rows)[:2] == ["X", "Y"]
    x, y = rows[0].values, rows[1].values
    assert x["points"] == y["points"] == Decimal("4.5")
    assert x["lus_diff"] < y["lus_diff"]
    assert rows[1].separated_by == "wins"


def test_wins_not_used_with_only_two_teams():
    # Five games between the same two teams: equal points, A has more wins, B better lus.
    games = [game("A", "B", 11, 7)] * 3 + [game("A", "B", 0, 9), game("A", "B", 5, 9)]
    two = pool_standings(["A", "B"], games, seed=1)
    assert order(two) == ["B", "A"] and two[1].separated_by == "lus_diff"
    assert [m.key for m in pool_chain(2, games)] == ["points", "lus_diff", "h2h"]
    three = pool_standings(["A", "B", "C"], games, seed=1)
    assert order(three)[:2] == ["A", "B"] and three[1].separated_by == "wins"
    assert [m.key for m in pool_chain(3, games)] == ["points", "wins", "lus_diff", "h2h"]


def test_lus_difference_breaks_a_points_and_wins_tie():
    games = [game("A", "C", 9, 1), game("B", "C", 9, 6)]
    rows = pool_standings(["A", "B", "C"], games, seed=1)
    assert order(rows) == ["A", "B", "C"]
    assert rows[1].separated_by == "lus_diff"


def test_three_way_tie_resolved_by_the_games_among_the_tied():
    # A, B and C all have 3.5 points, 2 wins and +8; among themselves A is +5, B -2, C -3.
    games = [
        game("A", "B", 9, 2),
        game("B", "C", 9, 4),
        game("C", "A", 9, 7),
        game("A", "D", 11, 8),
        game("B", "D", 11, 1),
        game("C", "D", 11, 0),
    ]
    rows = pool_standings(list("DCBA"), games, seed=1)
    assert order(rows) == ["A", "B", "C", "D"]
    assert {r.values["lus_diff"] for r in rows[:3]} == {8}
    assert [r.values["h2h"] for r in rows[:3]] == [(Decimal(2), 5), (Decimal(2), -2), (Decimal(2), -3)]
    assert [r.separated_by for r in rows[1:]] == ["h2h", "h2h", "points"]
    assert not any(r.by_lot for r in rows)


def test_games_among_the_tied_recomputed_for_the_two_still_tied():
    # Among A, B, C: A leads with a kam; B and C are level (2 points, -1) until only their own
    # game counts, which B won.
    games = [
        game("A", "B", 9, 0),
        game("B", "C", 9, 1),
        game("C", "A", 9, 2),
        game("A", "D", 11, 6),
        game("B", "D", 9, 1),
        game("C", "D", 9, 1),
    ]
    rows = pool_standings(list("ABCD"), games, seed=1)
    assert order(rows) == ["A", "B", "C", "D"]
    assert len({(r.values["points"], r.values["wins"], r.values["lus_diff"]) for r in rows[:3]}) == 1
    assert rows[1].values["h2h"] == (Decimal(2), 8)  # among B and C only
    assert rows[2].separated_by == "h2h"


def test_perfect_cycle_goes_to_lot_reproducibly():
    games = [game("A", "B", 9, 5), game("B", "C", 9, 5), game("C", "A", 9, 5)]
    rows = pool_standings(list("ABC"), games, seed="draw-7")
    assert all(r.by_lot for r in rows)
    assert [r.separated_by for r in rows[1:]] == [LOT_KEY, LOT_KEY]
    assert order(pool_standings(list("CBA"), games, seed="draw-7")) == order(rows)
    assert len({tuple(order(pool_standings(list("ABC"), games, seed=s))) for s in range(20)}) > 1
    assert [r.rank for r in pool_standings(list("ABC"), games, seed=None)] == [1, 1, 1]


def test_forfeits_count_as_nine_nil_everywhere():
    games = [PlayedGame.from_score("A", "B", forfeit("a")), game("B", "C", 9, 5)]
    rows = {r.participant: r.values for r in pool_standings(list("ABC"), games, seed=1)}
    assert (rows["A"]["points"], rows["A"]["lus_for"], rows["A"]["wins"], rows["A"]["played"]) == (
        Decimal("2.5"),
        9,
        1,
        1,
    )
    assert (rows["B"]["lus_against"], rows["B"]["lus_diff"], rows["B"]["played"]) == (14, -5, 2)


def test_pool_input_errors():
    with pytest.raises(RuleError) as caught:
        pool_standings(["A", "B"], [game("A", "Z", 9, 5)], seed=1)
    assert caught.value.code == "team_not_in_pool"
    with pytest.raises(RuleError) as caught:
        pool_standings(["A", "A"], [], seed=1)
    assert caught.value.code == "duplicate_team"
    with pytest.raises(RuleError) as caught:
        pool_standings(["A", "B"], [game("A", "A", 9, 5)], seed=1)
    assert caught.value.code == "team_plays_itself"


@st.composite
def played_pools(draw):
    teams = list(range(draw(st.integers(min_value=2, max_value=7))))
    games = []
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            loser = draw(st.integers(min_value=0, max_value=8))
            winner_lus = draw(st.sampled_from([9, 9, 10, 12]))
            lus_a, lus_b = draw(st.sampled_from([(winner_lus, loser), (loser, winner_lus)]))
            games.append(game(a, b, lus_a, lus_b))
    return teams, games


@settings(max_examples=60, deadline=None)
@given(played_pools(), st.integers())
def test_standings_of_any_pool_are_a_consistent_ranking(pool, seed):
    teams, games = pool
    rows = pool_standings(teams, games, seed=seed)
    assert sorted(order(rows)) == teams
    assert [r.rank for r in rows] == list(range(1, len(teams) + 1))
    points = [r.values["points"] for r in rows]
    assert points == sorted(points, reverse=True)
    assert sum(points) == sum(g.points_a + g.points_b for g in games)
    assert sum(r.values["lus_diff"] for r in rows) == 0
    assert order(pool_standings(teams[::-1], games, seed=seed)) == order(rows)


# --- Best-of-3 series -----------------------------------------------------------------------


A_WINS, B_WINS = score_game(9, 5), score_game(5, 9)


def test_series_ends_at_two_wins():
    assert series_state([]) == series_state([], 3)
    assert series_state([A_WINS]).finished is False
    state = series_state([A_WINS, A_WINS])
    assert (state.wins_a, state.wins_b, state.winner, state.finished) == (2, 0, "a", True)
    state = series_state([A_WINS, B_WINS])
    assert (state.winner, state.finished) == (None, False)
    state = series_state([A_WINS, B_WINS, B_WINS])
    assert (state.wins_a, state.wins_b, state.winner) == (1, 2, "b")


def test_no_game_after_the_series_is_decided():
    check_series_game_allowed([A_WINS, B_WINS])
    with pytest.raises(RuleError) as caught:
        check_series_game_allowed([B_WINS, B_WINS])
    assert caught.value.code == "series_decided"
    with pytest.raises(RuleError):
        series_state([A_WINS, A_WINS, B_WINS])


def test_best_of_five_and_invalid_lengths():
    assert series_state([A_WINS, A_WINS], best_of=5).finished is False
    assert series_state([A_WINS, B_WINS, A_WINS, A_WINS], best_of=5).winner == "a"
    assert series_state([B_WINS], best_of=1).winner == "b"
    with pytest.raises(RuleError) as caught:
        series_state([], best_of=4)
    assert caught.value.code == "best_of_invalid"
