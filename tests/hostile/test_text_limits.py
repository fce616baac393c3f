"""Free text (reasons for exclusions, corrections, substitutes) has a limit: forms say so, services refuse the rest."""

import pytest
from django.urls import reverse

from scoring.games.voms.services import slips as voms_slips
from scoring.models import SheetRevision
from tournament.models import Match, Participant
from tournament.services.errors import DomainError
from tournament.services.participants import add_participant, set_participant_status
from tournament.services.text import MAX_REASON

pytestmark = pytest.mark.django_db

HUGE = "x" * (2_400_000)


def test_the_player_page_refuses_a_long_exclusion_reason_in_the_reader_s_language(director, make_tournament, client):
    tournament = make_tournament(director, game="schafkopf")
    player = add_participant(tournament, by=director, last_name="Huber")
    client.force_login(director)
    address = reverse("tournament:desk_entry", args=[tournament.slug, player.pk])
    response = client.post(address, {"action": "status", "status": "excluded", "reason": HUGE},
                           HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'maxlength="{MAX_REASON}"' in page
    assert "höchstens" in page or "Höchstens" in page  # Django's own translated limit message
    player.refresh_from_db()
    assert (player.status, player.status_reason) == (Participant.Status.ACTIVE, "")


def test_services_refuse_a_reason_that_went_around_the_form(director, make_tournament):
    tournament = make_tournament(director, game="schafkopf")
    player = add_participant(tournament, by=director, last_name="Huber")
    with pytest.raises(DomainError, match=f"at most {MAX_REASON} characters") as refused:
        set_participant_status(player, Participant.Status.EXCLUDED, by=director, reason=HUGE)
    assert refused.value.field == "reason"
    player.refresh_from_db()
    assert player.status == Participant.Status.ACTIVE
    set_participant_status(player, Participant.Status.EXCLUDED, by=director, reason="y" * MAX_REASON)


def test_a_correction_reason_over_the_limit_is_refused_and_the_slip_kept(director):
    from scoring.games.voms.demo import demo

    played = demo(director, seed=1, results=True, teams=4, pools=1)
    match = Match.objects.filter(stage__tournament=played, sheet__isnull=False, pool__isnull=False).first()
    before = SheetRevision.objects.count()
    with pytest.raises(DomainError, match="at most"):
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 3}, reason=HUGE)
    assert SheetRevision.objects.count() == before
