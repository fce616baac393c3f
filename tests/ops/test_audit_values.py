"""Stored values inside audit entries read in words: a Schafkopf game type ("ruf"), a settings choice ("bracket",
"standard", a table game's variant), a language, prizes ("percent"), ... in the reader's language, through the
choices the forms and rules use. A value without words stays as it is."""

import datetime
import re
from dataclasses import replace
from decimal import Decimal

import pytest
from django.utils import translation

from tests.conftest import new_director, shared
from tournament.audit_labels import FIELD_LABELS, ValueWords
from tournament.models import AuditEntry, Role
from tournament.views.audit import readable_lines

from .test_audit_page import page_of

pytestmark = pytest.mark.django_db

#: a stored key: lower case letters and underscores ("ruf", "round_robin", "da"); names, slugs, files, times and
#: numbers never look like that
KEY = re.compile(r"[a-z][a-z0-9_]*")


def change_settings(game: str, tournament, director) -> None:
    """A settings change as each game's settings page makes it, with choices other than the defaults."""
    if game == "voms":
        from scoring.games.voms.services.settings import update_settings

        update_settings(tournament, by=director, changes={"semifinal": "round_robin", "best_of": 5})
    elif game == "schafkopf":
        from scoring.games.schafkopf.config import settings_of
        from scoring.rules.schafkopf import TARIFF_PRESETS, PrizeSpec
        from scoring.seated.services import update_settings

        update_settings(tournament, replace(
            settings_of(tournament), tariff_preset="tout_24_8", tariff=TARIFF_PRESETS["tout_24_8"],
            prizes=(PrizeSpec("percent", Decimal("30")), PrizeSpec("fixed", Decimal("50")))), by=director)
    else:
        from scoring.games.tablegames.config import settings_of
        from scoring.seated.services import update_settings

        current = settings_of(tournament)
        update_settings(tournament, replace(current, rounds=current.rounds + 1), by=director)


def build_logged():
    """Every game's played demo, a settings change of each game in a fresh tournament, and what every
    tournament's pages log beside (publishing, a helper's role)."""
    from django.contrib.auth import get_user_model

    from scoring.games import all_games
    from tests.web.test_permission_walk import demo_options
    from tournament.services.publishing import set_publication
    from tournament.services.roles import set_role
    from tournament.services.tournaments import create_tournament

    director = new_director("boss")
    helper = get_user_model().objects.create_user("helper", password="pw-Helper-1")
    tournaments = []
    for game in all_games():
        if game.offers("demo"):
            tournaments.append(game.demo(director, **{**demo_options(game), "results": True}))
        fresh = create_tournament(by=director, name=f"Settings of {game.key}", game=game.key,
                                  date=datetime.date(2026, 12, 5), language="da")
        change_settings(game.key, fresh, director)
        set_publication(fresh, by=director, kinds=["bracket", "standings"])
        set_role(fresh, helper, Role.ASSISTANT, by=director)
        tournaments.append(fresh)
    table_links_and_a_problem(next(t for t in tournaments if t.game == "schafkopf" and t.stages.exists()), director)
    return director, tournaments


@pytest.fixture(scope="module")
def built(build_once):
    """Every game's played demo takes a second or two to build: built once for the module's tests, which only
    read it (each test's changes roll back)."""
    return build_once(build_logged)


@pytest.fixture
def logged(request, built):
    return shared(request, built)


def table_links_and_a_problem(tournament, director) -> None:
    from scoring.results.links import issue_links, reissue_link, revoke_link
    from scoring.results.problems import close_problem, signal_problem
    from tournament.models import Round, Tournament

    links = issue_links(Round.objects.filter(stage__tournament=tournament).order_by("number").first(), by=director)
    # signalled while the evening ran: the played demo is finished, and a finished tournament's links record nothing
    status = Tournament.objects.filter(pk=tournament.pk)
    status.update(status=Tournament.Status.RUNNING)
    problem = signal_problem(reissue_link(links[0], by=director, reason="lost"), kind="dispute", note="Tout?")
    status.update(status=Tournament.Status.FINISHED)
    close_problem(problem, by=director)
    revoke_link(links[1], by=director, reason="wrong table")


