"""The seating draw (tournament/draw/seating.py): pure rules, no database."""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules.base import RuleError
from tournament.draw.seating import Seating, draw_seating, table_sizes

UNSEATABLE_4_5 = (1, 2, 3, 6, 7, 11)

counts = st.integers(4, 400).filter(lambda n: n not in UNSEATABLE_4_5)
seeds = st.integers(0, 2**32)


def participant_numbers(n):
    """Participant numbers as the Django layer passes them: stable ids with gaps."""
    return [3 * i + 7 for i in range(n)]


def assert_everyone_once_per_round(seating, players):
    for tables in seating.rounds:
        assert sorted(p for table in tables for p in table) == sorted(players)


def two_round_repeat_floor(sizes):
    """Fewest repeats over 2 rounds: each round-2 table spreads its players as evenly as it
    can over the round-1 tables, so it holds at least this many round-1 pairs."""
    n_tables = len(sizes)
    floor = 0
    for size in sizes:
        per_source, extra = divmod(size, n_tables)
        floor += extra * (per_source + 1) * per_source // 2 + (n_tables - extra) * per_source * (per_source - 1) // 2
    return floor


# --------------------------------------------------------------------------- table sizes


@given(n=counts)
def test_schafkopf_tables_are_4s_with_as_few_5s_as_possible(n):
    sizes = table_sizes(n)
    fives = n % 4  # 5k = n (mod 4) needs k = n (mod 4): fewer 5-tables cannot add up
    assert sum(sizes) == n
    assert Counter(sizes) == Counter({5: fives, 4: (n - 5 * fives) // 4}) - Counter()
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize(
    ("n", "add", "up", "remove", "down"),
    [(1, 3, 4, None, None), (2, 2, 4, None, None), (3, 1, 4, None, None), (6, 2, 8, 1, 5), (7, 1, 8, 2, 5),
     (11, 1, 12, 1, 10)],
)  # fmt: skip
def test_impossible_counts_say_how_many_to_add_or_remove(n, add, up, remove, down):
    with pytest.raises(RuleError) as raised:
        table_sizes(n)
    error = raised.value
    assert error.code == "unseatable_player_count" and error.field == "players"
    assert error.params["add"] == add and error.params["up"] == up
    assert error.params.get("remove") == remove and error.params.get("down") == down
    assert f"Add {add} player(s) to have {up}" in str(error)
    with pytest.raises(RuleError):
        draw_seating(participant_numbers(n), 2, seed=1)


def test_no_players_and_bad_sizes_are_refused():
    with pytest.raises(RuleError) as raised:
        table_sizes(0)
    assert raised.value.code == "no_players"
    for sizes in [(), (4, 4), (1, 4), (4.0,)]:
        with pytest.raises(RuleError) as raised:
            table_sizes(8, sizes)
        assert raised.value.code == "invalid_table_sizes"


@pytest.mark.parametrize(
    ("n", "sizes", "expected"),
    [(9, (4, 3), [3, 3, 3]), (10, (4, 3), [4, 3, 3]), (13, (4, 3), [4, 3, 3, 3]), (6, (3, 4), [3, 3]),
     (7, (3, 4), [4, 3]), (7, (2, 3, 4), [3, 2, 2]), (5, (2, 3, 4), [3, 2]), (9, (4,), None), (5, (2, 4), None)],
)  # fmt: skip
def test_other_size_sets(n, sizes, expected):
    if expected is None:
        with pytest.raises(RuleError):
            table_sizes(n, sizes)
    else:
        assert table_sizes(n, sizes) == expected


@given(n=st.integers(1, 120), sizes=st.sampled_from([(4, 3), (3, 4), (2, 3, 4), (5, 4, 6), (6, 5)]))
def test_general_sizes_use_fewest_non_preferred_tables(n, sizes):
    def fewest_others(m):
        for k in range(m + 1):
            for combo in combinations_with_replacement(sizes[1:], k):
                rest = m - sum(combo)
                if rest >= 0 and rest % sizes[0] == 0 and (rest or combo):
                    return k
        return None

    best = fewest_others(n)
    if best is None:
        with pytest.raises(RuleError):
            table_sizes(n, sizes)
        return
    result = table_sizes(n, sizes)
    assert sum(result) == n and set(result) <= set(sizes)
    assert sum(1 for s in result if s != sizes[0]) == best


# --------------------------------------------------------------------------- the draw


@given(n=counts, rounds=st.integers(1, 4), seed=seeds)
@settings(max_examples=40, deadline=None)
def test_everyone_is_seated_once_per_round_at_the_drawn_table_sizes(n, rounds, seed):
    players = participant_numbers(n)
    seating = draw_seating(players, rounds, seed=seed)
    assert len(seating.rounds) == rounds
    assert_everyone_once_per_round(seating, players)
    for tables in seating.rounds:
        assert [len(table) for table in tables] == table_sizes(n)


@given(n=counts, seed=seeds)
@settings(max_examples=60, deadline=None)
def test_two_rounds_without_repeats_exactly_when_there_are_enough_tables(n, seed):
    sizes = table_sizes(n)
    seating = draw_seating(participant_numbers(n), 2, seed=seed)
    if len(sizes) >= max(sizes):
        assert seating.repeated_pairs() == 0
    else:  # 4, 5, 8-10, 12-15, 17-19 players: as few repeats as the tables allow
        assert seating.repeated_pairs() == two_round_repeat_floor(sizes) > 0


@pytest.mark.parametrize("n", [4, 5, 8, 9, 10, 12, 13, 14, 15, 17, 18, 19])
def test_too_few_tables_gives_the_fewest_possible_repeats(n):
    for seed in range(2):
        seating = draw_seating(participant_numbers(n), 2, seed=seed)
        assert seating.repeated_pairs() == two_round_repeat_floor(table_sizes(n))
        assert seating.seat_repeats() == 0


@given(n=st.integers(20, 400) | st.just(16), rounds=st.integers(3, 4), seed=seeds)
@settings(max_examples=30, deadline=None)
def test_three_and_four_rounds_without_repeats_from_16_and_from_20_players(n, rounds, seed):
    seating = draw_seating(participant_numbers(n), rounds, seed=seed)
    assert seating.repeated_pairs() == 0
    assert seating.seat_repeats() == 0


@pytest.mark.parametrize("n", [16, 20, 21, 24, 25, 26, 27, 36, 48, 49, 50, 51, 100, 101])
def test_four_rounds_without_repeats_where_tables_are_not_a_prime_power(n):
    # 6 and 12 tables are where plain multiples fail and the vector search has to work.
    for seed in (1, "x"):
        assert draw_seating(participant_numbers(n), 4, seed=seed).repeated_pairs() == 0


def test_sixteen_players_reach_five_rounds_without_repeats():
    # floor((16 - 1) / 3) = 5: the affine plane of order 4 reaches the bound.
    seating = draw_seating(participant_numbers(16), 5, seed=3)
    assert seating.repeated_pairs() == 0
    # every pair of the 16 has met exactly once
    met = {frozenset((a, b)) for tables in seating.rounds for t in tables for a in t for b in t if a != b}
    assert len(met) == 16 * 15 // 2


@given(n=counts, rounds=st.integers(2, 4), seed=seeds)
@settings(max_examples=40, deadline=None)
def test_nobody_has_a_seat_number_twice_in_up_to_four_rounds(n, rounds, seed):
    seating = draw_seating(participant_numbers(n), rounds, seed=seed)
    assert seating.seat_repeats() == 0
    scribes = Counter(table[0] for tables in seating.rounds for table in tables)
    assert max(scribes.values()) == 1


@pytest.mark.parametrize("n", [4, 5, 8, 9, 10, 12, 13, 14, 15, 17, 18, 19])
def test_small_tournaments_still_rotate_seats_over_four_rounds(n):
    seating = draw_seating(participant_numbers(n), 4, seed=n)
    assert seating.seat_repeats() == 0


@st.composite
def clubs(draw):
    n = draw(counts)
    n_tables = len(table_sizes(n))
    players = participant_numbers(n)
    groups, i = {}, 0
    while i < n * 3 // 4:
        size = draw(st.integers(1, n_tables))
        for player in players[i : i + size]:
            groups[player] = f"club {i}"
        i += size
    return players, groups


@given(drawn=clubs(), rounds=st.integers(2, 3), seed=seeds)
@settings(max_examples=40, deadline=None)
def test_club_members_never_share_a_table_when_no_club_outnumbers_the_tables(drawn, rounds, seed):
    players, groups = drawn
    seating = draw_seating(players, rounds, seed=seed, groups=groups)
    assert_everyone_once_per_round(seating, players)
    assert seating.group_conflicts(groups) == 0
    sizes = seating.table_sizes
    if rounds == 2 and len(sizes) >= max(sizes):
        assert seating.repeated_pairs() == 0


def test_an_oversized_club_meets_as_little_as_possible():
    players = participant_numbers(8)  # 2 tables: a club of 3 must have 2 together
    groups = dict.fromkeys(players[:3], "Sauschädl") | {players[3]: ""}
    seating = draw_seating(players, 2, seed=5, groups=groups)
    assert seating.group_conflicts(groups) == 2


@given(n=counts, rounds=st.integers(1, 4), seed=seeds, data=st.data())
@settings(max_examples=40, deadline=None)
def test_fixed_players_keep_their_table_in_every_round(n, rounds, seed, data):
    players = participant_numbers(n)
    n_tables = len(table_sizes(n))
    chosen = data.draw(st.lists(st.sampled_from(players), unique=True, max_size=min(4, n_tables)))
    fixed = {p: data.draw(st.integers(1, n_tables)) for p in chosen}  # at most 4 per table: they fit
    seating = draw_seating(players, rounds, seed=seed, fixed=fixed)
    assert_everyone_once_per_round(seating, players)
    for player, table in fixed.items():
        assert [t for _, t, _ in seating.where(player)] == [table] * rounds
    assert seating.seat_repeats() == 0


def test_fixed_players_on_distinct_tables_cost_no_repeats():
    players = participant_numbers(400)
    fixed = {players[0]: 1, players[1]: 100, players[2]: 50, players[3]: 7}
    seating = draw_seating(players, 3, seed=11, fixed=fixed)
    assert seating.repeated_pairs() == 0
    assert all({t for _, t, _ in seating.where(p)} == {table} for p, table in fixed.items())


@given(n=counts, rounds=st.integers(1, 3), seed=seeds | st.text(max_size=8))
@settings(max_examples=25, deadline=None)
def test_same_seed_and_players_give_the_same_draw_in_any_input_order(n, rounds, seed):
    players = participant_numbers(n)
    first = draw_seating(players, rounds, seed=seed)
    again = draw_seating(list(reversed(players)), rounds, seed=seed)
    assert first.rounds == again.rounds and first.seed == seed


@pytest.mark.parametrize("n", [8, 40, 401])
def test_different_seeds_give_different_draws(n):
    draws = [draw_seating(participant_numbers(n), 2, seed=seed).rounds for seed in range(6)]
    assert all(draws[i] != draws[j] for i in range(6) for j in range(i))


@pytest.mark.parametrize("sizes", [(4, 3), (3, 4), (2, 3, 4)])
@given(n=st.integers(2, 150), rounds=st.integers(1, 3), seed=seeds)
@settings(max_examples=20, deadline=None)
def test_other_table_sizes_seat_everyone_and_spread_players(sizes, n, rounds, seed):
    try:
        expected = table_sizes(n, sizes)
    except RuleError:
        return
    players = participant_numbers(n)
    seating = draw_seating(players, rounds, seed=seed, sizes=sizes)
    assert_everyone_once_per_round(seating, players)
    assert all([len(t) for t in tables] == expected for tables in seating.rounds)
    if rounds == 2 and len(expected) >= max(expected) and max(expected) - min(expected) <= 1:
        assert seating.repeated_pairs() == 0
    if rounds <= min(expected):
        assert seating.seat_repeats() == 0


def test_large_draw_is_repeat_free():
    players = participant_numbers(2000)
    seating = draw_seating(players, 2, seed=2024)
    assert_everyone_once_per_round(seating, players)
    assert seating.repeated_pairs() == 0 and seating.seat_repeats() == 0


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": [1, 2, 3, 4, 4]}, "duplicate_player"),
        ({"rounds": 0}, "invalid_rounds"),
        ({"fixed": {99: 1}}, "unknown_player"),
        ({"fixed": {1: 3}}, "fixed_table_out_of_range"),
        ({"fixed": {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}}, "too_many_fixed"),
    ],
)
def test_bad_input_is_refused_with_a_stable_code(kwargs, code):
    arguments = {"players": list(range(1, 9)), "rounds": 2, "seed": 1} | kwargs
    with pytest.raises(RuleError) as raised:
        draw_seating(**arguments)
    assert raised.value.code == code
    assert str(raised.value)  # the message formats with its parameters


