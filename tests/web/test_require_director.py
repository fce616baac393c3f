"""`tournament.permissions.require_director`: the one director check every director-only service starts with."""

import pytest

from tournament.models import Role, TournamentRole
from tournament.permissions import require_director
from tournament.services.errors import DomainError
from tournament.services.participants import NOT_DIRECTOR

pytestmark = pytest.mark.django_db


def test_a_director_passes_and_an_assistant_is_refused(director, make_tournament, django_user_model):
    tournament = make_tournament(director, name="Cup")
    assistant = django_user_model.objects.create_user("helper", password="pw-Helper-1")
    TournamentRole.objects.create(user=assistant, tournament=tournament, role=Role.ASSISTANT)
    require_director(director, tournament)  # no error
    with pytest.raises(DomainError) as refused:
        require_director(assistant, tournament)
    assert refused.value.message == "Only a director of this tournament can do this."


def test_a_service_may_say_it_in_its_own_words(director, make_tournament, django_user_model):
    other = make_tournament(director, name="Other Cup")
    stranger = django_user_model.objects.create_user("stranger", password="pw-Stranger-1")
    with pytest.raises(DomainError) as refused:
        require_director(stranger, other, NOT_DIRECTOR)
    assert refused.value.message == "Only a director of this tournament can change its participants."
    assert isinstance(refused.value.message, str)  # the lazy text is translated when refused, not later