#: fields that hold a name or a text someone typed (a user name may well look like a key)
TYPED = {"user", "director", "name", "players", "venue", "file", "reason", "note", "slug", "club", "first_name",
         "last_name", "substitute", "tout_initials", "time_zone", "from_link", "link", "links"}


def leaves(value, path=()):
    """(path, value) of every single value inside a before/after; a seat's or a table's number, and a pool's
    name in a draw, are no fields."""
    if isinstance(value, dict):
        for key, inner in value.items():
            named = str(key).isdigit() or (path and path[-1] == "pools")
            yield from leaves(inner, path if named else (*path, str(key)))
    elif isinstance(value, list):
        for inner in value:
            yield from leaves(inner, path)
    else:
        yield path, value


def test_every_stored_key_a_played_evening_or_a_settings_change_logs_reads_in_words(logged):
    """Each field's line as the page shows it (tournament.views.audit.readable_lines), in German and Danish (in
    English a word may well be its key: "A dispute"): no stored key inside it is left as it is."""
    _director, tournaments = logged
    raw, worded = set(), set()
    for tournament in tournaments:
        for language in ("de", "da"):
            with translation.override(language):
                words = ValueWords(tournament.game)
                for before, after in AuditEntry.objects.filter(tournament=tournament).values_list("before", "after"):
                    for value in (before, after):
                        if not isinstance(value, dict):
                            continue
                        for field, inner in value.items():
                            line = readable_lines({field: inner}, words)[0][1]
                            for path, leaf in leaves(inner, (field,)):
                                if path[-1] in TYPED:
                                    continue
                                key = isinstance(leaf, str) and KEY.fullmatch(leaf) or path[-1] == "best_of"
                                if key:
                                    left = (re.search(rf"(?<!\w){re.escape(leaf)}(?!\w)", line)
                                            if isinstance(leaf, str) else line == str(leaf))
                                    (raw if left else worded).add((".".join(path), leaf))
    assert not raw, sorted(raw)
    # the traps this test was written for were found, and are worded (so the scan proves something)
    assert {("semifinal", "bracket"), ("semifinal", "round_robin"), ("best_of", 5), ("tariff_preset", "standard"),
            ("tariff_preset", "tout_24_8"), ("variant", "almindelig"), ("language", "da"), ("published", "bracket"),
            ("role", "assistant"), ("entries.game_type", "ruf"), ("prizes.kind", "percent"),
            ("status", "running"), ("kind", "dispute")} <= worded


@pytest.mark.parametrize("language,expected", [
    ("de", {"Spielart: Rufspiel", "Tarifvorlage: Tout 24/8", "Halbfinale: Jeder gegen jeden mit 4 Teams",
            "Sprache: Dänisch", "Preise: 30%, 50"}),
    ("en", {"Game type: Rufspiel", "Tariff preset: Tout 24/8", "Semifinal: Round robin of 4 teams",
            "Language: Danish", "Prizes: 30%, 50"}),
])
def test_the_page_shows_the_words(logged, client, language, expected):
    director, tournaments = logged
    client.force_login(director)
    shown = set()
    for tournament in tournaments:
        html = page_of(client, tournament, language)
        for item in re.findall(r"<li[^>]*>(.*?)</li>", html, re.S):
            shown.add(" ".join(re.sub(r"<[^>]+>", " ", item).split()))
        shown |= {part.strip() for line in list(shown) for part in line.split(",")}
    missing = {line for line in expected if not any(line in s for s in shown)}
    assert not missing, missing


def test_every_field_of_a_settings_change_has_a_name(logged):
    _director, tournaments = logged
    fields = set()
    for before, after in AuditEntry.objects.values_list("before", "after"):
        for path, _value in [*leaves(before), *leaves(after)]:
            fields |= set(path)
    missing = sorted(fields - set(FIELD_LABELS))
    assert not missing, " ".join(missing)


def test_a_value_without_words_stays_as_it_is():
    words = ValueWords("schafkopf")
    assert words(("game_type",), "farbsolo_of_the_future") == "farbsolo_of_the_future"
    assert words(("prizes",), [{"kind": "lottery", "value": "1"}]) == [{"kind": "lottery", "value": "1"}]
    assert words(("prizes",), "not a list") == "not a list"
    assert words(("game_type",), True) is True
    assert ValueWords("no_such_game")(("status",), "running") == "Running"
    with translation.override("de"):
        assert words(("entries", "game_type"), "wenz") == "Wenz"
        assert words(("tariff", "name"), "Tout 24/8") == "Tout 24/8"
        assert words(("tariff", "name"), "Club tariff") == "Club tariff"