def test_seating_reports_repeats_conflicts_and_places():
    seating = Seating(rounds=[[("a", "b", "c", "d")], [("b", "a", "c", "d")]], seed=1)
    assert seating.table_sizes == [4]
    assert seating.repeated_pairs() == 6
    assert seating.seat_repeats() == 2  # c and d kept their seats
    assert seating.group_conflicts({"a": "club", "b": "club", "c": "", "d": "other"}) == 2
    assert seating.where("a") == [(1, 1, 1), (2, 1, 2)]
    assert seating.where("nobody") == []


# --- the larger tables shared fairly (issue 12) ---------------------------------------------------------


def _rounds_at_large_tables(seating) -> dict:
    large = max(seating.table_sizes)
    times = {player: 0 for tables in seating.rounds[:1] for table in tables for player in table}
    for tables in seating.rounds:
        for table in tables:
            if len(table) == large:
                for player in table:
                    times[player] += 1
    return times


@settings(max_examples=25, deadline=None)
@given(players=st.integers(min_value=32, max_value=70), rounds=st.integers(min_value=1, max_value=4),
       seed=st.integers(min_value=0, max_value=10**6))
def test_nobody_at_a_five_table_twice_while_someone_never_is(players, rounds, seed):
    # From 32 players on, the 5-tables can be shared without anyone meeting a table-mate again.
    assume(len(set(table_sizes(players))) > 1)
    seating = draw_seating(list(range(1, players + 1)), rounds, seed=seed)
    times = _rounds_at_large_tables(seating)
    assert not (max(times.values()) >= 2 and min(times.values()) == 0)
    assert seating.repeated_pairs() == 0
    twice = seating.large_table_repeats()
    assert twice == {player: n for player, n in times.items() if n > 1}
    if sum(times.values()) < players:  # fewer seats at 5-tables than players: nobody sits at one twice
        assert twice == {}


