"""Voms table links: a link per pool slip and per knockout series, the phone page (/t/<token>/), the referee
table's confirmation, and the director's list of links."""

import pytest
from django.urls import reverse

from scoring.games import game_of
from scoring.games.voms import queries as voms_queries
from scoring.games.voms.services import knockout as voms_knockout
from scoring.games.voms.services import slips as voms_slips
from scoring.models import PendingSheet, ScoreSheet, TableLink, TableProblem
from scoring.results.brakes import REFUSED_LIMIT
from scoring.results.links import issue_match_links, reissue_link, revoke_link, token_of
from tests.phone_notes import LANGUAGES, draft_key, holds_part_of, phone_notes, said_after_sending
from tournament.draw.bracket import Qualifier
from tournament.models import Match, Stage

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_voms  # noqa: F401


def table_url(token):
    return reverse("table:entry", args=[token])


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


def pool_games(tournament, round_number=1):
    return list(Match.objects.filter(stage__tournament=tournament, stage__kind=Stage.Kind.POOLS,
                                     round__number=round_number, team_b__isnull=False).order_by("table_number"))


@pytest.fixture
def slip_links(drawn, director):
    """Links for the games of rounds 1 and 2: {(round, table): (link, token)}."""
    games = pool_games(drawn, 1) + pool_games(drawn, 2)
    return {(link.match.round.number, link.match.table_number): (link, token_of(link))
            for link in issue_match_links(drawn, games, by=director)}


def slip(lus_a, lus_b, winner="", **extra):
    return {"g1-lus_a": str(lus_a), "g1-lus_b": str(lus_b), "g1-winner": winner, **extra}


def stored(tournament):
    return (sorted((s.match_id, str(s.entries)) for s in ScoreSheet.objects.filter(tournament=tournament)),
            sorted((p.match_id, str(p.entries), p.version) for p in PendingSheet.objects.filter(tournament=tournament)))


def test_the_phone_page_shows_both_teams_with_their_players(phone, slip_links, drawn):
    link, token = slip_links[(1, 1)]
    response = phone.get(table_url(token))
    text = response.content.decode()
    assert response.status_code == 200
    for team in (link.match.team_a, link.match.team_b):
        assert team.name in text
    assert 'name="g1-lus_a"' in text and 'name="g1-winner"' in text
    assert "Round 1 · Table 1" in text


def test_a_slip_sent_from_the_phone_awaits_the_referee_tables_confirmation(phone, slip_links, drawn, director,
                                                                           client):
    link, token = slip_links[(1, 1)]
    response = phone.post(table_url(token), slip(9, 4))
    assert response.status_code == 302
    pending = PendingSheet.objects.get(match=link.match)
    assert pending.source_link == link and pending.entered_by is None
    assert pending.entries == [{"lus_a": 9, "lus_b": 4}]
    assert not ScoreSheet.objects.filter(match=link.match).exists()
    again = phone.post(table_url(token), slip(9, 4))  # sent twice: one entry, unchanged
    assert again.status_code == 302
    assert PendingSheet.objects.get(match=link.match).version == pending.version
    page = phone.get(table_url(token)).content.decode()
    assert 'id="sent-note"' in page and 'value="9"' in page
    sent = phone_notes(phone, table_url(token), "sent-note")
    assert "the paper slip" in sent["en"] and "Spielzettel" in sent["de"] and "kamsedlen" in sent["da"]
    offline = phone_notes(phone, table_url(token), "ph-offline")
    assert "Send the slip again" in offline["en"] and "Senden Sie den Spielzettel" in offline["de"]
    assert "Send kamsedlen igen" in offline["da"]
    client.force_login(director)
    enter = client.get(reverse("tournament:voms:enter", args=[drawn.slug]) + "?round=1").content.decode()
    assert "the table, from its link" in enter
    confirmed = client.post(reverse("tournament:voms:enter", args=[drawn.slug]),
                            {"action": "confirm", "match": link.match.pk, "pending_version": pending.version})
    assert confirmed.status_code == 302
    sheet = ScoreSheet.objects.get(match=link.match)
    assert sheet.derived["games"][0]["points_a"] == "2"
    assert sheet.revisions.get().source_link == link
    readonly = phone.get(table_url(token)).content.decode()
    assert 'id="counted"' in readonly and 'name="g1-lus_a"' not in readonly
    assert phone_notes(phone, table_url(token), "counted") == {
        "en": "Your slip has been recorded and counts. Here is what was recorded. If something is wrong, bring the "
              "paper slip to the referee table.",
        "de": "Ihr Spielzettel ist erfasst und zählt. Hier sehen Sie, was erfasst wurde. "
              "Stimmt etwas nicht, bringen Sie den Spielzettel aus Papier zur Turnierleitung.",
        "da": "Jeres kamseddel er registreret og tæller. Her er det, der blev registreret. "
              "Er noget forkert, så bring kamsedlen på papir til dommerbordet."}
    before = stored(drawn)
    refused = phone.post(table_url(token), slip(9, 2))
    assert refused.status_code in (200, 302)
    assert stored(drawn) == before


