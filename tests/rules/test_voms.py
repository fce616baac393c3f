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
    PoolSlot,
    VomsSettings,
    check_series_game_allowed,
    derive_pool,
    forfeit,
    is_disqualified,
    newly_disqualified,
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
    score = score_game(lus_a, lus_b, winner, confirm_high_lus=True)
    assert (score.winner, score.kind, score.points_a, score.points_b) == ("a", kind, Decimal(points), Decimal(0))
    mirrored = score_game(lus_b, lus_a, "b" if winner else None, confirm_high_lus=True)
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
    _refusal("lus_too_large", "lus_b", 5, 99)  # the 5:99 that used to be saved
    _refusal("lus_too_large", "lus_a", 21, 3, confirm_high_lus=True)  # a confirmation does not lift the limit
    assert score_game(20, 3, confirm_high_lus=True).kind == "over"


def test_lus_above_twelve_need_a_confirmation():
    """Digest Decision (plausible lus): above 12 asked ("13 lus — are you sure?"), above 20 refused."""
    assert score_game(12, 3).kind == "over"
    with pytest.raises(RuleError) as caught:
        score_game(13, 3)
    error = caught.value
    assert (error.code, error.field, error.params["value"]) == ("lus_unlikely", "confirm_high_lus", 13)
    with pytest.raises(RuleError) as caught:
        score_game(3, 14)
    assert caught.value.params["value"] == 14
    assert score_game(13, 3, confirm_high_lus=True).points_a == Decimal("1.5")
    # the limit is checked before the question: 99 is refused, never asked about
    _refusal("lus_too_large", "lus_b", 13, 99)


def test_lus_limits_are_settings():
    wide = VomsSettings(sure_lus=15, max_lus=30)
    assert score_game(15, 3, settings=wide).kind == "over"
    assert score_game(30, 3, confirm_high_lus=True, settings=wide).kind == "over"
    with pytest.raises(RuleError):
        score_game(31, 3, confirm_high_lus=True, settings=wide)
    for bad in ({"sure_lus": 8}, {"sure_lus": 12, "max_lus": 11}, {"max_lus": MAX_LUS + 1}):
        with pytest.raises(RuleError):
            VomsSettings(**bad)


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
        score = score_game(lus_a, lus_b, winner, confirm_low_winner=confirm, confirm_high_lus=True)
    except RuleError:
        return
    won, lost = (score.points_a, score.points_b) if score.winner == "a" else (score.points_b, score.points_a)
    winner_lus = lus_a if score.winner == "a" else lus_b
    assert lost == 0
    assert won == {"normal": Decimal(2), "kam": Decimal("2.5"), "over": Decimal("1.5")}[score.kind]
    assert winner_lus >= 9
    assert (score.kind == "over") == (winner_lus > 9)
    assert max(lus_a, lus_b) <= 20


@settings(max_examples=200, deadline=None)
@given(lus, lus, st.sampled_from(["a", "b", None]))
def test_lus_above_twelve_are_never_saved_without_a_confirmation(lus_a, lus_b, winner):
    try:
        score_game(lus_a, lus_b, winner, confirm_low_winner=True)
    except RuleError:
        return
    assert max(lus_a, lus_b) <= 12


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


def test_a_team_in_no_game_yet_has_no_rank_and_follows_the_ranked_ones():
    """A bye in round 1 (or a pool not started): no result yet, so no rank, never above a team that lost and
    never ranked by lot (directors-guide.md, "Provisional and final standings")."""
    rows = pool_standings(["E", "A", "B", "C", "D"], [game("A", "B", 9, 5), game("C", "D", 9, 7)], seed=1)
    assert order(rows)[-1] == "E" and rows[-1].rank is None and not rows[-1].by_lot
    assert [row.rank for row in rows[:4]] == [1, 2, 3, 4] and rows[-1].values["played"] == 0
    unplayed = pool_standings(["A", "B"], [], seed=1)
    assert [row.rank for row in unplayed] == [None, None] and order(unplayed) == ["A", "B"]


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


# --- Absences and disqualification (digest "Forfeit" and its Decisions) ----------------------

def slot(key, rnd, a, b, lus=None, absent=None):
    """A pool game: `lus` (lus_a, lus_b) for a played slip, `absent` "a"/"b" for an absence, neither: no slip."""
    if absent is not None:
        return PoolSlot(key, rnd, a, b, forfeit("b" if absent == "a" else "a"), absent)
    return PoolSlot(key, rnd, a, b, score_game(*lus) if lus else None)


def points_of(derivation, team):
    total = {"points": Decimal(0), "wins": 0, "lus": 0}
    for g in derivation.games():
        for t, lus_for, _against, pts, won in g.sides():
            if t == team:
                total["points"] += pts
                total["wins"] += won
                total["lus"] += lus_for
    return total


