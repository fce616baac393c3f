"""Schafkopf pages: who may open them, and what entering, correcting and importing through them does."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.games.schafkopf import services
from scoring.games.schafkopf.forms import grid_values
from scoring.models import ScoreSheet
from scoring.seated import services as seated_services
from tournament.models import Draw, Round, Seat, Table

from .drawn_once import built_drawn, drawn_world, once_director, once_drawn, once_schafkopf  # noqa: F401

pytestmark = pytest.mark.django_db

TOUT_IN_GAME_ONE = "No tout may be played in the first game of a round: correct the game."


def url(tournament, name, *args):
    return reverse(f"tournament:schafkopf:{name}", args=[tournament.slug, *args])


def grid_post(entries, **extra):
    data = {"mode": "games", "version": "0", **extra}
    for number, entry in enumerate(entries, start=1):
        data.update({f"{key}{number}": value for key, value in grid_values(entry).items()})
    return data


DIRECTOR_PAGES = [("settings", ()), ("seating", ()), ("standings", ()), ("printouts", ()),
                  ("download", ("ranking", "pdf"))]
ENTRY_PAGES = [("overview", ()), ("round", (1,)), ("sheet", (1, 1))]


@pytest.mark.parametrize("name,args", DIRECTOR_PAGES + ENTRY_PAGES)
def test_who_may_open_which_page(drawn, sk_assistant, make_director, client, name, args):
    target = url(drawn, name, *args)
    response = client.get(target)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("other"))
    assert client.get(target).status_code == 404
    client.force_login(sk_assistant)
    assert client.get(target).status_code == (200 if (name, args) in ENTRY_PAGES else 404)


def test_assistant_cannot_post_director_actions(drawn, sk_assistant, client):
    client.force_login(sk_assistant)
    assert client.post(url(drawn, "seating"), {"seed": "5"}).status_code == 404
    assert client.post(url(drawn, "start"), {"round": "1"}).status_code == 404
    assert Draw.objects.get(tournament=drawn, kind=Draw.Kind.SEATING).seed == 7
    assert Round.objects.get(stage__tournament=drawn, number=1).starts_at is None


def test_pages_of_another_game_are_not_found(tournament, director, client):
    client.force_login(director)
    assert client.get(url(tournament, "overview")).status_code == 404  # `tournament` is a Voms tournament


def test_the_tournament_page_offers_the_schafkopf_menu(drawn, director, client):
    client.force_login(director)
    page = client.get(reverse("tournament:detail", args=[drawn.slug])).content.decode()
    assert url(drawn, "seating") in page and url(drawn, "standings") in page


def test_entering_a_list_goes_on_to_the_next_table(drawn, director, client, a_list):
    client.force_login(director)
    entries = a_list()
    assert client.get(url(drawn, "sheet", 1, 1)).status_code == 200
    response = client.post(url(drawn, "sheet", 1, 1), grid_post(entries))
    assert response.status_code == 302 and response["Location"] == url(drawn, "sheet", 1, 2)
    sheet = ScoreSheet.objects.get(table__number=1, table__round__number=1)
    assert sheet.entries == entries and sheet.entered_by == director


def test_a_refused_list_shows_the_rows_and_saves_nothing(drawn, director, client, a_list):
    client.force_login(director)
    entries = a_list()
    entries[0] = {**entries[0], "game_type": "wenz", "partner": None, "tout": True, "tout_initials": "MH"}
    entries[4] = {**entries[4], "game_type": "ruf", "partner": entries[4]["declarer"]}
    with translation.override("de"):
        response = client.post(url(drawn, "sheet", 1, 1), grid_post(entries), HTTP_ACCEPT_LANGUAGE="de")
        tout = translation.gettext(TOUT_IN_GAME_ONE)
        partner = translation.gettext("The declarer cannot be his own partner: enter the seat of the called partner.")
    assert response.status_code == 200
    page = response.content.decode()
    assert tout != TOUT_IN_GAME_ONE, "the German catalogue translates the rules' messages"
    assert tout in page and partner in page
    assert page.count('class="sk-row sk-bad"') == 2
    assert not ScoreSheet.objects.exists()


def test_unreadable_fields_are_marked(drawn, director, client, a_list):
    client.force_login(director)
    data = grid_post(a_list())
    data.update({"t3": "Q", "r7": "x"})
    del data["d30"]
    response = client.post(url(drawn, "sheet", 1, 1), data)
    page = response.content.decode()
    assert page.count('aria-invalid="true"') == 3
    assert "Type R, S, W or F." in page
    assert not ScoreSheet.objects.exists()


def test_totals_only_through_the_page(drawn, director, client):
    client.force_login(director)
    data = {"mode": "totals", "version": "0", "total1": "12", "total2": "-2", "total3": "-4", "total4": "-7",
            "solo_played1": "2", "solo_won1": "1"}
    response = client.post(url(drawn, "sheet", 1, 1), data)
    assert "add up to -1 instead of 0" in response.content.decode()
    data["total4"] = "-6"
    assert client.post(url(drawn, "sheet", 1, 1), data).status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.mode == "totals" and sheet.derived["counts"]["1"]["solo_won"] == 1


def test_assistant_sees_an_entered_list_read_only(drawn, director, sk_assistant, client, a_list):
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    services.enter_sheet(table, by=director, mode="games", entries=a_list())
    client.force_login(sk_assistant)
    page = client.get(url(drawn, "sheet", 1, 1)).content.decode()
    assert "Only a director can correct it." in page and 'id="sk-save"' not in page
    response = client.post(url(drawn, "sheet", 1, 1), grid_post(a_list(seed=5), version="1"))
    assert "only a director can correct it" in response.content.decode()
    assert ScoreSheet.objects.get().version == 1


def test_director_corrects_with_a_reason_and_the_history_shows_it(drawn, director, client, a_list):
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    services.enter_sheet(table, by=director, mode="games", entries=a_list())
    client.force_login(director)
    changed = a_list()
    changed[6] = {**changed[6], "won": not changed[6]["won"]}
    response = client.post(url(drawn, "sheet", 1, 1), grid_post(changed, version="1"))
    assert response.status_code == 200 and "Say why the sheet is corrected." in response.content.decode()
    response = client.post(url(drawn, "sheet", 1, 1), grid_post(changed, version="1", reason="game 7 was lost"))
    assert response.status_code == 302
    assert ScoreSheet.objects.get().corrected
    assert "corrected" in client.get(url(drawn, "round", 1)).content.decode()
    history = client.get(url(drawn, "history", 1, 1)).content.decode()
    assert "game 7 was lost" in history and "Game 7:" in history and director.username in history
    standings_page = client.get(url(drawn, "standings")).content.decode()
    assert "list corrected" in standings_page


def test_a_stale_version_shows_both_versions(drawn, director, client, a_list):
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    saved = a_list()
    services.enter_sheet(table, by=director, mode="games", entries=saved)
    mine = a_list()
    mine[2] = {**mine[2], "won": not mine[2]["won"]}
    client.force_login(director)
    response = client.post(url(drawn, "sheet", 1, 1), grid_post(mine, version="0", reason="typed again"))
    page = response.content.decode()
    assert response.status_code == 200 and "Two versions" in page
    assert "Saved meanwhile by director" in page
    assert 'name="version" value="1"' in page
    assert ScoreSheet.objects.get().entries == saved


def test_settings_page_saves_and_refuses_nonsense(schafkopf, director, client):
    client.force_login(director)
    data = {"rounds": "3", "games_per_round": "16", "games_at_five": "21", "separate_clubs": "on",
            "tariff_preset": "scale_15_5", "tariff_name": "15/5", "ruf": "1", "ruf_schneider": "2",
            "ruf_schwarz": "3", "solo": "5", "solo_schneider": "6", "solo_schwarz": "7", "tout": "14",
            "laufende_from": "3", "laufende_value": "1", "entry_fee": "12.50", "prizes": "30%\n20 %\n50"}
    response = client.post(url(schafkopf, "settings"), data)
    assert "multiple of 5" in response.content.decode()
    data["games_at_five"] = "20"
    assert client.post(url(schafkopf, "settings"), data).status_code == 302
    schafkopf.refresh_from_db()
    stored = schafkopf.settings
    assert stored["rounds"] == 3 and stored["tariff"]["tout"] == 14 and stored["tariff"]["laufende_from"] == 3
    assert stored["prizes"] == [{"kind": "percent", "value": "30"}, {"kind": "percent", "value": "20"},
                                {"kind": "fixed", "value": "50"}]


def test_draw_start_and_substitute_through_the_pages(schafkopf, director, client, add_players):
    add_players(schafkopf, 16)
    client.force_login(director)
    assert client.post(url(schafkopf, "seating"), {"seed": "42"}).status_code == 302
    assert Draw.objects.get(tournament=schafkopf, kind=Draw.Kind.SEATING).seed == 42
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "42" in page and "Redo the draw" in page
    client.post(url(schafkopf, "start"), {"round": "1"})
    page = client.get(url(schafkopf, "seating")).content.decode()
    assert "Redo the draw" not in page
    (late,) = add_players(schafkopf, 1, start=99)
    seat = Seat.objects.filter(table__round__stage__tournament=schafkopf).first()
    response = client.post(url(schafkopf, "substitute", seat.pk), {"substitute": late.pk, "reason": "ill"})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.substitute == late and not seat.points_to_substitute


def test_too_few_players_to_seat_says_what_to_do(schafkopf, director, client, add_players):
    add_players(schafkopf, 7)
    client.force_login(director)
    page = client.post(url(schafkopf, "seating"), {}).content.decode()
    assert "7 players cannot be seated" in page and "Add 1 player(s) to have 8" in page


def test_totals_form_starts_from_the_entered_list(drawn, director, client, a_list):
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    sheet = services.enter_sheet(table, by=director, mode="games", entries=a_list())
    client.force_login(director)
    page = client.get(url(drawn, "sheet", 1, 1) + "?mode=totals").content.decode()
    assert "Enter a whole number." not in page
    for seat, total in sheet.derived["totals"].items():
        assert f'name="total{seat}" value="{total}"' in page
    blank = client.get(url(drawn, "sheet", 1, 2) + "?mode=totals").content.decode()
    assert 'name="total1" value=""' in blank and "Enter a whole number." not in blank


def test_the_standings_page_shows_a_new_list_at_once(drawn, director, client, a_list):
    client.force_login(director)
    assert "Provisional — after 0 of 8 score lists" in client.get(url(drawn, "standings")).content.decode()
    table = Table.objects.get(round__stage__tournament=drawn, round__number=1, number=1)
    services.enter_sheet(table, by=director, mode="games", entries=a_list())
    assert "Provisional — after 1 of 8 score lists" in client.get(url(drawn, "standings")).content.decode()


def test_a_finished_evening_is_not_called_running_in_german(drawn, director, client, enter_all):
    """Every list is in, the tournament is finished: the overview and the seating page say that play has started
    (the seating is final), not "Das Turnier läuft" (the tournament is running)."""
    enter_all(drawn)
    drawn.refresh_from_db()
    assert drawn.status == "finished"
    client.force_login(director)
    for name in ("overview", "seating"):
        page = client.get(url(drawn, name), HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert "Das Spiel hat begonnen: Die Sitzordnung steht fest." in page, name
        assert "Das Turnier läuft" not in page, name


def test_the_referee_table_sees_who_plays_a_seat_for_a_player_who_dropped_out(drawn, director, client, add_players):
    """A substitute plays seat 2 of table 1: the round's list of tables and the list's entry page (both ways) name
    him beside the seat's player, as the table's phone and the seating page do; the referee table is not left to
    wonder why a player who went home is on the list."""
    (late,) = add_players(drawn, 1, start=40)
    seat = Seat.objects.get(table__round__stage__tournament=drawn, table__round__number=1, table__number=1, number=2)
    seated_services.set_substitute(seat, late, by=director, reason="went home")
    client.force_login(director)
    for target, name in ((url(drawn, "round", 1), late.last_name), (url(drawn, "sheet", 1, 1), late.last_name),
                         (url(drawn, "sheet", 1, 1) + "?mode=totals", late.name)):
        page = client.get(target).content.decode()
        assert f"played by 40 {name}" in page, target
    assert "played by" not in client.get(url(drawn, "sheet", 1, 2)).content.decode()


def test_find_my_seat_sends_nobody_to_a_seat_a_substitute_plays(drawn, director, client, add_players):
    """A player went home after round 1 and a late-comer plays his round-2 seat: "where do I sit" gives the
    late-comer round 2 there, and the player who left only his round 1 (it told him to sit down in round 2 beside
    his own substitute)."""
    from tournament.services.publishing import set_publication

    set_publication(drawn, by=director, kinds=["schedule"])
    (late,) = add_players(drawn, 1, start=40)
    seat = Seat.objects.select_related("participant", "table").get(
        table__round__stage__tournament=drawn, table__round__number=2, table__number=1, number=2)
    gone = seat.participant
    seated_services.set_substitute(seat, late, by=director, reason="went home")
    seat_url = reverse("public:seat", args=[drawn.slug])

    def rounds_found(player):
        text = client.get(seat_url, {"q": str(player.number)}).content.decode()
        return text.split('class="card found"')[1].count('<span class="big">') // 3

    assert rounds_found(late) == 1
    assert rounds_found(gone) == 1