def test_the_referee_table_types_the_slip_blind_and_sees_the_differences(phone, slip_links, drawn, director, client):
    link, token = slip_links[(1, 2)]
    phone.post(table_url(token), slip(9, 4))
    client.force_login(director)
    url = reverse("tournament:voms:enter", args=[drawn.slug])
    differs = client.post(url, {"round": 1, "table": 2, "lus_a": "9", "lus_b": "5", "winner": ""})
    assert differs.status_code == 200 and "The two entries differ" in differs.content.decode()
    assert not ScoreSheet.objects.filter(match=link.match).exists()
    same = client.post(url, {"round": 1, "table": 2, "lus_a": "9", "lus_b": "4", "winner": ""})
    assert same.status_code == 302
    assert ScoreSheet.objects.get(match=link.match).entries == [{"lus_a": 9, "lus_b": 4}]


def test_the_phone_has_the_referee_tables_rules_and_messages(phone, slip_links, drawn):
    _link, token = slip_links[(1, 1)]
    before = stored(drawn)
    too_many = phone.post(table_url(token), slip(21, 4))
    assert too_many.status_code == 400 and "at most 20" in too_many.content.decode()
    high = phone.post(table_url(token), slip(13, 4))
    text = high.content.decode()
    assert high.status_code == 400 and 'name="g1-confirm_high_lus"' in text
    both = phone.post(table_url(token), slip(10, 9))
    assert both.status_code == 400
    assert stored(drawn) == before
    sure = phone.post(table_url(token), slip(13, 4, **{"g1-confirm_high_lus": "on"}))
    assert sure.status_code == 302
    assert PendingSheet.objects.get(match=_link.match).entries == [{"lus_a": 13, "lus_b": 4, "confirm_high_lus": True}]


def test_an_absent_team_is_typed_x_and_counts_9_0_at_once_when_the_tournament_allows(phone, slip_links, drawn):
    drawn.link_entries_count = True
    drawn.save()
    link, token = slip_links[(1, 3)]
    assert phone.post(table_url(token), slip("x", "")).status_code == 302
    sheet = ScoreSheet.objects.get(match=link.match)
    assert sheet.derived["games"][0]["kind"] == "forfeit" and sheet.derived["games"][0]["points_b"] == "2.5"
    assert sheet.revisions.get().source_link == link
    assert not PendingSheet.objects.filter(match=link.match).exists()
    again = phone.post(table_url(token), slip("x", ""))  # sent again: the page shows what counts, nothing more
    assert again.status_code == 200 and 'id="counted"' in again.content.decode()
    assert ScoreSheet.objects.get(match=link.match).version == 1


def test_wrong_revoked_and_other_tables_tokens_are_refused_and_change_nothing(phone, slip_links, drawn, director):
    link, token = slip_links[(1, 1)]
    before = stored(drawn)
    for wrong in ("x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B"), "short", token + "extra"):
        assert phone.get(table_url(wrong)).status_code in (403, 404)
        assert phone.post(table_url(wrong), slip(9, 4)).status_code in (403, 404)
    revoke_link(link, by=director)
    assert phone.get(table_url(token)).status_code == 403
    assert phone.post(table_url(token), slip(9, 4)).status_code == 403
    assert phone.post(table_url(token), {"action": "problem", "kind": "dispute"}).status_code == 403
    assert stored(drawn) == before and not TableProblem.objects.exists()
    # another table's link sends only its own slip
    other, other_token = slip_links[(2, 1)]
    assert phone.post(table_url(other_token), slip(9, 4)).status_code == 302
    assert PendingSheet.objects.get().match == other.match
    new = reissue_link(TableLink.objects.get(pk=link.pk), by=director)
    assert phone.get(table_url(token_of(new))).status_code == 200
    assert phone.get(table_url(token)).status_code == 403