def test_a_voms_draw_and_knockout_name_the_teams(logged):
    """Not their database ids: "A: Lars Olsen & Jens Lynge, …", "Qualified teams: A1 Lars Olsen & Jens Lynge, …"."""
    from tournament.models import Team

    _director, tournaments = logged
    voms = next(t for t in tournaments if t.game == "voms" and t.teams.exists())
    names = set(Team.objects.filter(tournament=voms).values_list("name", flat=True))
    pools = AuditEntry.objects.get(tournament=voms, action="draw.pools").after["pools"]
    assert {name for teams in pools.values() for name in teams} == names
    qualifiers = AuditEntry.objects.get(tournament=voms, action="knockout.create").after["qualifiers"]
    assert qualifiers and all(re.fullmatch(r"[A-Z]\d+ .+", q) and q.split(" ", 1)[1] in names for q in qualifiers)


@pytest.mark.parametrize("language,shown", [("en", "Entry fee: 15.00"), ("de", "Startgeld: 15,00"),
                                            ("da", "Indskud: 15,00")])
def test_amounts_in_the_languages_format(tournament, director, client, language, shown):
    from tournament.services.tournaments import update_tournament

    update_tournament(tournament, by=director, entry_fee=Decimal("15.00"))
    client.force_login(director)
    html = page_of(client, tournament, language)
    assert shown in " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_search_finds_values_in_the_readers_words(make_tournament, director, client):
    from django.urls import reverse

    from tournament.services.audit import log_action

    tournament = make_tournament(director, game="schafkopf")
    log_action("sheet.entry", by=director, tournament=tournament, obj="Table 1",
               after={"mode": "games", "entries": [{"game_type": "ruf", "won": True}]})
    client.force_login(director)
    url = reverse("tournament:audit", args=[tournament.slug])

    def found(query, language):
        response = client.get(url, {"q": query}, HTTP_ACCEPT_LANGUAGE=language)
        return [row.record.action for row in response.context["table"].paginated_rows]

    assert found("rufspiel", "de") == ["sheet.entry"]
    assert found("Spielart: Rufspiel", "de") == ["sheet.entry"]  # inside an entry's line
    assert found("ruf", "de") == ["sheet.entry"]  # the stored key still finds it
    assert found("Wenz", "de") == []
    assert found("Spielart: Wenz", "de") == [] and found("Spieler: Rufspiel", "de") == []


def test_the_search_finds_values_not_field_names_and_amounts_as_written(make_tournament, director, client):
    from django.urls import reverse

    from tournament.services.audit import log_action

    tournament = make_tournament(director, game="schafkopf")
    log_action("tournament.settings", by=director, tournament=tournament, obj=tournament,
               after={"tariff": {"ruf": 20, "solo": 50}, "entry_fee": "15.00"})
    log_action("tournament.publish", by=director, tournament=tournament, obj=tournament,
               after={"published": ["bracket", "standings"]})
    client.force_login(director)
    url = reverse("tournament:audit", args=[tournament.slug])

    def found(query, language="de"):
        response = client.get(url, {"q": query}, HTTP_ACCEPT_LANGUAGE=language)
        return [row.record.action for row in response.context["table"].paginated_rows]

    assert found("Rufspiel") == []  # the tariff's "ruf" is a field's name there, not a game type
    assert found("15,00") == ["tournament.settings"] and found("15.00", "en") == ["tournament.settings"]
    assert found("15,50") == []
    standings = str(ValueWords()(("published",), "standings")).casefold()
    assert standings != "standings" and found(standings[:6]) == ["tournament.publish"]  # inside a list


