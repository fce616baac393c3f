"""The pool rule with a team withdrawn from round N (voms.md, Decision "a team leaves early"): pure, no database."""

from decimal import Decimal

from scoring.rules.voms import PoolSlot, derive_pool, forfeit, score_game


def slot(key, rnd, a, b, lus=None, absent=None):
    return PoolSlot(key, rnd, a, b, score_game(*lus) if lus else (forfeit("b" if absent == "a" else "a")
                                                                   if absent else None), absent)


def test_from_the_round_on_every_game_of_the_team_is_a_forfeit_for_the_opponent_and_earlier_ones_stand():
    slots = [slot(1, 1, "X", "A", lus=(9, 4)), slot(2, 2, "B", "X", lus=(3, 9)), slot(3, 3, "X", "C", lus=(9, 1)),
             slot(4, 4, "D", "X")]
    d = derive_pool(slots, withdrawn={"X": 3})
    assert [d.results[k].outcome for k in (1, 2, 3, 4)] == ["as_entered", "as_entered", "disqualified_forfeit",
                                                            "disqualified_forfeit"]
    assert (d.results[3].game.winner, d.results[3].game.points_b, d.results[3].game.lus_b) == ("b", Decimal("2.5"), 9)
    assert d.results[4].game.winner == "a" and d.results[4].entered  # no slip needed
    assert d.withdrawn == {"X": 3} and d.disqualified == {} and d.first_open_round() is None
    assert derive_pool(slots).results[3].outcome == "as_entered"  # undone: the typed slip counts again


def test_an_absent_opponent_of_a_withdrawn_team_makes_the_game_void_and_counts_its_absence():
    d = derive_pool([slot(1, 2, "X", "A", absent="b")], withdrawn={"X": 1})
    assert d.results[1].outcome == "void" and d.absences == {"A": (2,)}


def test_a_team_disqualified_before_its_withdrawal_round_stays_marked_disqualified():
    slots = [slot(n, n, "X", o, absent="a") for n, o in ((1, "A"), (2, "B"), (3, "C"))] + [slot(4, 4, "X", "D")]
    d = derive_pool(slots, withdrawn={"X": 4})
    assert d.disqualified == {"X": 3} and d.withdrawn == {}
    assert d.results[4].outcome == "disqualified_forfeit"
