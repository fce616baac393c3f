"""The table's page (/t/<token>/) and the director's page of a round's links."""

import logging
import re

import pytest
from django.urls import reverse

from scoring.games.schafkopf import services
from scoring.games.schafkopf.forms import grid_values
from scoring.models import PendingSheet, ScoreSheet
from scoring.results.brakes import TAKEN_LIMIT
from scoring.results.links import reissue_link, revoke_link, token_of
from tests.pdf_text import page_texts
from tests.phone_notes import LANGUAGES, draft_key, holds_part_of, phone_notes, said_after_sending

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401


def table_url(token):
    return reverse("table:entry", args=[token])


def grid_post(entries):
    data = {}
    for number, entry in enumerate(entries, start=1):
        for key, value in grid_values(entry).items():
            data[f"{key}{number}"] = value
    return data


@pytest.fixture
def phone(client):
    client.cookies.pop("django_language", None)
    return client


def test_the_table_page_shows_the_players_by_seat_in_the_tournaments_language(phone, links, drawn):
    drawn.language = "de"
    drawn.save()
    link, token = links[(1, 2)]
    response = phone.get(table_url(token))
    assert response.status_code == 200
    text = response.content.decode()
    for seat in link.table.seats.select_related("participant"):
        assert seat.participant.name in text
    assert 'lang="de"' in text and "Liste senden" in text
    assert 'name="t30"' in text and 'name="t31"' not in text
    assert token not in text.replace(table_url(token), "")  # only in the address the language form returns to
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_language_switch_wins_over_the_tournaments_language(phone, links, drawn):
    drawn.language = "de"
    drawn.save()
    _link, token = links[(1, 1)]
    phone.cookies["django_language"] = "da"
    assert 'lang="da"' in phone.get(table_url(token)).content.decode()


def test_sending_a_list_makes_one_first_entry_and_the_referee_table_confirms_it(phone, links, a_list, director,
                                                                              client):
    link, token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    response = phone.post(table_url(token), grid_post(entries))
    assert response.status_code == 302
    response = phone.post(table_url(token), grid_post(entries))  # sent twice
    assert response.status_code == 302
    pending = PendingSheet.objects.get()
    assert pending.entries == entries and pending.source_link == link and pending.version == 1
    page = phone.get(table_url(token)).content.decode()
    assert "referee table checks it" in page and 'id="sent-note"' in page
    sent = phone_notes(phone, table_url(token), "sent-note")
    assert "paper score list" in sent["en"] and "Punkteliste" in sent["de"] and "pointsedlen" in sent["da"]
    offline = phone_notes(phone, table_url(token), "ph-offline")
    assert "Send the score list again" in offline["en"] and "Senden Sie die Punkteliste" in offline["de"]
    assert "Send pointsedlen igen" in offline["da"]
    client.force_login(director)
    sheet_url = reverse("tournament:schafkopf:sheet", args=[link.tournament.slug, 1, 1])
    page = client.get(sheet_url).content.decode()
    assert "sent by the table from its link" in page
    round_page = client.get(reverse("tournament:schafkopf:round", args=[link.tournament.slug, 1])).content.decode()
    assert "sent by the table" in round_page
    response = client.post(sheet_url, {"action": "confirm", "pending_version": pending.version})
    assert response.status_code == 302
    assert ScoreSheet.objects.get().entries == entries
    client.logout()
    page = phone.get(table_url(token)).content.decode()
    assert 'id="counted"' in page and "sk-save" not in page and " disabled" in page
    assert phone_notes(phone, table_url(token), "counted") == {
        "en": "Your score list has been recorded and counts. Here is what was recorded. If something is wrong, "
              "bring the paper score list to the referee table.",
        "de": "Ihre Punkteliste ist erfasst und zählt. Hier sehen Sie, was erfasst wurde. "
              "Stimmt etwas nicht, bringen Sie die Punkteliste aus Papier zur Turnierleitung.",
        "da": "Jeres pointseddel er registreret og tæller. Her er det, der blev registreret. "
              "Er noget forkert, så bring pointsedlen på papir til dommerbordet."}


def test_a_wrong_list_gets_the_referee_tables_message_and_changes_nothing(phone, links, a_list):
    _link, token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    data = grid_post(entries)
    data["d5"] = "9"
    response = phone.post(table_url(token), data)
    assert response.status_code == 400
    assert "Some games cannot be right" in response.content.decode()
    data = grid_post(entries[:20])
    response = phone.post(table_url(token), data)
    assert response.status_code == 400 and "30 in a round" in response.content.decode()
    assert not PendingSheet.objects.exists()


def test_a_tampered_form_changes_nothing(phone, links, a_list):
    _link, token = links[(1, 1)]
    data = grid_post(a_list(30, 4, seed=3))
    data.update({"t1": "<script>", "d2": "1; DROP TABLE", "t31": "R", "d31": "1", "mode": "totals",
                 "table": "2", "version": "99"})
    response = phone.post(table_url(token), data)
    assert response.status_code == 400
    assert not PendingSheet.objects.exists() and not ScoreSheet.objects.exists()