def test_a_link_is_rate_limited(phone, slip_links, drawn):
    link, token = slip_links[(1, 1)]
    for _ in range(REFUSED_LIMIT):
        phone.post(table_url(token), slip(21, 0))
    assert phone.post(table_url(token), slip(9, 4)).status_code == 429
    assert not PendingSheet.objects.filter(match=link.match).exists()


def test_a_problem_signalled_from_the_slip_shows_on_the_entry_page_and_is_closed_there(phone, slip_links, drawn,
                                                                                      client, assistant_voms):
    link, token = slip_links[(1, 1)]
    assert phone.post(table_url(token), {"action": "problem", "kind": "missing_player", "note": "P0 gone"}) \
        .status_code == 302
    problem = TableProblem.objects.get()
    assert problem.match == link.match and problem.table is None
    client.force_login(assistant_voms)
    enter = reverse("tournament:voms:enter", args=[drawn.slug])
    page = client.get(enter).content.decode()
    assert 'id="table-problems"' in page and "P0 gone" in page and "Round 1 · Table 1" in page
    close = reverse("tournament:voms:close_problem", args=[drawn.slug, problem.pk])
    assert client.post(close).status_code == 302
    assert TableProblem.objects.get().closed_at is not None
    assert "P0 gone" not in client.get(enter).content.decode()


@pytest.fixture
def knockout(drawn, director):
    """Pool over (a quick round robin of 9:4 wins) and a best-of-3 knockout of four teams."""
    for match in Match.objects.filter(stage__tournament=drawn, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry={"lus_a": 9, "lus_b": 4})
    teams = [t.pk for t in drawn.teams.order_by("pk")][:4]
    qualifiers = [Qualifier(pool=0, place=n, team=t) for n, t in enumerate(teams, 1)]
    voms_knockout.create_knockout(drawn, by=director, qualifiers=qualifiers, third_place=False, semifinal="bracket")
    return voms_queries.knockout_stage(drawn)


def test_a_series_is_sent_game_by_game_and_shown_read_only_once_decided(phone, knockout, drawn, director):
    semifinal = knockout.matches.filter(team_a__isnull=False, team_b__isnull=False).order_by("key").first()
    link = issue_match_links(drawn, [semifinal], by=director)[0]
    token = token_of(link)
    page = phone.get(table_url(token)).content.decode()
    assert 'name="g3-lus_a"' in page and "best of 3" in page
    one = {"g1-lus_a": "9", "g1-lus_b": "3"}
    assert phone.post(table_url(token), one).status_code == 302
    assert PendingSheet.objects.get(match=semifinal).entries == [{"lus_a": 9, "lus_b": 3}]
    absent = phone.post(table_url(token), {**one, "g2-lus_a": "x", "g2-lus_b": "9"})
    assert absent.status_code == 400  # no absence in a series, as at the referee table
    voms_slips.confirm_slip(semifinal, by=director)
    assert ScoreSheet.objects.get(match=semifinal).derived["finished"] is False
    page = phone.get(table_url(token)).content.decode()
    assert 'name="g1-lus_a"' not in page and 'name="g2-lus_a"' in page and 'id="ph-counted-games"' in page
    two = phone.post(table_url(token), {"g2-lus_a": "9", "g2-lus_b": "7"})
    assert two.status_code == 302
    pending = PendingSheet.objects.get(match=semifinal)
    assert len(pending.entries) == 2 and pending.base_version == 1
    voms_slips.confirm_slip(semifinal, by=director)
    sheet = ScoreSheet.objects.get(match=semifinal)
    assert sheet.derived["finished"] is True and sheet.derived["winner"] == "a"
    page = phone.get(table_url(token)).content.decode()
    assert 'id="counted"' in page and 'name="g3-lus_a"' not in page
    counted = phone_notes(phone, table_url(token), "counted")
    assert counted["en"].startswith("Your series has been recorded and counts.") and "series slip" in counted["en"]
    assert counted["de"].startswith("Ihre Serie ist erfasst") and "Serienzettel" in counted["de"]
    assert counted["da"].startswith("Jeres serie er registreret") and "seriesedlen" in counted["da"]


def test_a_series_whose_teams_are_not_known_shows_so(phone, knockout, drawn, director):
    final = knockout.matches.get(key="F")
    link = issue_match_links(drawn, [final], by=director)[0]
    page = phone.get(table_url(token_of(link))).content.decode()
    assert "not known yet" in page and 'name="g1-lus_a"' not in page