def x_season():
    """Team X absent in rounds 1, 2 and 3 (the third absence disqualifies it); it meets Y in round 4 and Z in 5."""
    return [
        slot(1, 1, "X", "P", absent="a"),
        slot(2, 2, "Q", "X", absent="b"),
        slot(3, 3, "X", "R", absent="a"),
        slot(4, 4, "X", "Y", lus=(9, 4)),  # typed: X won 9:4 — no longer counts
        slot(5, 5, "Z", "X"),  # no slip at all
    ]


def test_third_absence_disqualifies_in_that_round_and_later_games_are_forfeits():
    d = derive_pool(x_season())
    assert d.disqualified == {"X": 3}
    assert d.absences["X"] == (1, 2, 3)
    assert d.results[3].outcome == "as_entered"  # the disqualifying absence itself is a 9:0 forfeit
    four = d.results[4]
    assert four.outcome == "disqualified_forfeit" and four.disqualified == ("a",)
    assert (four.game.lus_a, four.game.lus_b, four.game.winner, four.game.points_b) == (0, 9, "b", Decimal("2.5"))
    five = d.results[5]
    assert five.outcome == "disqualified_forfeit" and five.entered  # counts as entered without a slip
    assert (five.game.winner, five.game.points_a) == ("a", Decimal("2.5"))
    assert points_of(d, "X") == {"points": Decimal(0), "wins": 0, "lus": 0}
    assert d.missing() == [] and d.first_open_round() is None


def test_two_absences_are_allowed():
    d = derive_pool(x_season()[:2] + x_season()[3:])
    assert d.disqualified == {}
    assert d.results[4].outcome == "as_entered" and points_of(d, "X")["points"] == Decimal(2)
    assert d.results[5].outcome == "missing" and d.first_open_round() == 5


def test_out_of_order_slips_a_later_round_typed_first():
    """A slip of round 4 typed before the third absence in round 3: the order of typing does not matter."""
    season = x_season()
    typed_order = [season[3], season[0], season[4], season[2], season[1]]
    assert derive_pool(typed_order) == derive_pool(season)
    before_third = derive_pool([season[3], season[0], season[1]])  # round 3 not typed yet
    assert before_third.results[4].outcome == "as_entered"
    after_third = derive_pool([season[3], season[0], season[1], season[2]])
    assert after_third.results[4].outcome == "disqualified_forfeit"
    assert newly_disqualified(before_third, after_third) == {"X": 3}


def test_a_correction_that_creates_the_third_absence():
    season = x_season()
    played = [*season[:2], slot(3, 3, "X", "R", lus=(5, 9)), *season[3:]]
    before = derive_pool(played)
    assert before.disqualified == {} and before.results[4].outcome == "as_entered"
    corrected = derive_pool(season)  # round 3 corrected to "X absent"
    assert newly_disqualified(before, corrected) == {"X": 3}
    assert corrected.results[4].outcome == "disqualified_forfeit"


def test_a_correction_that_removes_the_third_absence_restores_the_typed_lus():
    season = x_season()
    d = derive_pool([*season[:2], slot(3, 3, "X", "R", lus=(9, 2)), *season[3:]])
    assert d.disqualified == {}
    four = d.results[4]
    assert four.outcome == "as_entered" and (four.game.lus_a, four.game.lus_b) == (9, 4)
    assert d.results[5].outcome == "missing"
    assert points_of(d, "X")["points"] == Decimal(4)


def test_correcting_an_early_absence_moves_the_disqualification_round():
    # absent in 1, 2, 4 and 5: disqualified in 4; correcting round 1 to a played game makes 5 the third absence
    slots = [slot(1, 1, "X", "A", absent="a"), slot(2, 2, "X", "B", absent="a"), slot(3, 3, "X", "C", lus=(9, 1)),
             slot(4, 4, "X", "D", absent="a"), slot(5, 5, "X", "E", absent="a"), slot(6, 6, "X", "F", lus=(9, 3))]
    assert derive_pool(slots).disqualified == {"X": 4}
    assert derive_pool(slots).results[5].outcome == "disqualified_forfeit"
    corrected = derive_pool([slot(1, 1, "X", "A", lus=(9, 5)), *slots[1:]])
    assert corrected.disqualified == {"X": 5}
    assert corrected.results[5].outcome == "as_entered"  # the absence itself
    assert corrected.results[6].outcome == "disqualified_forfeit"


def test_absent_opponent_of_a_disqualified_team_gets_the_absence_and_no_points():
    season = x_season()
    d = derive_pool([*season[:3], slot(4, 4, "X", "Y", absent="b"), *season[4:]])
    four = d.results[4]
    assert (four.outcome, four.game, four.absent) == ("void", None, ("b",))
    assert four.entered
    assert d.absences["Y"] == (4,)
    assert points_of(d, "Y") == {"points": Decimal(0), "wins": 0, "lus": 0}
    assert points_of(d, "X")["points"] == Decimal(0)