def bad_tokens(links, director):
    """Tokens that must open nothing: unknown, altered, cut, withdrawn, replaced by a reissue."""
    link, token = links[(1, 1)]
    revoked, revoked_token = links[(1, 3)]
    revoke_link(revoked, by=director)
    reissued, reissued_token = links[(2, 1)]
    reissue_link(reissued, by=director)
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    return {"unknown": "x" * 43, "altered": altered, "cut": token[:30], "withdrawn": revoked_token,
            "replaced": reissued_token}


def test_every_table_url_refuses_wrong_withdrawn_and_replaced_tokens_and_changes_nothing(phone, links, director,
                                                                                      a_list, caplog):
    tokens = bad_tokens(links, director)
    data = grid_post(a_list(30, 4, seed=3))
    caplog.set_level(logging.INFO)
    for why, token in tokens.items():
        for method in ("get", "post"):
            response = getattr(phone, method)(table_url(token), data)
            assert response.status_code == 403, (why, method)
            text = response.content.decode()
            assert 'id="refusal"' in text and "Nothing was recorded" in text, why
            assert ("withdrawn" in text) == (why in ("withdrawn", "replaced")), why
    assert not PendingSheet.objects.exists() and not ScoreSheet.objects.exists()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "table link refused" in logged
    for token in tokens.values():
        assert token not in logged


def test_a_refusal_is_in_the_phones_language(phone, links):
    phone.cookies["django_language"] = "de"
    text = phone.get(table_url("y" * 43)).content.decode()
    assert "Dieser Link ist nicht gültig" in text


def test_a_link_opens_only_its_own_table_of_its_own_round(phone, links, a_list):
    one, one_token = links[(1, 1)]
    other, other_token = links[(2, 1)]
    entries = a_list(30, 4, seed=3)
    phone.post(table_url(other_token), grid_post(entries))
    assert PendingSheet.objects.get().table == other.table
    assert not PendingSheet.objects.filter(table=one.table).exists()
    page = phone.get(table_url(one_token)).content.decode()
    assert 'id="sent-note"' not in page
    numbers = re.findall(r"Round (\d) · Table (\d)", page)
    assert numbers[0] == ("1", "1")


def test_sending_too_often_is_refused_for_a_while(phone, links, a_list):
    _link, token = links[(1, 1)]
    data = grid_post(a_list(30, 4, seed=3))
    for _ in range(TAKEN_LIMIT):
        phone.post(table_url(token), data)
    response = phone.post(table_url(token), data)
    assert response.status_code == 429 and "too often" in response.content.decode()
    assert PendingSheet.objects.count() == 1


