"""Table-game pages: who may open them, and what entering hands, correcting and drawing through them does."""

import dataclasses
import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.games.tablegames import services
from scoring.games.tablegames.config import settings_of
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from scoring.seated.queries import seated_tables
from tournament.models import Draw
from tournament.services.publishing import set_publication

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_rummi  # noqa: F401

pytestmark = pytest.mark.django_db


def url(tournament, name, *args):
    return reverse(f"tournament:tablegames:{name}", args=[tournament.slug, *args])


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def hand_post(number, out, penalties, *, hand_rummi=False, version=0, **extra):
    """The sheet page's form with rummi hand `number` typed into the last row."""
    data = {"version": str(version), "action": "save", f"h{number}-out": str(out or ""), **extra}
    if hand_rummi:
        data[f"h{number}-hand_rummi"] = "on"
    data.update({f"h{number}-penalties-{seat}": typed for seat, typed in enumerate(penalties, start=1)})
    return data


DIRECTOR_PAGES = [("settings", ()), ("seating", ()), ("standings", ()),
                  ("standings_after", (1,)), ("printouts", ()), ("download", ("seating-by-name", "xlsx"))]
ENTRY_PAGES = [("overview", ()), ("round", (1,)), ("sheet", (1, 1))]


def test_a_player_withdrawn_after_the_draw_is_marked_on_the_round_and_the_sheet(drawn, director, client):
    """A player withdrawn mid-evening still sits at a later round's table (the seating is final): the round's list
    of tables and the sheet said nothing, and the director typed hands for a player who went home."""
    from tournament.models import Participant, Seat

    seat = Seat.objects.filter(table__round__stage__tournament=drawn, table__round__number=2,
                               table__number=1).select_related("participant").first()
    Participant.objects.filter(pk=seat.participant_id).update(status=Participant.Status.WITHDRAWN)
    client.force_login(director)
    marked = f"{seat.participant.name} <em>(Withdrawn)</em>"
    assert marked in text_of(client.get(url(drawn, "round", 2)))
    assert marked in text_of(client.get(url(drawn, "sheet", 2, 1)))


def test_the_seating_page_names_a_player_withdrawn_after_the_draw(drawn, director, client):
    """Withdrawn after the draw, before play: the desk said "the Seating page says what this change needs",
    and the table games' seating page said nothing, so the draw stayed with a seat for a player who went home."""
    from tournament.models import Participant
    from tournament.services.participants import set_participant_status

    from .helpers import enter_rummi_game

    set_participant_status(drawn.participants.get(number=5), Participant.Status.WITHDRAWN, by=director)
    client.force_login(director)
    page = " ".join(re.sub(r"<[^>]+>", "", text_of(client.get(url(drawn, "seating")))).split())
    # each of his seats is linked to its substitute page (table games have substitutes)
    assert re.search(r"Withdrawn but seated: 5 Ida5 Holm5 \(round 1, table \d, seat \d; round 2, table \d, seat \d; "
                     r"round 3, table \d, seat \d\)\. Redo the draw without them\.", page)
    enter_rummi_game(seated_tables(drawn)[1][0], director)  # play has started: the draw can no longer be redone
    page = " ".join(re.sub(r"<[^>]+>", "", text_of(client.get(url(drawn, "seating")))).split())
    assert "Withdrawn but seated" not in page
    # his seats stay empty (a smaller table) unless a substitute takes them
    assert "Withdrawn, their seats empty: 5 Ida5 Holm5 (round " in page
    assert "Each table plays without them (a smaller table) unless a substitute takes the seat." in page