def test_absences_next_to_a_disqualified_team_count_towards_the_own_limit():
    # Y absent in 1 and 2, then absent again against the disqualified X in round 5: Y is out from round 5
    slots = [slot(1, 1, "Y", "A", absent="a"), slot(2, 2, "Y", "B", absent="a"),
             slot(3, 1, "X", "C", absent="a"), slot(4, 2, "X", "D", absent="a"), slot(5, 3, "X", "E", absent="a"),
             slot(6, 5, "X", "Y", absent="b"), slot(7, 6, "Y", "G", lus=(9, 0))]
    d = derive_pool(slots)
    assert d.disqualified == {"X": 3, "Y": 5}
    assert d.results[6].outcome == "void"
    assert d.results[7].outcome == "disqualified_forfeit" and d.results[7].game.winner == "b"


def test_two_disqualified_teams_meeting_is_void():
    slots = [slot(1, 1, "X", "A", absent="a"), slot(2, 2, "X", "B", absent="a"), slot(3, 3, "X", "C", absent="a"),
             slot(4, 1, "W", "D", absent="a"), slot(5, 2, "W", "E", absent="a"), slot(6, 3, "W", "F", absent="a"),
             slot(7, 4, "X", "W", lus=(9, 7))]
    d = derive_pool(slots)
    seven = d.results[7]
    assert (seven.outcome, seven.game, seven.disqualified) == ("void", None, ("a", "b"))
    assert seven.entered
    for team in ("X", "W"):
        assert points_of(d, team) == {"points": Decimal(0), "wins": 0, "lus": 0}


def test_no_absence_allowed_setting():
    d = derive_pool([slot(1, 1, "X", "A", absent="a"), slot(2, 2, "X", "B", lus=(9, 2))],
                    VomsSettings(max_absences=0))
    assert d.disqualified == {"X": 1} and d.results[2].outcome == "disqualified_forfeit"


def test_a_game_listed_twice_is_refused():
    with pytest.raises(RuleError):
        derive_pool([slot(1, 1, "X", "A"), slot(1, 2, "X", "B")])


# Property tests: a random season of a small pool with random slips, absences and missing slips.

TEAMS = "ABCDEF"


@st.composite
def seasons(draw):
    rounds = draw(st.integers(min_value=1, max_value=7))
    slots = []
    key = 0
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(TEAMS))
        for i in range(0, len(order), 2):
            key += 1
            kind = draw(st.sampled_from(["played", "played", "absent_a", "absent_b", "none"]))
            a, b = order[i], order[i + 1]
            if kind == "played":
                slots.append(slot(key, rnd, a, b, lus=draw(st.sampled_from([(9, 4), (3, 9), (9, 0), (11, 7)]))))
            elif kind == "none":
                slots.append(slot(key, rnd, a, b))
            else:
                slots.append(slot(key, rnd, a, b, absent=kind[-1]))
    return slots


@settings(max_examples=200, deadline=None)
@given(seasons(), st.randoms(use_true_random=False), st.integers(min_value=0, max_value=3))
def test_derivation_does_not_depend_on_the_typing_order(slots, rnd, limit):
    shuffled = list(slots)
    rnd.shuffle(shuffled)
    rule = VomsSettings(max_absences=limit)
    assert derive_pool(shuffled, rule) == derive_pool(slots, rule)


@settings(max_examples=200, deadline=None)
@given(seasons(), st.integers(min_value=0, max_value=3))
def test_a_disqualified_team_never_gains_after_its_round(slots, limit):
    rule = VomsSettings(max_absences=limit)
    d = derive_pool(slots, rule)
    for team, rounds in d.absences.items():
        assert (team in d.disqualified) == (len(rounds) > limit)
        if team in d.disqualified:
            assert d.disqualified[team] == rounds[limit]
    for result in d.results.values():
        s = result.slot
        for side, team in (("a", s.team_a), ("b", s.team_b)):
            out = d.disqualified.get(team, s.round) < s.round
            assert (side in result.disqualified) == out
            if out:
                assert result.entered
                if result.game is not None:
                    assert result.game.winner != side
                    assert (result.game.lus_a if side == "a" else result.game.lus_b) == 0
                    assert (result.game.points_a if side == "a" else result.game.points_b) == 0
        if result.outcome == "missing":
            assert s.slip is None and not result.disqualified
        if result.outcome == "void":
            assert result.game is None
            assert len(result.disqualified) == 2 or len(result.absent) == 1


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_without_absences_every_slip_counts_as_entered(slots):
    played = [s for s in slots if s.absent is None]
    d = derive_pool(played)
    assert d.disqualified == {}
    for s in played:
        assert d.results[s.key].outcome == ("missing" if s.slip is None else "as_entered")
        assert d.results[s.key].game == s.slip
