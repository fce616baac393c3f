"""The round clock: the pure arithmetic with frozen times, and the director's services."""

import datetime

import pytest

from tournament.models import AuditEntry, Round
from tournament.services import clock
from tournament.services.clock import IDLE, PAUSED, RUNNING, clock_state, format_seconds
from tournament.services.errors import DomainError

T0 = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def test_a_clock_never_started_is_idle_with_the_whole_slot():
    state = clock_state(None, None, 0, 20, now=at(5))
    assert (state.status, state.elapsed, state.remaining, state.time_up) == (IDLE, 0, 1200, False)


def test_running_clock_counts_down_from_the_slot():
    state = clock_state(at(0), None, 0, 20, now=at(7.5))
    assert (state.status, state.elapsed, state.remaining, state.time_up) == (RUNNING, 450, 750, False)


def test_paused_clock_stands_still_and_pauses_do_not_count():
    # started 19:00, paused 19:10 for a quarrel about a revoke, still paused at 19:30
    paused = clock_state(at(0), at(10), 0, 20, now=at(30))
    assert (paused.status, paused.remaining) == (PAUSED, 600)
    # resumed at 19:15 (300 s of pause), now 19:20: 15 minutes played, 5 left
    resumed = clock_state(at(0), None, 300, 20, now=at(20))
    assert (resumed.status, resumed.elapsed, resumed.remaining) == (RUNNING, 900, 300)


def test_time_is_up_at_the_end_of_the_slot_and_stays_up():
    assert not clock_state(at(0), None, 0, 20, now=at(19.99)).time_up
    assert clock_state(at(0), None, 0, 20, now=at(20)).time_up
    late = clock_state(at(0), None, 0, 20, now=at(23))
    assert late.time_up and late.remaining == -180


def test_a_round_without_time_limit_counts_up_and_is_never_up():
    state = clock_state(at(0), None, 0, None, now=at(95))
    assert (state.elapsed, state.remaining, state.time_up) == (95 * 60, None, False)


@pytest.mark.parametrize("seconds,face", [(1200, "20:00"), (5, "0:05"), (0, "0:00"), (-30, "0:00"), (3723, "1:02:03")])
def test_clock_face(seconds, face):
    assert format_seconds(seconds) == face


# --- services --------------------------------------------------------------------------------------------------


@pytest.fixture
def round1(voms):
    return Round.objects.get(stage__tournament=voms, number=1)


@pytest.mark.django_db
def test_start_pause_resume_reset_with_audit(round1, director):
    clock.start_clock(round1, by=director, now=at(0))
    clock.pause_clock(round1, by=director, now=at(10))
    r = clock.resume_clock(round1, by=director, now=at(12))
    assert (r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds) == (at(0), None, 120)
    assert clock.state_of(r, r.slot_minutes, now=at(20)).remaining == 20 * 60 - 18 * 60
    assert clock.clock_round(round1.stage.tournament) == r
    r = clock.reset_clock(r, by=director)
    assert (r.clock_started_at, r.clock_paused_at, r.clock_paused_seconds) == (None, None, 0)
    entries = AuditEntry.objects.filter(action__startswith="clock.").order_by("id")
    actions = list(entries.values_list("action", flat=True))
    assert actions == ["clock.start", "clock.pause", "clock.resume", "clock.reset"]


@pytest.mark.django_db
def test_clock_refuses_impossible_steps(round1, director):
    with pytest.raises(DomainError):
        clock.pause_clock(round1, by=director)
    with pytest.raises(DomainError):
        clock.resume_clock(round1, by=director)
    clock.start_clock(round1, by=director)
    with pytest.raises(DomainError):
        clock.start_clock(round1, by=director)
    with pytest.raises(DomainError):
        clock.resume_clock(round1, by=director)
    with pytest.raises(DomainError):
        clock.set_slot_minutes(round1, 0, by=director)


@pytest.mark.django_db
def test_only_a_director_of_the_tournament_runs_the_clock(round1, voms, make_director, django_user_model):
    from tournament.models import Role, TournamentRole

    helper = django_user_model.objects.create_user(username="helper", password="pw-Helper-1")
    TournamentRole.objects.create(tournament=voms, user=helper, role=Role.ASSISTANT)
    for user in (helper, make_director("stranger")):
        with pytest.raises(DomainError):
            clock.start_clock(round1, by=user)
    assert Round.objects.get(pk=round1.pk).clock_started_at is None


@pytest.mark.django_db
def test_the_clock_shown_is_the_round_started_last(voms, director):
    r1, r2 = Round.objects.filter(stage__tournament=voms).order_by("number")[:2]
    clock.start_clock(r1, by=director, now=at(0))
    clock.start_clock(r2, by=director, now=at(20))
    assert clock.clock_round(voms) == r2
    clock.set_slot_minutes(r2, 45, by=director)
    assert Round.objects.get(pk=r2.pk).slot_minutes == 45