def test_find_my_seat_says_a_player_withdrew_and_shows_the_rounds_he_played(drawn, director):
    """Withdrawn after round 1, a player looking himself up was shown his seats of rounds 2 and 3, which he
    will not take; withdrawn before play, "No seat yet: the seating has not been drawn, or you are not on it".
    It says he is withdrawn, and shows the rounds he played."""
    from django.template.loader import render_to_string

    from scoring.games.tablegames.public import public
    from tournament.models import Participant
    from tournament.services.participants import set_participant_status

    from .helpers import enter_rummi_game

    def found(query):
        (section,) = public(drawn).find(query).sections
        return section.data, " ".join(render_to_string(section.template, {"data": section.data}).split())

    player = Participant.objects.get(tournament=drawn, number=5)
    set_participant_status(player, Participant.Status.WITHDRAWN, by=director)
    data, text = found("5")
    assert data["rounds"] == [] and "Withdrawn: no seat to play." in text and "No seat yet" not in text
    (table,) = [t for t in seated_tables(drawn)[1] if player.pk in {s.participant_id for s in t.seats}]
    enter_rummi_game(table, director)
    data, text = found("5")
    assert [place["round"] for place in data["rounds"]] == [1] and data["rounds"][0]["table"] == table.number
    assert "Withdrawn: no further rounds to play. The rounds played:" in text
    # an active player still sees every round
    data, text = found("6")
    assert [place["round"] for place in data["rounds"]] == [1, 2, 3] and "Withdrawn" not in text


def test_the_patience_game_is_not_named_after_one_of_its_six_patiences(director, client):
    """In Danish the game in *New tournament* read "Almindelig dominokabal", the name of the first of the six
    patiences: the game and that patience shared one message. The game is "Dominokabal"; the patience keeps its
    name."""
    from scoring.games.tablegames.family import game_by_key
    from scoring.rules.domino import PATIENCE_NAMES

    with translation.override("da"):
        assert str(game_by_key("domino_patience").name) == "Dominokabal"
        assert translation.gettext(PATIENCE_NAMES["kabal"]) == "Almindelig dominokabal"
    client.force_login(director)
    client.cookies["django_language"] = "da"
    page = text_of(client.get(reverse("tournament:create")))
    assert ">Dominokabal<" in page and ">Almindelig dominokabal<" not in page


@pytest.mark.parametrize(("name", "args"), DIRECTOR_PAGES + ENTRY_PAGES)
def test_who_may_open_which_page(drawn, tg_assistant, make_director, director, client, name, args):
    target = url(drawn, name, *args)
    response = client.get(target)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("other"))
    assert client.get(target).status_code == 404, "a director of another tournament does not even see it"
    client.force_login(tg_assistant)
    assert client.get(target).status_code == (200 if (name, args) in ENTRY_PAGES else 404)
    client.force_login(director)
    assert client.get(target).status_code == 200


def test_an_assistant_cannot_draw_or_change_settings(drawn, tg_assistant, client):
    client.force_login(tg_assistant)
    assert client.post(url(drawn, "seating"), {"seed": "5"}).status_code == 404
    assert client.post(url(drawn, "settings"), {"rounds": "1"}).status_code == 404
    assert Draw.objects.get(tournament=drawn, kind=Draw.Kind.SEATING).seed == 7
    assert settings_of(drawn).rounds == 3


def test_pages_of_another_game_are_not_found(tournament, director, client):
    client.force_login(director)
    assert client.get(url(tournament, "overview")).status_code == 404  # `tournament` is a Voms tournament


@pytest.mark.parametrize("key", ["domino", "domino_patience", "rummi", "quadominos"])
def test_every_table_game_offers_its_menu_and_pages(make_game, add_players, director, client, key):
    game = make_game(key)
    add_players(game, 8)
    client.force_login(director)
    assert client.post(url(game, "seating"), {"seed": "3"}).status_code == 302
    page = client.get(reverse("tournament:detail", args=[game.slug])).content.decode()
    assert url(game, "seating") in page and url(game, "standings") in page
    for name, args in [("overview", ()), ("settings", ()), ("seating", ()), ("sheet", (1, 1)), ("standings", ()),
                       ("printouts", ())]:
        assert client.get(url(game, name, *args)).status_code == 200, name


# --- entering hands through the page -----------------------------------------------------------------------------


def test_a_hand_typed_with_cards_is_saved_as_typed(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    response = client.post(target, hand_post(1, 1, ["0", "K Q 7 JOKER A", "58", "k  q"]))
    assert response.status_code == 302 and response["Location"] == target
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.entries == [{"out": 1, "hand_rummi": False,
                              "penalties": {"1": "0", "2": "K Q 7 JOKER A", "3": "58", "4": "k q"}}]
    assert sheet.derived["totals"] == {"1": 0, "2": 58, "3": 58, "4": 20}
    page = text_of(client.get(target))
    assert 'value="K Q 7 JOKER A"' in page and 'name="h2-out"' in page, "hand 2 waits in the last row"


def test_an_assistant_adds_the_next_hand_and_sees_the_earlier_ones_read_only(drawn, director, tg_assistant, client):
    client.force_login(tg_assistant)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "5", "5", "5"]))
    page = text_of(client.get(target))
    assert 'name="h1-out"' not in page and 'name="h2-out"' in page
    # Whatever an assistant posts for hand 1 is ignored: only the new hand counts.
    response = client.post(target, {**hand_post(2, 2, ["9", "0", "9", "9"], version=1), "h1-penalties-2": "50"})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.derived["totals"] == {"1": 9, "2": 5, "3": 14, "4": 14} and not sheet.corrected


