from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from scoring.rules.schafkopf import (
    FARBWENZ,
    GAME_TYPES,
    RANKING_CHAIN,
    RUF,
    SOLO,
    TARIFF_PRESETS,
    WENZ,
    Counts,
    GameEntry,
    PrizeSpec,
    Tariff,
    dealer_of,
    games_at_five,
    prize_list,
    ranking,
    score_game,
    score_list,
    sitting_out,
    tariff_from_dict,
    tariff_to_dict,
    validate_totals,
)
from scoring.rules.standings import LOT_KEY

STANDARD = TARIFF_PRESETS["standard"]
SOLO_TYPES = (SOLO, WENZ, FARBWENZ)


def ruf(declarer=1, partner=3, won=True, **kw):
    return GameEntry(RUF, declarer, partner, won, **kw)


def solo(declarer=1, won=True, game_type=SOLO, **kw):
    return GameEntry(game_type, declarer, None, won, **kw)


def tout(declarer=1, won=True, game_type=SOLO, initials="AB", **kw):
    return GameEntry(game_type, declarer, None, won, tout=True, tout_initials=initials, **kw)


def refused(code, call, *args, **kwargs):
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    return info.value


# --- the tariff, row by row -----------------------------------------------------------------------

# (declarer side points per player or soloist points, opponent points) when the declarer side wins
TARIFF_TABLE = {
    "standard": {
        "ruf": 1, "ruf_schneider": 2, "ruf_schwarz": 3,
        "solo": (6, -2), "solo_schneider": (9, -3), "solo_schwarz": (12, -4), "tout": (18, -6),
    },
    "tout_24_8": {
        "ruf": 1, "ruf_schneider": 2, "ruf_schwarz": 3,
        "solo": (6, -2), "solo_schneider": (9, -3), "solo_schwarz": (12, -4), "tout": (24, -8),
    },
    "scale_15_5": {
        "ruf": 1, "ruf_schneider": 2, "ruf_schwarz": 3,
        "solo": (15, -5), "solo_schneider": (18, -6), "solo_schwarz": (21, -7), "tout": (42, -14),
    },
}
ROW_FLAGS = {
    "ruf": {}, "ruf_schneider": {"schneider": True}, "ruf_schwarz": {"schneider": True, "schwarz": True},
    "solo": {}, "solo_schneider": {"schneider": True}, "solo_schwarz": {"schneider": True, "schwarz": True},
}
TARIFF_CASES = [
    (preset, row, won, game_type)
    for preset, rows in TARIFF_TABLE.items()
    for row in rows
    for won in (True, False)
    for game_type in ((RUF,) if row.startswith("ruf") else SOLO_TYPES)
]


def test_tariff_table_covers_every_preset():
    assert set(TARIFF_TABLE) == set(TARIFF_PRESETS)


@pytest.mark.parametrize(("preset", "row", "won", "game_type"), TARIFF_CASES)
def test_tariff_row(preset, row, won, game_type):
    sign = 1 if won else -1
    if game_type == RUF:
        entry = ruf(declarer=2, partner=4, won=won, **ROW_FLAGS[row])
        expected = {1: -1, 2: 1, 3: -1, 4: 1}
        amount = TARIFF_TABLE[preset][row]
        expected = {seat: v * amount * sign for seat, v in expected.items()}
    else:
        if row == "tout":
            entry = tout(declarer=2, won=won, game_type=game_type)
        else:
            entry = solo(declarer=2, won=won, game_type=game_type, **ROW_FLAGS[row])
        soloist, opponent = TARIFF_TABLE[preset][row]
        expected = {1: opponent * sign, 2: soloist * sign, 3: opponent * sign, 4: opponent * sign}
    assert score_game(entry, game_number=2, table_size=4, tariff=TARIFF_PRESETS[preset]) == expected