def test_the_directors_links_page_issues_withdraws_and_reissues(client, drawn, director):
    client.force_login(director)
    page_url = reverse("tournament:voms:links_part", args=[drawn.slug, "1"])
    assert client.get(reverse("tournament:voms:links", args=[drawn.slug])).url == page_url
    first = client.get(page_url).content.decode()
    assert "no link yet" in first and 'id="issue-links"' in first
    client.post(page_url, {"action": "issue"})
    games = pool_games(drawn, 1)
    links = list(TableLink.objects.filter(match__in=games, revoked_at=None).order_by("match__table_number"))
    assert len(links) == len(games) and not TableLink.objects.filter(match__round__number=2).exists()
    page = client.get(page_url).content.decode()
    assert all(table_url(token_of(link)) in page for link in links) and "<svg" in page
    client.post(page_url, {"action": "reissue", "link": links[0].pk})
    client.post(page_url, {"action": "revoke", "link": links[1].pk})
    page = client.get(page_url).content.decode()
    assert table_url(token_of(links[0])) not in page and table_url(token_of(links[1])) not in page
    assert TableLink.objects.filter(match=games[0], revoked_at=None).count() == 1
    assert not TableLink.objects.filter(match=games[1], revoked_at=None).exists()
    assert client.post(page_url, {"action": "revoke", "link": "nonsense"}).status_code == 404
    assert client.get(reverse("tournament:voms:links_part", args=[drawn.slug, "99"])).status_code == 404
    assert client.get(reverse("tournament:voms:links_part", args=[drawn.slug, "knockout"])).status_code == 404


def test_an_assistant_cannot_open_the_links_page(client, drawn, assistant_voms):
    client.force_login(assistant_voms)
    assert client.get(reverse("tournament:voms:links_part", args=[drawn.slug, "1"])).status_code == 404


def test_the_slips_carry_the_qr_code_of_their_link(drawn, director):
    from scoring.games.voms.documents import series_slips_document, slips_document

    games = pool_games(drawn, 1)
    issue_match_links(drawn, games[:1], by=director)
    document = slips_document(drawn, 1)
    slips = [s for page in document.pages for s in page.get("slips", [])]
    assert slips[0]["link"]["url"].endswith(table_url(token_of(TableLink.objects.get(match=games[0]))))
    assert all(s["link"] is None for s in slips[1:])
    assert series_slips_document(drawn).pages  # no knockout yet: still a document


def test_the_round_board_reads_each_slips_state(phone, slip_links, drawn, director):
    from scoring import board

    _link1, token1 = slip_links[(1, 1)]
    link2, token2 = slip_links[(1, 2)]
    phone.post(table_url(token1), slip(9, 4))
    phone.post(table_url(token2), {"action": "problem", "kind": "dispute"})
    voms_slips.record_slip(pool_games(drawn, 1)[2], by=director, entry={"lus_a": 9, "lus_b": 0})
    items = game_of(drawn).board(drawn, "1", user=director).items
    assert [item.label for item in items] == ["Table 1", "Table 2", "Table 3"]
    assert [item.state for item in items] == [board.AWAITING, board.MISSING, board.COUNTED]
    assert [item.from_table for item in items] == [True, False, False]
    assert [bool(item.problems) for item in items] == [False, True, False]


def test_a_copied_tournament_gets_table_links_of_its_own(slip_links, drawn, director):
    from tournament.transfer import export_tournament, import_tournament

    link, token = slip_links[(1, 1)]
    copy = import_tournament(export_tournament(drawn), by=director, as_new=True)
    copied = TableLink.objects.filter(tournament=copy)
    assert copied.count() == len(slip_links)
    assert all(c.token_hash != link.token_hash for c in copied)
    assert TableLink.objects.get(token_hash=link.token_hash).tournament == drawn  # the old code opens the original