def test_a_refused_hand_keeps_what_was_typed_with_the_rules_message(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    with translation.override("en"):
        response = client.post(target, hand_post(1, 1, ["K", "5", "5", "5"]))
    page = text_of(response)
    assert response.status_code == 200
    assert "went out, so their penalty must be 0, not 10" in page
    assert 'class="tg-row tg-bad tg-new"' in page and 'name="h1-penalties-1" value="K"' in page
    assert not ScoreSheet.objects.exists()


def test_unreadable_fields_are_marked_and_nothing_is_saved(domino_of_four, director, client):
    domino = domino_of_four
    client.force_login(director)
    data = {"version": "0", "h1-out": "9", "h1-pips-1": "0", "h1-pips-2": "abc", "h1-pips-3": "4", "h1-pips-4": "2"}
    page = text_of(client.post(url(domino, "sheet", 1, 1), data))
    assert "type the seat number of a player of this table (1, 2, 3, 4), not “9”" in page
    assert "“abc” is not a whole number" in page
    assert not ScoreSheet.objects.exists()


def test_a_director_corrects_an_earlier_hand_with_a_reason(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "5", "5", "5"]))
    changed = {**hand_post(2, "", ["", "", "", ""], version=1), "h1-out": "1", "h1-penalties-1": "0",
               "h1-penalties-2": "15", "h1-penalties-3": "5", "h1-penalties-4": "5"}
    page = text_of(client.post(target, changed))
    assert "Say why the sheet is corrected." in page
    assert client.post(target, {**changed, "reason": "misread"}).status_code == 302
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.corrected and sheet.derived["totals"]["2"] == 15


def test_a_correction_without_reason_focuses_the_reason_and_a_refused_one_keeps_it(drawn, director, client):
    """"Say why the sheet is corrected." puts the focus on the reason (it was on the next hand's first field, where
    the reason got typed), and a correction refused for another cause keeps the reason typed."""
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "5", "5", "5"]))
    changed = {**hand_post(2, "", ["", "", "", ""], version=1), "h1-out": "1", "h1-penalties-1": "0",
               "h1-penalties-2": "15", "h1-penalties-3": "5", "h1-penalties-4": "5"}
    page = text_of(client.post(target, changed))
    assert "Say why the sheet is corrected." in page
    assert re.findall(r"<input[^>]*autofocus[^>]*>", page) == re.findall(r'<input id="tg-reason"[^>]*>', page)
    refused = text_of(client.post(target, {**changed, "h1-penalties-1": "K", "reason": "misread"}))
    assert "went out, so their penalty must be 0, not 10" in refused
    assert re.search(r'<input id="tg-reason"[^>]*value="misread"', refused)


def test_adding_a_hand_as_director_is_no_correction(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "K Q", "5", "5"]))
    # The page shows hand 1 again in its inputs; posting it back unchanged only appends hand 2.
    again = {**hand_post(2, 2, ["3", "0", "3", "3"], version=1), "h1-out": "1", "h1-penalties-1": "0",
             "h1-penalties-2": "K Q", "h1-penalties-3": "5", "h1-penalties-4": "5"}
    assert client.post(target, again).status_code == 302
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=1)
    assert len(sheet.entries) == 2 and not sheet.corrected


def test_the_end_of_the_game_is_announced_with_the_next_table(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "90", "90", "80"]))
    client.post(target, hand_post(2, 2, ["100", "0", "200", "80"], version=1))
    page = text_of(client.get(target))
    assert "Game over after 2 hands" in page and "wins" in page
    assert url(drawn, "sheet", 1, 2) in page and 'name="h3-out"' not in page