def test_schwarz_alone_means_schneider_and_schwarz():
    alone = score_game(solo(schwarz=True), game_number=1, table_size=4, tariff=STANDARD)
    both = score_game(solo(schneider=True, schwarz=True), game_number=1, table_size=4, tariff=STANDARD)
    assert alone == both == {1: 12, 2: -4, 3: -4, 4: -4}


def test_tout_ignores_schneider_flags():
    plain = score_game(tout(), game_number=2, table_size=4, tariff=STANDARD)
    flagged = score_game(tout(schneider=True, schwarz=True), game_number=2, table_size=4, tariff=STANDARD)
    assert plain == flagged == {1: 18, 2: -6, 3: -6, 4: -6}


# --- zero sum, for every game ---------------------------------------------------------------------

tariffs = st.builds(
    Tariff,
    name=st.just("custom"),
    **{name: st.integers(0, 50) for name in TARIFF_TABLE["standard"]},
    laufende_from=st.none() | st.integers(1, 14),
    laufende_value=st.integers(0, 5),
)


@st.composite
def games(draw):
    table_size = draw(st.sampled_from((4, 5)))
    game_number = draw(st.integers(1, 60))
    players = [s for s in range(1, table_size + 1) if s != sitting_out(game_number, table_size)]
    game_type = draw(st.sampled_from(sorted(GAME_TYPES)))
    declarer = draw(st.sampled_from(players))
    partner = draw(st.sampled_from([p for p in players if p != declarer])) if game_type == RUF else None
    is_tout = GAME_TYPES[game_type].solo_class and game_number > 1 and draw(st.booleans())
    entry = GameEntry(
        game_type, declarer, partner, draw(st.booleans()),
        schneider=draw(st.booleans()), schwarz=draw(st.booleans()), tout=is_tout,
        laufende=draw(st.integers(0, GAME_TYPES[game_type].max_laufende)),
        tout_initials="XY" if is_tout else "",
    )
    tariff = draw(st.sampled_from(list(TARIFF_PRESETS.values())) | tariffs)
    return entry, game_number, table_size, tariff


@settings(max_examples=400, deadline=None)
@given(games())
def test_every_game_sums_to_zero(game):
    entry, game_number, table_size, tariff = game
    points = score_game(entry, game_number=game_number, table_size=table_size, tariff=tariff)
    assert sorted(points) == list(range(1, table_size + 1))
    assert sum(points.values()) == 0
    if table_size == 5:
        assert points[dealer_of(game_number, 5)] == 0
    declarer = points[entry.declarer]
    assert declarer >= 0 if entry.won else declarer <= 0
    if entry.partner is not None:
        assert points[entry.partner] == declarer


# --- refusals -------------------------------------------------------------------------------------


def test_tout_in_first_game_refused():
    refused("tout_in_first_game", score_game, tout(), game_number=1, table_size=4, tariff=STANDARD)
    assert score_game(tout(), game_number=2, table_size=4, tariff=STANDARD)[1] == 18


def test_tout_in_first_game_of_a_five_table_refused():
    refused("tout_in_first_game", score_game, tout(declarer=2), game_number=1, table_size=5, tariff=STANDARD)


@pytest.mark.parametrize("initials", ["", "   "])
def test_tout_without_initials_refused(initials):
    error = refused("tout_initials_missing", score_game, tout(initials=initials), game_number=5, table_size=4,
                    tariff=STANDARD)
    assert error.field == "tout_initials"


def test_tout_only_for_solo_class():
    entry = GameEntry(RUF, 1, 2, True, tout=True, tout_initials="AB")
    refused("tout_not_solo", score_game, entry, game_number=3, table_size=4, tariff=STANDARD)


def test_initials_without_tout_refused():
    refused("initials_without_tout", score_game, solo(tout_initials="AB"), game_number=3, table_size=4,
            tariff=STANDARD)