@settings(max_examples=25, deadline=None)
@given(players=st.integers(min_value=9, max_value=31), rounds=st.integers(min_value=2, max_value=4),
       seed=st.integers(min_value=0, max_value=10**6))
def test_large_table_repeats_names_who_sits_at_a_five_table_more_than_once(players, rounds, seed):
    assume(players != 11)  # no tables of 4 and 5 seat 11 players
    # Below 32 sharing can cost repeated pairs (21 players in 2 rounds: the round-2 5-table needs one
    # player from each round-1 table, the 5-table's included); the summary then names who sits there twice.
    seating = draw_seating(list(range(1, players + 1)), rounds, seed=seed)
    if len(set(seating.table_sizes)) == 1:
        assert seating.large_table_repeats() == {}
    else:
        times = _rounds_at_large_tables(seating)
        assert seating.large_table_repeats() == {player: n for player, n in times.items() if n > 1}


def test_five_tables_spread_over_37_players_in_three_rounds():
    seating = draw_seating(list(range(1, 38)), 3, seed=11)
    assert seating.large_table_repeats() == {}
    assert seating.repeated_pairs() == 0


def test_large_table_repeats_is_empty_when_all_tables_have_one_size():
    assert draw_seating(list(range(1, 17)), 4, seed=3).large_table_repeats() == {}