def test_the_phone_page_switches_language_and_stays_on_the_link(phone, slip_links):
    _link, token = slip_links[(1, 1)]
    text = phone.get(table_url(token) + "?x=1").content.decode()
    form = text[text.index('class="pub-lang"'):]
    assert 'id="ph-language"' in form and form.count("<option") == 3
    assert f'name="next" type="hidden" value="{table_url(token)}"' in form  # the path, without the query
    phone.post(reverse("set_language"), {"language": "da", "next": table_url(token)})
    assert 'lang="da"' in phone.get(table_url(token)).content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sent_slip_is_said_once_in_each_language(phone, slip_links, language):
    """After a send the page says so in one place: the note saying when it was sent, not a message repeating it."""
    _link, token = slip_links[(1, 1)]
    said = said_after_sending(phone, table_url(token), slip(9, 4), language)
    assert said == [phone_notes(phone, table_url(token), "sent-note")[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_slip_counted_at_once_is_said_once_in_each_language(phone, slip_links, drawn, language):
    drawn.link_entries_count = True
    drawn.save()
    _link, token = slip_links[(1, 1)]
    said = said_after_sending(phone, table_url(token), slip(9, 4), language)
    assert said == [phone_notes(phone, table_url(token), "counted")[language]]


def test_a_series_game_counted_at_once_is_said_once(phone, knockout, drawn, director):
    """No note on the page for games of a series that count while it goes on: the message alone says it."""
    drawn.link_entries_count = True
    drawn.save()
    semifinal = knockout.matches.filter(team_a__isnull=False, team_b__isnull=False).order_by("key").first()
    token = token_of(issue_match_links(drawn, [semifinal], by=director)[0])
    said = said_after_sending(phone, table_url(token), {"g1-lus_a": "9", "g1-lus_b": "3"}, "de")
    assert said == ["Ihre Serie ist erfasst und zählt."]


def test_the_menus_table_links_before_the_pool_draw_says_to_draw_first(director, make_tournament, client):
    """Not "page not found": the director who opens Table links before the draw is told what comes first."""
    voms = make_tournament(director, name="Before the draw", game="voms")
    client.force_login(director)
    response = client.get(reverse("tournament:voms:links", args=[voms.slug]), follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Draw the pools first." in text and 'id="print-slips"' not in text


def test_the_phones_draft_key_holds_the_links_hint_and_no_part_of_its_token(phone, slip_links):
    link, token = slip_links[(1, 1)]
    key = draft_key(phone.get(table_url(token)).content.decode())
    assert key == f"table-entry:m{link.match_id}:{link.hint}"
    assert not holds_part_of(key, token)


def test_the_links_page_marks_a_counted_slips_link_closed_and_a_withdrawn_one_in_words(client, drawn, director,
                                                                                       slip_links):
    """A counted slip's link shows the slip and records nothing: the page said nothing of it; a withdrawn link's
    row said "no link yet". Both are said in words (and the row is marked), in German and Danish too."""
    games = pool_games(drawn, 1)
    voms_slips.record_slip(games[0], by=director, entry={"lus_a": 9, "lus_b": 4})
    revoke_link(TableLink.objects.get(match=games[1]), by=director)
    client.force_login(director)
    page_url = reverse("tournament:voms:links_part", args=[drawn.slug, "1"])
    for language, closed, counts, withdrawn in (("en", "Closed", "the result counts", "Withdrawn"),
                                                ("de", "Geschlossen", "das Ergebnis zählt", "Zurückgezogen"),
                                                ("da", "Lukket", "resultatet tæller", "Trukket tilbage")):
        client.cookies["django_language"] = language
        page = client.get(page_url).content.decode()
        rows = {m: page.split(f'<tr id="match-{m.pk}"', 1)[1].split("</tr>", 1)[0] for m in games[:3]}
        assert f"<strong>{closed}</strong>: {counts}" in rows[games[0]], language
        assert rows[games[0]].startswith(' class="tl-row-closed"')
        assert f"<strong>{withdrawn}</strong>" in rows[games[1]] and closed not in rows[games[1]], language
        assert "tl-row-closed" not in rows[games[2]] and withdrawn not in rows[games[2]], language


@pytest.mark.django_db
def test_the_history_of_a_slip_sent_from_a_link_names_the_link_not_none(client, drawn, slip_links, director):
    """The correction page's history said "None · confirmed by director" for a slip the table sent from its link."""
    link, token = slip_links[(1, 1)]
    assert client.post(table_url(token), slip(9, 5)).status_code == 302
    voms_slips.confirm_slip(link.match, by=director)
    client.force_login(director)
    page = client.get(reverse("tournament:voms:correct", args=[link.tournament.slug, link.match.pk])).content.decode()
    history = page.split("<tbody>")[-1].split("</tbody>")[0]
    assert "None" not in history and "the table, from its link · confirmed by director" in history