@pytest.mark.parametrize(
    ("entry", "code", "field"),
    [
        (GameEntry(RUF, 1, None, True), "partner_missing", "partner"),
        (GameEntry(WENZ, 1, 2, True), "partner_not_allowed", "partner"),
        (GameEntry(RUF, 2, 2, True), "partner_is_declarer", "partner"),
        (GameEntry(RUF, 1, 5, True), "partner_not_at_table", "partner"),
        (GameEntry(SOLO, 0, None, True), "declarer_not_at_table", "declarer"),
        (GameEntry("ramsch", 1, None, True), "game_type_unknown", "game_type"),
        (GameEntry(WENZ, 1, None, True, laufende=5), "laufende_invalid", "laufende"),
        (GameEntry(SOLO, 1, None, True, laufende=-1), "laufende_invalid", "laufende"),
    ],
)
def test_invalid_rows_refused(entry, code, field):
    assert refused(code, score_game, entry, game_number=2, table_size=4, tariff=STANDARD).field == field


def test_sitting_out_dealer_cannot_play():
    # game 7 at a 5-table is dealt by seat 2
    refused("declarer_sits_out", score_game, solo(declarer=2), game_number=7, table_size=5, tariff=STANDARD)
    refused("partner_sits_out", score_game, ruf(declarer=1, partner=2), game_number=7, table_size=5,
            tariff=STANDARD)


def test_table_size_and_game_number_checked():
    refused("table_size_invalid", score_game, solo(), game_number=1, table_size=3, tariff=STANDARD)
    refused("game_number_invalid", score_game, solo(), game_number=0, table_size=4, tariff=STANDARD)


# --- Laufende -------------------------------------------------------------------------------------


def test_laufende_counted_from_threshold_only():
    tariff = Tariff("with Laufende", laufende_from=3, laufende_value=1)
    below = score_game(ruf(laufende=2), game_number=1, table_size=4, tariff=tariff)
    at = score_game(ruf(laufende=3), game_number=1, table_size=4, tariff=tariff)
    solo_at = score_game(solo(laufende=4, won=False), game_number=1, table_size=4, tariff=tariff)
    assert below == {1: 1, 2: -1, 3: 1, 4: -1}
    assert at == {1: 4, 2: -4, 3: 4, 4: -4}
    assert solo_at == {1: -18, 2: 6, 3: 6, 4: 6}


def test_laufende_not_counted_by_default():
    assert score_game(ruf(laufende=8), game_number=1, table_size=4, tariff=STANDARD)[1] == 1


# --- dealing and the 5-table ----------------------------------------------------------------------


def test_dealer_rotates():
    assert [dealer_of(k, 4) for k in range(1, 10)] == [1, 2, 3, 4, 1, 2, 3, 4, 1]
    assert [dealer_of(k, 5) for k in range(1, 12)] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1]
    assert sitting_out(3, 4) is None and sitting_out(3, 5) == 3


@pytest.mark.parametrize(("games", "at_five"), [(30, 40), (32, 40), (16, 20), (48, 60), (1, 5), (20, 25)])
def test_games_at_five(games, at_five):
    assert games_at_five(games) == at_five
    assert at_five % 5 == 0 and at_five >= games * 5 / 4


def test_games_at_five_refuses_no_games():
    refused("games_per_round_invalid", games_at_five, 0)


def test_five_table_dealer_sits_out():
    # every player of a 5-table deals once in 5 games and gets 0 in that game
    entries = [solo(declarer=5), ruf(declarer=1, partner=3), solo(declarer=1, won=False),
               ruf(declarer=2, partner=5), solo(declarer=4)]
    result = score_list(entries, table_size=5, tariff=STANDARD)
    for row in result.rows:
        assert row.dealer == row.game_number
        assert row.points[row.dealer] == 0
        assert sum(row.points.values()) == 0
    assert result.rows[0].points == {1: 0, 2: -2, 3: -2, 4: -2, 5: 6}


# --- the score list -------------------------------------------------------------------------------