def test_time_is_up_ends_the_game(drawn, director, tg_assistant, client):
    client.force_login(tg_assistant)
    target = url(drawn, "sheet", 1, 2)
    client.post(target, hand_post(1, 3, ["20", "10", "0", "10"]))
    asked = client.post(target, {"version": "1", "action": "end"})
    assert asked.status_code == 200 and "End the game of table 2 here?" in text_of(asked)
    assert not ScoreSheet.objects.get(table__round__number=1, table__number=2).derived["finished"]
    assert client.post(target, {"version": "1", "action": "end", "confirmed": "1"}).status_code == 302
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=2)
    assert sheet.derived["finished"] and sheet.derived["ended_early"]
    assert "Game ended after 1 hand (time is up)" in text_of(client.get(target))


def test_a_patience_list_takes_the_results_as_they_come(make_game, add_players, director, client):
    patience = make_game("domino_patience", "knock_out")
    add_players(patience, 3)
    client.force_login(director)
    client.post(url(patience, "seating"), {})
    assert client.get(url(patience, "round", 1))["Location"] == url(patience, "sheet", 1, 1)
    target = url(patience, "sheet", 1, 1)
    assert client.post(target, {"version": "0", "r2-tiles_left": "4"}).status_code == 302
    response = client.post(target, {"version": "1", "r2-tiles_left": "4", "r1-tiles_left": "0",
                                    "r3-tiles_left": "x"})
    assert "“x” is not a whole number" in text_of(response)
    client.post(target, {"version": "1", "r2-tiles_left": "4", "r1-tiles_left": "0", "r3-tiles_left": "29"})
    assert "cannot have 29 tiles left" in text_of(client.post(target, {
        "version": "1", "r2-tiles_left": "4", "r1-tiles_left": "0", "r3-tiles_left": "29"}))
    client.post(target, {"version": "1", "r2-tiles_left": "4", "r1-tiles_left": "0", "r3-tiles_left": "2"})
    sheet = ScoreSheet.objects.get(table__round__stage__tournament=patience)
    assert [row["seat"] for row in sheet.entries] == [2, 1, 3] and sheet.derived["finished"]
    assert not sheet.corrected
    assert "Every result is in" in text_of(client.get(target))


# --- settings and seating ------------------------------------------------------------------------------------------


def test_settings_show_every_number_and_save_them(rummi, director, client):
    client.force_login(director)
    page = text_of(client.get(url(rummi, "settings")))
    for label in ("Penalty total that ends the game", "Joker left in hand", "Ace", "Cards dealt to each player"):
        assert label in page
    form = {"rounds": "4", "table_sizes": "4, 3", "rule_joker_points": "20", "rule_joker_in_hand_points": "40",
            "rule_face_card_points": "10", "rule_ace_points": "11", "rule_cards_each": "13", "rule_limit": "300",
            "rule_max_rounds": "", "rule_joker_in_hand_variant": "on"}
    assert client.post(url(rummi, "settings"), form).status_code == 302
    rummi.refresh_from_db()
    settings = settings_of(rummi)
    assert settings.rounds == 4 and settings.rules.limit == 300 and settings.rules.joker_penalty == 40


def test_choosing_another_variant_starts_from_its_defaults(make_game, director, client):
    domino = make_game("domino")
    client.force_login(director)
    form = {"variant": "to_ens", "rounds": "3", "table_sizes": "4, 3", "rule_target": "999",
            "rule_tiles_each": "2: 5, 3: 5, 4: 5", "rule_max_pips_per_tile": "12", "rule_draw_from_boneyard": "on"}
    assert client.post(url(domino, "settings"), form).status_code == 302
    domino.refresh_from_db()
    settings = settings_of(domino)
    assert settings.variant == "to_ens" and settings.rules.target == 15 and dict(settings.rules.tiles_each)[4] == 6


def test_unreadable_table_sizes_and_deals_are_refused(rummi, director, client):
    client.force_login(director)
    form = {"rounds": "3", "table_sizes": "four", "rule_joker_points": "20", "rule_joker_in_hand_points": "40",
            "rule_face_card_points": "10", "rule_ace_points": "11", "rule_cards_each": "13", "rule_limit": "250"}
    page = text_of(client.post(url(rummi, "settings"), form))
    assert "Write the table sizes as numbers" in page
    rummi.refresh_from_db()
    assert settings_of(rummi).table_sizes == (4, 3)


