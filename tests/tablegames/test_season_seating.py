"""The seating service with a season's earlier meetings (`avoid`, issue 14): recorded in the draw, people who
are not playing ignored, bad input refused with a translated message and nothing changed."""

from collections import Counter
from itertools import combinations

import pytest
from django.utils import translation

from scoring.seated.queries import seated_tables
from tournament.models import AuditEntry, Draw
from tournament.services import seating
from tournament.services.errors import DomainError

pytestmark = pytest.mark.django_db


def meetings(tournament):
    return Counter(
        frozenset(pair) for tables in seated_tables(tournament).values() for table in tables
        for pair in combinations([s.participant.number for s in table.seats], 2)
    )


def test_pairs_who_met_on_an_earlier_evening_do_not_meet_again(rummi, director, add_players):
    add_players(rummi, 40)
    earlier = seating.draw_seating(rummi, by=director, rounds=3, sizes=(4,), seed=1)
    met = dict(meetings(rummi))
    met[frozenset({1, 999})] = 2  # someone who does not play tonight
    assert "met_before" not in earlier.params, "nothing recorded when no season was given"
    draw = seating.draw_seating(rummi, by=director, rounds=3, sizes=(4,), seed=2, avoid=met)
    tonight = meetings(rummi)
    assert max(tonight.values()) == 1
    assert not any(pair in met for pair in tonight)
    assert draw.params["met_before"] == len(met) - 1 == 40 * 9 // 2
    assert draw.params["met_before_again"] == 0
    assert AuditEntry.objects.filter(tournament=rummi, action="seating.redraw").get().after["met_before_again"] == 0


def test_bad_earlier_meetings_are_refused_with_a_translated_message_and_keep_the_draw(rummi, director,
                                                                                      add_players):
    add_players(rummi, 16)
    kept = seating.draw_seating(rummi, by=director, rounds=3, sizes=(4,), seed=1)
    with translation.override("de"), pytest.raises(DomainError) as refused:
        seating.draw_seating(rummi, by=director, rounds=3, sizes=(4,), seed=2, avoid={frozenset({1, 2}): -1})
    assert "Frühere Begegnungen" in str(refused.value)
    assert seating.current_draw(rummi) == kept and Draw.objects.filter(kind=Draw.Kind.SEATING).count() == 1