def test_running_totals():
    entries = [
        ruf(declarer=1, partner=3),                                # +1 -1 +1 -1
        solo(declarer=2, game_type=WENZ, schneider=True),          # -3 +9 -3 -3
        ruf(declarer=4, partner=2, won=False, schwarz=True),       # +3 -3 +3 -3
        tout(declarer=3, won=False, game_type=FARBWENZ),           # +6 +6 -18 +6
    ]
    result = score_list(entries, table_size=4, tariff=STANDARD)
    assert [dict(r.running) for r in result.rows] == [
        {1: 1, 2: -1, 3: 1, 4: -1},
        {1: -2, 2: 8, 3: -2, 4: -4},
        {1: 1, 2: 5, 3: 1, 4: -7},
        {1: 7, 2: 11, 3: -17, 4: -1},
    ]
    assert result.totals == {1: 7, 2: 11, 3: -17, 4: -1}
    assert [r.game_number for r in result.rows] == [1, 2, 3, 4]


def test_list_counts_only_self_played_solo_class():
    entries = [ruf(declarer=1, partner=2), solo(declarer=1), solo(declarer=1, won=False, game_type=WENZ),
               tout(declarer=2), tout(declarer=2, won=False, game_type=FARBWENZ)]
    counts = score_list(entries, table_size=4, tariff=STANDARD).counts
    assert counts[1] == Counts(solo_played=2, solo_won=1)
    assert counts[2] == Counts(solo_played=2, solo_won=1, tout_played=2, tout_won=1)
    assert counts[3] == counts[4] == Counts()


def test_list_error_names_the_game():
    error = refused("tout_in_first_game", score_list, [tout(), solo()], table_size=4, tariff=STANDARD)
    assert error.params["game_number"] == 1
    error = refused("partner_missing", score_list, [solo(), GameEntry(RUF, 1, None, True)], table_size=4,
                    tariff=STANDARD)
    assert error.params["game_number"] == 2


def test_empty_list_scores_zero():
    result = score_list([], table_size=5, tariff=STANDARD)
    assert result.rows == () and result.totals == dict.fromkeys(range(1, 6), 0)


# --- storing a tariff -----------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(list(TARIFF_PRESETS.values())) | tariffs)
def test_tariff_round_trips_through_dict(tariff):
    assert tariff_from_dict(tariff_to_dict(tariff)) == tariff


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"solo": -2}, "tariff_amount_invalid", "solo"),
        ({"tout": 6.5}, "tariff_amount_invalid", "tout"),
        ({"ruf": "1"}, "tariff_amount_invalid", "ruf"),
        ({"ruf": True}, "tariff_amount_invalid", "ruf"),
        ({"laufende_value": -1}, "tariff_amount_invalid", "laufende_value"),
        ({"laufende_from": 0}, "tariff_laufende_from_invalid", "laufende_from"),
        ({"laufende_from": 15}, "tariff_laufende_from_invalid", "laufende_from"),
        ({"sie": 8}, "tariff_unknown_entry", "sie"),
        ({"name": " "}, "tariff_name_missing", "name"),
    ],
)
def test_invalid_tariff_refused(change, code, field):
    data = {**tariff_to_dict(STANDARD), **change}
    assert refused(code, tariff_from_dict, data).field == field


def test_tariff_missing_amount_refused():
    data = tariff_to_dict(STANDARD)
    del data["solo_schwarz"]
    assert refused("tariff_missing_entry", tariff_from_dict, data).field == "solo_schwarz"


# --- totals-only entry ----------------------------------------------------------------------------


def test_non_zero_sum_totals_refused():
    error = refused("totals_not_zero", validate_totals, {1: 10, 2: -4, 3: -4, 4: -1}, {})
    assert error.params["sum"] == 1
    assert "1" in str(error)


