"""The public pages' one query: the tournament with its version (the newest audit entry), compiled once."""

import pytest
from django.http import Http404

from tournament.models import AuditEntry
from tournament.public.cache import load_tournament
from tournament.services.audit import log_action


def test_each_tournament_gets_its_own_version_and_a_change_renews_it(director, make_tournament):
    first = make_tournament(director, name="First cup")
    second = make_tournament(director, name="Second cup")
    one, two = load_tournament(first.slug), load_tournament(second.slug)  # the same compiled SQL, two slugs
    assert (one.pk, one.name, two.pk, two.name) == (first.pk, "First cup", second.pk, "Second cup")
    newest = AuditEntry.objects.filter(tournament=first).order_by("-id").first()
    assert one.public_version.startswith(f"{newest.pk}-") and one.public_version != two.public_version
    log_action("tournament.update", by=director, tournament=first, obj=first, after={"note": "x"})
    assert load_tournament(first.slug).public_version != one.public_version
    assert load_tournament(second.slug).public_version == two.public_version


def test_a_tournament_without_audit_entries_has_version_zero_and_an_unknown_address_is_404(director,
                                                                                            make_tournament):
    tournament = make_tournament(director)
    AuditEntry.objects.filter(tournament=tournament).delete()
    assert load_tournament(tournament.slug).public_version == "0"
    for slug in ("no-such-cup", "", "x' OR '1'='1", "%"):
        with pytest.raises(Http404):
            load_tournament(slug)