def test_the_seating_page_draws_and_shows_the_tables(rummi, add_players, director, client):
    add_players(rummi, 8)
    client.force_login(director)
    assert client.post(url(rummi, "seating"), {"seed": "42"}).status_code == 302
    page = text_of(client.get(url(rummi, "seating")))
    assert "Drawn with seed" in page and "42" in page and "Table 2" in page
    assert len(seated_tables(rummi)) == 3


def test_standings_page_marks_the_lot(make_game, add_players, director, client):
    quad = make_game("quadominos", rounds=1, max_rounds=1)
    add_players(quad, 4)
    seated_services.draw_seating(quad, by=director, seed=1)
    row = {"turn_points": {"1": 50, "2": 50, "3": 10, "4": 5}, "winner": None,
           "remaining": {"1": 0, "2": 0, "3": 0, "4": 0}}
    services.enter_sheet(seated_tables(quad)[1][0].seats[0].table, by=director, entries=[row])
    client.force_login(director)
    page = text_of(client.get(url(quad, "standings")))
    assert page.count("by lot") >= 2 and "seated-decided" in page
    for title in ("Tournament points", "Game score", "Lot"):
        assert title in page


def test_published_pages_show_seating_standings_and_results(drawn, director, client):
    table = seated_tables(drawn)[1][0]
    services.enter_sheet(table.seats[0].table, by=director,
                         entries=[{"out": 1, "hand_rummi": False, "penalties": {"1": "0", "2": "250", "3": "9",
                                                                                 "4": "9"}}])
    set_publication(drawn, by=director, kinds=["schedule", "standings", "results"])
    name = table.seats[0].participant.name
    for page in ("schedule", "standings", "results"):
        response = client.get(reverse(f"public:{page}", args=[drawn.slug]))
        assert response.status_code == 200 and name in text_of(response), page
    found = text_of(client.get(reverse("public:seat", args=[drawn.slug]), {"q": name}))
    assert "Table" in found and name in found


def test_ending_a_finished_game_from_an_old_page_is_refused_and_a_director_can_reopen(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 3)
    client.post(target, hand_post(1, 1, ["0", "200", "5", "5"]))
    client.post(target, hand_post(2, 1, ["0", "60", "5", "5"], version=1))
    page = text_of(client.post(target, {"version": "2", "action": "end", "confirmed": "1"}))
    assert "it needs no end" in page
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=3)
    assert sheet.version == 2 and sheet.derived["finished"] and not sheet.derived["ended_early"]

    other = url(drawn, "sheet", 1, 2)
    client.post(other, hand_post(1, 1, ["0", "20", "5", "5"]))
    client.post(other, {"version": "1", "action": "end", "confirmed": "1"})
    assert "Say why" in text_of(client.post(other, {"version": "2", "action": "reopen"}))
    assert client.post(other, {"version": "2", "action": "reopen", "reason": "ended by mistake"}).status_code == 302
    sheet = ScoreSheet.objects.get(table__round__number=1, table__number=2)
    assert not sheet.derived["finished"] and sheet.corrected and len(sheet.entries) == 1


def test_a_malformed_version_is_a_conflict_not_a_server_error(drawn, director, client):
    client.force_login(director)
    target = url(drawn, "sheet", 1, 1)
    client.post(target, hand_post(1, 1, ["0", "5", "5", "5"]))
    response = client.post(target, hand_post(2, 2, ["5", "0", "5", "5"], version="x"))
    assert response.status_code == 200 and "Someone else saved this sheet" in text_of(response)
    assert ScoreSheet.objects.get(table__round__number=1, table__number=1).version == 1


@pytest.mark.parametrize(("name", "args"), [("round", (1,)), ("sheet", (1, 1)), ("board", ())])
def test_pages_with_htmx_tell_it_not_to_add_an_inline_style(drawn, director, client, name, args):
    # htmx's indicator <style> broke the Content-Security-Policy: the browser logged an error on every entry page
    client.force_login(director)
    page = client.get(url(drawn, name, *args)).content.decode()
    assert "vendor/htmx/htmx.min.js" in page
    config = page.split('<meta name="htmx-config" content=\'', 1)[1].split("'", 1)[0]
    assert '"includeIndicatorStyles": false' in config and '"allowEval": false' in config
    assert page.index('name="htmx-config"') < page.index("vendor/htmx/htmx.min.js")


