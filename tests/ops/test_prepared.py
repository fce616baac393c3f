"""Querysets compiled once and run with new values (tournament/prepared.py): the same rows as the queryset gives,
compiled once per database, and refused where a value would not reach the SQL as it is given."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count, F

from tournament.models import Tournament
from tournament.prepared import Prepared


def of_club(organisation, slug):
    return (Tournament.objects.filter(organisation_id=organisation, slug=slug).select_related("organisation")
            .annotate(doubled=F("id") * 2))


@pytest.mark.django_db
def test_the_rows_are_the_querysets_own_for_each_value(director, make_tournament, django_assert_num_queries):
    first, second = make_tournament(director, "Spring cup"), make_tournament(director, "Autumn cup")
    prepared = Prepared(Tournament, of_club, slug=str)
    for tournament in (first, second, first):
        with django_assert_num_queries(1):  # the club comes with its tournament, in the same query
            found = prepared.all(organisation=tournament.organisation_id, slug=tournament.slug)
            assert [row.pk for row in found] == [tournament.pk]
            assert found[0].organisation.name == tournament.organisation.name
        assert found[0].doubled == tournament.pk * 2
        assert found[0].name == tournament.name and found[0].date == tournament.date  # the fields' own types
    assert prepared.first(organisation=first.organisation_id, slug="no-such-tournament") is None
    assert prepared.all(organisation=-1, slug=first.slug) == []


@pytest.mark.django_db
def test_values_rows_and_aggregates_as_the_queryset_gives_them(director, make_tournament):
    tournament = make_tournament(director, "Spring cup")
    make_tournament(director, "Autumn cup")

    def counted(organisation):
        return (Tournament.objects.filter(organisation_id=organisation).values("organisation")
                .annotate(many=Count("id")).values_list("many", flat=True))

    prepared = Prepared(Tournament, counted)
    assert prepared.all(organisation=tournament.organisation_id) == list(counted(tournament.organisation_id))
    assert prepared.all(organisation=tournament.organisation_id) == [2]


@pytest.mark.django_db
def test_the_queryset_is_built_and_compiled_at_its_first_use_only(director, make_tournament):
    tournament = make_tournament(director)
    built = []

    def by_slug(slug):
        built.append(slug)
        return Tournament.objects.filter(slug=slug)

    prepared = Prepared(Tournament, by_slug, slug=str)
    for _ in range(3):
        assert prepared.first(slug=tournament.slug) == tournament
    # built at its first use only, with two sets of stand-ins, never with a real value
    assert len(built) == 2 and tournament.slug not in built


@pytest.mark.django_db
def test_a_value_that_does_not_reach_the_sql_as_given_is_refused(director, make_tournament):
    make_tournament(director)
    # "contains" sends %value% (escaped): the value cannot be put into the compiled SQL as it is
    prepared = Prepared(Tournament, lambda part: Tournament.objects.filter(name__contains=part), part=str)
    with pytest.raises(ImproperlyConfigured, match="part"):
        prepared.all(part="cup")


@pytest.mark.django_db
def test_values_of_the_wrong_kind_are_refused(director, make_tournament):
    tournament = make_tournament(director)
    prepared = Prepared(Tournament, lambda pk: Tournament.objects.filter(pk=pk))
    with pytest.raises(TypeError):
        prepared.all(pk=str(tournament.pk))
    with pytest.raises(TypeError):
        prepared.all(pk=True)
    with pytest.raises(TypeError):
        prepared.all(id=tournament.pk)
    with pytest.raises(ImproperlyConfigured):
        Prepared(Tournament, lambda pk: Tournament.objects.filter(pk=pk), slug=str)
    assert prepared.all(pk=tournament.pk) == [tournament]


@pytest.mark.django_db
def test_a_constant_that_equals_a_stand_in_stays_a_constant(director, make_tournament):
    tournament = make_tournament(director)
    # 30011 is the first stand-in for a whole number: the query's own 30011 must not take the value
    prepared = Prepared(Tournament, lambda pk: Tournament.objects.filter(pk=pk).exclude(pk=30_011))
    assert prepared.all(pk=tournament.pk) == [tournament]
    assert prepared.all(pk=30_011) == []


@pytest.mark.django_db
def test_a_number_no_column_holds_finds_nothing(director, make_tournament):
    make_tournament(director)
    prepared = Prepared(Tournament, lambda pk: Tournament.objects.filter(pk=pk))
    assert prepared.all(pk=10**30) == [] and prepared.all(pk=-(10**30)) == []


@pytest.mark.django_db
def test_a_small_whole_number_reaches_the_sql_as_the_database_adapter_takes_it(director, make_tournament):
    """PostgreSQL's adapter is given a small integer field's value wrapped (psycopg's Int2): the value put in
    its place is wrapped the same way (CI runs this on both databases)."""
    tournament = make_tournament(director)
    Tournament.objects.filter(pk=tournament.pk).update(beamer_seconds=20)
    Tournament.objects.filter(pk=make_tournament(director, "Other cup").pk).update(beamer_seconds=30)
    prepared = Prepared(Tournament, lambda seconds: Tournament.objects.filter(beamer_seconds=seconds))
    assert prepared.all(seconds=20) == [tournament]
    assert prepared.all(seconds=25) == []
    # a number the small column cannot hold (an address's round 40000) finds nothing, as Django's own lookup does
    # (PostgreSQL binding parameters on the server would refuse it as the small integer's)
    assert prepared.all(seconds=40_000) == [] and prepared.all(seconds=-40_000) == []