@pytest.mark.parametrize(
    ("counts", "code"),
    [
        (Counts(solo_played=-1), "count_invalid"),
        (Counts(solo_played=1.5), "count_invalid"),
        (Counts(solo_played=1, solo_won=2), "solo_won_exceeds_solo_played"),
        (Counts(solo_played=2, solo_won=2, tout_played=1, tout_won=2), "tout_won_exceeds_tout_played"),
        (Counts(solo_played=1, solo_won=1, tout_played=2, tout_won=0), "tout_played_exceeds_solo_played"),
        (Counts(solo_played=3, solo_won=0, tout_played=1, tout_won=1), "tout_won_exceeds_solo_won"),
    ],
)
def test_impossible_counts_refused(counts, code):
    error = refused(code, validate_totals, {1: 0, 2: 0, 3: 0, 4: 0}, {3: counts})
    assert error.params["seat"] == 3


def test_counts_for_unknown_seat_refused():
    refused("counts_unknown_seat", validate_totals, {1: 0, 2: 0, 3: 0, 4: 0}, {5: Counts()})


def test_totals_checked_against_games_and_tariff():
    totals = {1: 60, 2: -20, 3: -20, 4: -20}
    validate_totals(totals, {1: Counts(3, 3, 1, 1)}, games=30, tariff=STANDARD)
    refused("solos_exceed_games", validate_totals, totals, {1: Counts(20, 3), 2: Counts(11, 0)}, games=30)
    refused("touts_exceed_games", validate_totals, totals, {1: Counts(1, 1, 1, 1)}, games=1)
    implausible = {1: 541, 2: -541, 3: 0, 4: 0}  # 30 games x 18 is the most one seat can win
    refused("total_implausible", validate_totals, implausible, {}, games=30, tariff=STANDARD)
    validate_totals({1: 540, 2: -540, 3: 0, 4: 0}, {}, games=30, tariff=STANDARD)


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=1, max_size=12), st.sampled_from((4, 5)))
def test_scored_lists_pass_totals_validation(drawn, table_size):
    # the rows of a valid game-by-game list, renumbered onto one table, are accepted as totals
    entries = []
    for game_number, (entry, _, _, _) in enumerate(drawn, start=1):
        players = [s for s in range(1, table_size + 1) if s != sitting_out(game_number, table_size)]
        declarer, partner = players[0], (players[1] if entry.game_type == RUF else None)
        is_tout = entry.tout and game_number > 1
        entries.append(GameEntry(entry.game_type, declarer, partner, entry.won, entry.schneider, entry.schwarz,
                                 is_tout, entry.laufende, "XY" if is_tout else ""))
    result = score_list(entries, table_size=table_size, tariff=STANDARD)
    validate_totals(result.totals, result.counts, games=len(entries), tariff=STANDARD)
    assert sum(result.counts[s].solo_played for s in result.counts) == sum(
        GAME_TYPES[e.game_type].solo_class for e in entries)


# --- ranking: one test per step of the chain ------------------------------------------------------


def rank_two(a_rounds, a_counts, b_rounds, b_counts, seed=1):
    rows = ranking(["b", "a"], {"a": a_rounds, "b": b_rounds}, {"a": a_counts, "b": b_counts}, seed=seed)
    return rows


def assert_a_first_by(rows, key):
    assert [r.participant for r in rows] == ["a", "b"]
    assert [r.rank for r in rows] == [1, 2]
    assert rows[1].separated_by == key
    assert not any(r.by_lot for r in rows)


def test_chain_is_the_digest_order():
    assert [m.key for m in RANKING_CHAIN] == [
        "points", "tout_won", "tout_played", "solo_won", "solo_played", "round_spread"]
    assert RANKING_CHAIN[-1].higher_is_better is False


def test_step_1_points():
    rows = rank_two([10, 1], Counts(), [5, 5], Counts(9, 9, 4, 4))
    assert_a_first_by(rows, "points")
    assert rows[0].values["points"] == 11


def test_step_2_tout_won():
    rows = rank_two([5, 5], Counts(1, 1, 1, 1), [5, 5], Counts(5, 5, 3, 0))
    assert_a_first_by(rows, "tout_won")


def test_step_3_tout_played():
    rows = rank_two([5, 5], Counts(1, 0, 1, 0), [5, 5], Counts(4, 4, 0, 0))
    assert_a_first_by(rows, "tout_played")