@pytest.mark.parametrize(("language", "said"), [("en", "No field yet: 5 players are registered"),
                                                ("de", "Noch kein Teilnehmerfeld: 5 Spieler sind angemeldet")])
def test_a_patience_without_its_field_invites_to_set_the_field_not_to_draw_seats(make_game, add_players, director,
                                                                                  client, language, said):
    # the page said "No seating yet ... draw the seating below" above a button "Set the field"
    patience = make_game("domino_patience")
    add_players(patience, 5)
    client.force_login(director)
    client.cookies["django_language"] = language
    page = text_of(client.get(url(patience, "seating")))
    assert 'id="seating-invitation"' in page and said in page
    assert "No seating yet" not in page and "draw the seating" not in page


def test_a_patience_deal_has_no_still_missing_box_about_tables(make_game, add_players, director, client):
    # the results list of a deal showed "Still missing in round 1 · Not entered (1 table): Table 1" under itself
    patience = make_game("domino_patience")
    add_players(patience, 5)
    seated_services.draw_seating(patience, by=director)
    client.force_login(director)
    page = text_of(client.get(url(patience, "sheet", 1, 1)))
    assert "0 of 5 results entered." in page
    assert "Still missing" not in page and "Table 1" not in page


@pytest.fixture
def timed_patience(make_game, add_players, director):
    patience = make_game("domino_patience")
    seated_services.update_settings(patience, dataclasses.replace(settings_of(patience), finish_time=True), by=director)
    add_players(patience, 4)
    seated_services.draw_seating(patience, by=director)
    return patience


def test_a_patience_result_without_its_finish_time_asks_for_it_there(timed_patience, director, client):
    # it said "“” is not a time" and put the focus into the tiles of the row
    client.force_login(director)
    data = {"version": "0", "r1-tiles_left": "0", "r1-finish_time": "41:10", "r2-tiles_left": "3"}
    page = text_of(client.post(url(timed_patience, "sheet", 1, 1), data))
    assert "Enter the finish time too" in page and "“” is not a time" not in page
    assert "autofocus" in re.search(r'<input name="r2-finish_time"[^>]*>', page)[0]
    assert "autofocus" not in re.search(r'<input name="r2-tiles_left"[^>]*>', page)[0]


@pytest.mark.parametrize("typed", ["99:99", "41:60", "1:60:00", "1:05:75"])
def test_a_finish_time_with_60_or_more_seconds_or_minutes_is_refused(timed_patience, director, client, typed):
    """"99:99" was taken as 100 minutes 39 seconds and ranked the player; a time has at most 59 seconds (and 59
    minutes after the hours)."""
    client.force_login(director)
    data = {"version": "0", "r1-tiles_left": "2", "r1-finish_time": typed}
    page = text_of(client.post(url(timed_patience, "sheet", 1, 1), data))
    assert f"“{typed}” is not a time" in page
    assert not ScoreSheet.objects.filter(table__round__stage__tournament=timed_patience).exists()


def test_a_refused_patience_list_counts_only_the_results_saved(timed_patience, director, client):
    """A list refused for one missing finish time said "2 of 4 results entered." although nothing was saved."""
    client.force_login(director)
    data = {"version": "0", "r1-tiles_left": "0", "r1-finish_time": "41:10", "r2-tiles_left": "3",
            "r3-tiles_left": "1", "r3-finish_time": "45"}
    page = text_of(client.post(url(timed_patience, "sheet", 1, 1), data))
    assert "Enter the finish time too" in page and "0 of 4 results entered." in page


def test_a_patience_correction_without_reason_focuses_the_reason_and_keeps_it(timed_patience, director, client):
    """As on a sheet of hands: "Say why the sheet is corrected." puts the focus on the reason, and a correction
    refused for another cause keeps the reason typed."""
    client.force_login(director)
    target = url(timed_patience, "sheet", 1, 1)
    client.post(target, {"version": "0", "r1-tiles_left": "0", "r1-finish_time": "41:10"})
    changed = {"version": "1", "r1-tiles_left": "0", "r1-finish_time": "42:10"}
    page = text_of(client.post(target, changed))
    assert "Say why the sheet is corrected." in page
    assert re.findall(r"<input[^>]*autofocus[^>]*>", page) == re.findall(r'<input id="tg-reason"[^>]*>', page)
    refused = text_of(client.post(target, {**changed, "r1-finish_time": "42:99", "reason": "misread"}))
    assert "“42:99” is not a time" in refused
    assert re.search(r'<input id="tg-reason"[^>]*value="misread"', refused)