def test_the_search_asks_the_database_instead_of_wording_every_entry(make_tournament, director, client, monkeypatch):
    """A long evening logs thousands of entries; wording each to search them took 8 s for 3,000. Only the page's
    rows (50) are worded: the search is a query."""
    from django.urls import reverse

    from tournament.services.audit import log_action
    from tournament.views import audit

    tournament = make_tournament(director, game="schafkopf")
    for number in range(120):
        log_action("sheet.entry", by=director, tournament=tournament, obj=f"Table {number}",
                   after={"mode": "games", "entries": [{"game_type": "ruf" if number % 2 else "wenz", "won": True}]})
    worded = []
    monkeypatch.setattr(audit, "readable_lines", lambda *args: worded.append(args) or readable_lines(*args))
    client.force_login(director)
    response = client.get(reverse("tournament:audit", args=[tournament.slug]), {"q": "rufspiel"},
                          HTTP_ACCEPT_LANGUAGE="de")
    assert response.context["table"].paginator.count == 60
    assert 0 < len(worded) <= 2 * 50


def test_a_list_entered_as_totals_reads_in_words(director, make_tournament, client):
    """A Schafkopf list entered as totals (at the referee table or from a phone) is logged with each seat's total
    and counts: the log names them in the reader's language ("Solo/Wenz gespielt", not "Solo played")."""
    from scoring.games.schafkopf import services
    from tests.schafkopf.conftest import draw_sixteen
    from tournament.models import Table

    tournament = draw_sixteen(make_tournament(director, name="Totals evening", game="schafkopf"), director)
    table = Table.objects.filter(round__stage__tournament=tournament, round__number=1).order_by("number").first()
    counts = {"solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0}
    entries = [{"seat": 1, "total": 6, **counts, "solo_played": 1, "solo_won": 1},
               *({"seat": seat, "total": -2, **counts} for seat in (2, 3, 4))]
    services.enter_sheet(table, by=director, mode="totals", entries=entries)
    after = AuditEntry.objects.filter(tournament=tournament).exclude(after=None).latest("pk").after
    fields = {name for path, _value in leaves(after) for name in path}
    assert {"total", "solo_played", "solo_won", "tout_played", "tout_won"} <= fields
    assert fields <= set(FIELD_LABELS), sorted(fields - set(FIELD_LABELS))
    client.force_login(director)
    text = " ".join(re.sub(r"<[^>]+>", " ", page_of(client, tournament, "de")).split())
    assert "Summe: 6" in text and "Solo/Wenz gespielt: 1" in text and "Solo/Wenz gewonnen: 1" in text
    assert "Solo played" not in text and "Total:" not in text


@pytest.mark.parametrize("language,action,decision,mode,total", [
    ("en", "Different entries decided by a director", "Decision: The first entry counts", "Mode: Totals", "Total"),
    ("de", "Abweichende Eingaben von der Turnierleitung entschieden", "Entscheidung: Die Ersterfassung zählt",
     "Art: Summen", "Summe"),
    ("da", "Forskellige indtastninger afgjort af en turneringsleder",
     "Beslutning: Den første indtastning tæller", "Måde: Totaler", "Total"),
])
def test_a_directors_decision_between_two_entries_reads_in_words(director, make_tournament, django_user_model,
                                                                  client, language, action, decision, mode, total):
    """A director let the first entry count over their own different one: the log says so in the reader's
    language, with both versions (the director's typed totals before, the counted ones after)."""
    from scoring.games.schafkopf import services
    from tests.schafkopf.conftest import draw_sixteen
    from tournament.models import Table, TournamentRole

    tournament = draw_sixteen(make_tournament(director, name="Decided evening", game="schafkopf"), director)
    tournament.double_entry = True
    tournament.save()
    helper = django_user_model.objects.create_user(username="second-typist", password="pw-second-typist-1")
    TournamentRole.objects.create(tournament=tournament, user=helper, role=Role.ASSISTANT)
    table = Table.objects.filter(round__stage__tournament=tournament, round__number=1).order_by("number").first()
    counts = {"solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0}

    def totals(first):
        return [{"seat": 1, "total": first, **counts}, {"seat": 2, "total": -first, **counts},
                *({"seat": seat, "total": 0, **counts} for seat in (3, 4))]

    services.enter_sheet(table, by=helper, mode="totals", entries=totals(6))
    services.enter_sheet(table, by=director, mode="totals", entries=totals(8), decide="first")
    client.force_login(director)
    text = " ".join(re.sub(r"<[^>]+>", " ", page_of(client, tournament, language, action="sheet.decided")).split())
    assert action in text and decision in text and mode in text
    assert f"{total}: 8" in text and f"{total}: 6" in text  # the director's typing and the first entry