def test_a_counted_list_entered_as_totals_is_shown_read_only(phone, links, director):
    link, token = links[(1, 1)]
    services.enter_sheet(link.table, by=director, mode="totals", entries=[
        {"seat": 1, "total": 30, "solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0},
        {"seat": 2, "total": -10, "solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0},
        {"seat": 3, "total": -10, "solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0},
        {"seat": 4, "total": -10, "solo_played": 0, "solo_won": 0, "tout_played": 0, "tout_won": 0}])
    page = phone.get(table_url(token)).content.decode()
    assert 'id="counted"' in page and "-10" in page and "sk-save" not in page
    assert phone.post(table_url(token), {"t1": "R"}).status_code == 200
    assert ScoreSheet.objects.get().mode == "totals" and ScoreSheet.objects.get().version == 1


def test_django_log_lines_never_carry_a_whole_token(links, caplog):
    _link, token = links[(1, 1)]
    caplog.set_level(logging.INFO)
    logging.getLogger("django.request").warning("Forbidden (CSRF token missing.): %s", table_url(token))
    logging.getLogger("django.server").info('"%s" %s %s', f"POST {table_url(token)} HTTP/1.1", 403, 10)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert token not in logged and f"/t/{token[:6]}…" in logged


# --- the director's page ------------------------------------------------------------------------------


def test_the_director_issues_lists_withdraws_and_reissues_links(client, director, drawn, sk_assistant):
    page_url = reverse("tournament:schafkopf:links", args=[drawn.slug, 1])
    client.force_login(sk_assistant)
    assert client.get(page_url).status_code == 404
    assert client.post(page_url, {"action": "issue"}).status_code == 404
    client.force_login(director)
    page = client.get(page_url).content.decode()
    assert 'id="issue-links"' in page
    client.post(page_url, {"action": "issue"})
    links = list(drawn.table_links.order_by("table__number"))
    assert len(links) == 4
    page = client.get(page_url).content.decode()
    for link in links:
        assert table_url(token_of(link)) in page
    assert page.count("<svg") >= 4 and 'id="issue-links"' not in page
    client.post(page_url, {"action": "reissue", "link": links[0].pk})
    client.post(page_url, {"action": "revoke", "link": links[1].pk})
    page = client.get(page_url).content.decode()
    assert table_url(token_of(links[0])) not in page and table_url(token_of(links[1])) not in page
    assert drawn.table_links.filter(revoked_at__isnull=True).count() == 3
    response = client.post(page_url, {"action": "revoke", "link": links[1].pk})  # already withdrawn
    assert response.status_code == 404
    assert client.post(page_url, {"action": "revoke", "link": "x"}).status_code == 404
    assert client.get(reverse("tournament:schafkopf:links", args=[drawn.slug, 9])).status_code == 404


# --- the printed score list ---------------------------------------------------------------------------


def test_each_score_list_carries_its_own_tables_link_and_qr_code(drawn, links, settings, tmp_path):


    from documents import render
    from scoring.games.schafkopf.documents import documents

    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    data = render(documents(drawn)["score-lists-1"](), "pdf", tournament=drawn)
    (tmp_path / "lists.pdf").write_bytes(data)
    pages = [text.replace("\n", "") for text in page_texts(data)]
    assert len(pages) == 4
    for number, text in enumerate(pages, start=1):
        _link, token = links[(1, number)]
        assert f"http://192.168.1.20:8000/t/{token}/" in text
        others = [t for (r, n), (_l, t) in links.items() if (r, n) != (1, number)]
        assert not any(other in text for other in others)


# --- "Signal a problem" ---------------------------------------------------------------------------------


def test_a_table_signals_a_problem_the_round_page_shows_it_and_someone_closes_it(phone, links, client,
                                                                                 sk_assistant, director):
    from scoring.models import TableProblem

    link, token = links[(1, 2)]
    data = {"action": "problem", "kind": "missing_player", "note": "Seat 3 has not come back"}
    assert phone.post(table_url(token), data).status_code == 302
    phone.post(table_url(token), data)  # tapped twice: one problem
    problem = TableProblem.objects.get()
    assert problem.table == link.table and problem.link == link and problem.closed_at is None
    assert "Someone will come" in phone.get(table_url(token)).content.decode()
    assert phone.post(table_url(token), {"action": "problem", "kind": "nonsense"}).status_code == 302
    assert TableProblem.objects.count() == 1

    round_url = reverse("tournament:schafkopf:round", args=[link.tournament.slug, 1])
    client.force_login(sk_assistant)
    page = client.get(round_url).content.decode()
    assert 'id="table-problems"' in page and "A player is missing" in page and "Seat 3 has not come back" in page
    close = reverse("tournament:schafkopf:close_problem", args=[link.tournament.slug, 1, problem.pk])
    assert client.post(reverse("tournament:schafkopf:close_problem",
                               args=[link.tournament.slug, 2, problem.pk])).status_code == 404
    assert client.post(close).status_code == 302
    problem.refresh_from_db()
    assert problem.closed_by == sk_assistant and problem.closed_at is not None
    assert 'id="table-problems"' not in client.get(round_url).content.decode()


def test_a_withdrawn_link_cannot_signal_a_problem(phone, links, director):
    from scoring.models import TableProblem

    link, token = links[(1, 2)]
    revoke_link(link, by=director)
    response = phone.post(table_url(token), {"action": "problem", "kind": "dispute"})
    assert response.status_code == 403 and not TableProblem.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sent_list_is_said_once_in_each_language(phone, links, a_list, language):
    """After a send the page says so in one place: the note saying when it was sent, not a message repeating it."""
    _link, token = links[(1, 1)]
    said = said_after_sending(phone, table_url(token), grid_post(a_list(30, 4, seed=3)), language)
    assert said == [phone_notes(phone, table_url(token), "sent-note")[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_list_counted_at_once_is_said_once_in_each_language(phone, links, a_list, drawn, language):
    drawn.link_entries_count = True
    drawn.save()
    _link, token = links[(1, 1)]
    said = said_after_sending(phone, table_url(token), grid_post(a_list(30, 4, seed=3)), language)
    assert said == [phone_notes(phone, table_url(token), "counted")[language]]


def test_a_referee_entry_differing_from_the_tables_names_the_table_in_good_german(phone, links, a_list, director):
    """The referee table types the list the table sent from its phone, with a slip: the page says who made the
    first entry in a German sentence that holds together ("von dem Tisch", never "durch dem Tisch")."""
    from tests.schafkopf.test_views import grid_post as referee_grid_post

    link, token = links[(1, 1)]
    entries = a_list(30, 4, seed=3)
    assert phone.post(table_url(token), grid_post(entries)).status_code == 302
    typed = [dict(entry) for entry in entries]
    typed[6]["won"] = not typed[6]["won"]
    phone.force_login(director)
    sheet_url = reverse("tournament:schafkopf:sheet", args=[link.tournament.slug, 1, 1])
    page = phone.post(sheet_url, referee_grid_post(typed), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Die beiden Eingaben unterscheiden sich" in page
    assert "Ihre Eingabe weicht von der Ersterfassung ab (erfasst von dem Tisch über seinen Link)" in page
    assert "Ersterfassung (von dem Tisch über seinen Link)" in page
    assert "durch dem" not in page and "(über seinen Link))" not in page


def test_the_phones_draft_key_holds_the_links_hint_and_no_part_of_its_token(phone, links):
    link, token = links[(1, 2)]
    key = draft_key(phone.get(table_url(token)).content.decode())
    assert key == f"table-entry:t{link.table_id}:{link.hint}"
    assert not holds_part_of(key, token)