def test_a_complete_deal_leads_to_the_next_deal_then_to_the_standings(make_game, add_players, director, client):
    """Once every result of a deal is in, the page said so and nothing else: the next deal (after the last one the
    standings) is offered with the focus, as the next table is on a sheet of hands."""
    patience = make_game("domino_patience", rounds=2)
    add_players(patience, 3)
    seated_services.draw_seating(patience, by=director)
    client.force_login(director)
    every = {"r1-tiles_left": "0", "r2-tiles_left": "3", "r3-tiles_left": "1"}
    for deal, target in ((1, url(patience, "sheet", 2, 1)), (2, url(patience, "standings"))):
        client.post(url(patience, "sheet", deal, 1), {"version": "0", **every})
        page = text_of(client.get(url(patience, "sheet", deal, 1)))
        assert "Every result is in" in page
        assert re.findall(r"<[^>]*autofocus[^>]*>", page) == [f'<a class="button" href="{target}" id="tg-next" '
                                                              f'autofocus>']


def test_a_patience_list_opened_again_puts_the_focus_on_the_first_player_without_a_result(timed_patience, director,
                                                                                         client):
    client.force_login(director)
    data = {"version": "0", "r1-tiles_left": "0", "r1-finish_time": "41:10", "r2-tiles_left": "3",
            "r2-finish_time": "44", "r4-tiles_left": "1", "r4-finish_time": "50"}
    assert client.post(url(timed_patience, "sheet", 1, 1), data).status_code == 302
    page = text_of(client.get(url(timed_patience, "sheet", 1, 1)))
    assert "autofocus" in re.search(r'<input name="r3-tiles_left"[^>]*>', page)[0]
    assert page.count("autofocus") == 1


@pytest.mark.parametrize(("language", "heading", "missing"), [
    ("en", "Provisional — after 0 of 1 deal", "Results still missing in: Deal 1"),
    ("da", "Foreløbig — efter 0 af 1 kabale", "Resultater mangler stadig i: Kabale 1"),
])
def test_a_patiences_provisional_standings_count_deals_not_sheets(timed_patience, director, client, language,
                                                                  heading, missing):
    # "Provisional — after 0 of 1 sheet" and "Games not finished yet (round/table): 1/1" for a game of deals
    client.force_login(director)
    client.cookies["django_language"] = language
    page = re.sub(r"<[^>]+>", "", text_of(client.get(url(timed_patience, "standings"))))
    assert heading in page and missing in page and "1/1" not in page


def test_a_patience_first_entry_awaiting_confirmation_is_not_called_final(make_game, add_players, director, client,
                                                                         django_user_model):
    """Double entry: all results of a deal typed once are a first entry, not final places. The page said "Every
    result is in: the places are final." and put the focus on the next deal while the list counted nowhere yet."""
    from tournament.models import Role, TournamentRole

    patience = make_game("domino_patience", "knock_out")
    add_players(patience, 3)
    patience.double_entry = True
    patience.save()
    seated_services.draw_seating(patience, by=director)
    helper = django_user_model.objects.create_user(username="typist", password="pw-typist-Secret-1")
    TournamentRole.objects.create(tournament=patience, user=helper, role=Role.ASSISTANT)
    target = url(patience, "sheet", 1, 1)
    client.force_login(helper)
    client.post(target, {"version": "0", "r1-tiles_left": "0", "r2-tiles_left": "4", "r3-tiles_left": "2"})
    assert not ScoreSheet.objects.filter(table__round__stage__tournament=patience).exists()
    mine = text_of(client.get(target))
    assert "the places are final" not in mine and "once a second person confirms the results" in mine
    client.force_login(director)
    page = text_of(client.get(target))
    assert "the places are final" not in page and "Confirm the first entry" in page
    assert 'id="tg-next" autofocus' not in page
    client.post(target, {"action": "confirm"})
    assert "Every result is in: the places are final." in text_of(client.get(target))