def test_step_4_solo_won():
    rows = rank_two([5, 5], Counts(2, 2), [5, 5], Counts(5, 1))
    assert_a_first_by(rows, "solo_won")


def test_step_5_solo_played():
    rows = rank_two([0, 10], Counts(3, 1), [5, 5], Counts(1, 1))
    assert_a_first_by(rows, "solo_played")


def test_step_6_smaller_round_spread():
    rows = rank_two([4, 6], Counts(2, 1), [10, 0], Counts(2, 1))
    assert_a_first_by(rows, "round_spread")
    assert (rows[0].values["round_spread"], rows[1].values["round_spread"]) == (2, 10)


def test_round_spread_with_more_rounds_is_max_minus_min():
    rows = ranking(["a"], {"a": [3, -7, 1]}, {}, seed=1)
    assert rows[0].values["round_spread"] == 10 and rows[0].values["points"] == -3


def test_step_7_lot():
    orders = set()
    for seed in range(20):
        rows = rank_two([5, 5], Counts(2, 1), [5, 5], Counts(2, 1), seed=seed)
        assert all(r.by_lot for r in rows)
        assert rows[1].separated_by == LOT_KEY
        assert rows == rank_two([5, 5], Counts(2, 1), [5, 5], Counts(2, 1), seed=seed)
        orders.add(tuple(r.participant for r in rows))
    assert orders == {("a", "b"), ("b", "a")}


def test_excluded_players_ranked_last_and_marked():
    players = ["x", "y", "z", "w"]
    rounds = {"x": [50, 50], "y": [10, 0], "z": [0, -20], "w": [30, 0]}
    rows = ranking(players, rounds, {}, seed=3, excluded=frozenset({"x", "z"}))
    assert [r.participant for r in rows] == ["w", "y", "x", "z"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert [r.values["excluded"] for r in rows] == [False, False, True, True]
    assert rows[2].separated_by == "excluded" and rows[3].separated_by == "points"


# --- money ----------------------------------------------------------------------------------------


def test_prizes_percent_and_fixed_rounded_half_up():
    prizes = [PrizeSpec("percent", Decimal("30")), PrizeSpec("percent", Decimal("1.5")),
              PrizeSpec("fixed", Decimal("20"))]
    result = prize_list(Decimal("15.00"), 37, prizes)  # takings 555.00
    assert result == [Decimal("166.50"), Decimal("8.33"), Decimal("20.00")]  # 8.325 rounds up
    assert result.takings == Decimal("555.00") and result.warnings == () and result.shortfall == 0


def test_prizes_beyond_takings_warn_not_refuse():
    result = prize_list(Decimal("10"), 4, [PrizeSpec("fixed", Decimal("50")), PrizeSpec("percent", Decimal(20))])
    assert result == [Decimal("50.00"), Decimal("8.00")]
    assert result.shortfall == Decimal("18.00")
    assert [w.code for w in result.warnings] == ["prizes_exceed_takings"]
    assert result.warnings[0].params["shortfall"] == Decimal("18.00")


def test_percentages_over_100_refused():
    prizes = [PrizeSpec("percent", Decimal(60)), PrizeSpec("percent", Decimal("40.01"))]
    error = refused("prize_percent_over_100", prize_list, Decimal(10), 20, prizes)
    assert "100.01%" in str(error)


@pytest.mark.parametrize(
    ("fee", "paid", "prizes", "code"),
    [
        (10.0, 20, [], "entry_fee_invalid"),
        (Decimal(-1), 20, [], "entry_fee_invalid"),
        (Decimal(10), -1, [], "players_paid_invalid"),
        (Decimal(10), 20, [PrizeSpec("goods", Decimal(1))], "prize_kind_invalid"),
        (Decimal(10), 20, [PrizeSpec("fixed", 5.5)], "prize_value_invalid"),
    ],
)
def test_invalid_prize_input_refused(fee, paid, prizes, code):
    refused(code, prize_list, fee, paid, prizes)
