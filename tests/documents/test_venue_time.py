"""Dates and times in the tournament's language and its venue's time zone: on the pages (whoever's browser
asks), in the printouts and exports made outside a request, and numbers in Excel as the language writes them."""

import datetime
import io
import re
from decimal import Decimal

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from documents import render
from documents.pdf import frame_context
from scoring.games.schafkopf.config import settings_of
from scoring.games.schafkopf.demo import create_demo
from scoring.games.schafkopf.documents import documents
from scoring.rules.schafkopf import PrizeSpec
from scoring.seated import services as seated_services
from tournament.forms import TournamentForm
from tournament.models import Draw
from tournament.services.participants import add_participant
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db

#: 14:05 UTC: 15:05 in Berlin and Copenhagen, 09:05 in New York (no summer time on that day)
MOMENT = datetime.datetime(2026, 11, 28, 14, 5, tzinfo=datetime.UTC)


@pytest.fixture
def drawn(director, make_tournament):
    tournament = make_tournament(director, name="Venue cup", game="schafkopf", date=datetime.date(2026, 11, 28))
    for number in range(1, 9):
        add_participant(tournament, by=director, number=number, first_name=f"Anna{number}",
                        last_name=f"Huber{number}")
    seated_services.draw_seating(tournament, by=director, seed=5)
    Draw.objects.filter(tournament=tournament).update(created=MOMENT)
    return tournament


def test_a_new_tournament_is_in_the_installations_time_zone(director, make_tournament, settings):
    assert make_tournament(director).time_zone == settings.TIME_ZONE == "Europe/Berlin"
    form = TournamentForm()
    assert form["time_zone"].initial == "Europe/Berlin"
    assert ("Europe/Copenhagen", "Europe/Copenhagen") in form.fields["time_zone"].choices


def test_an_unknown_time_zone_is_refused(director, drawn):
    form = TournamentForm(instance=drawn, data={"name": drawn.name, "game": "schafkopf", "date": "2026-11-28",
                                                "time_zone": "Mars/Olympus", "language": "en", "status": "planned"})
    assert not form.is_valid() and "time_zone" in form.errors


@pytest.mark.parametrize("zone,language,shown", [
    ("Europe/Berlin", "de", "28.11.2026 15:05"),
    ("Europe/Copenhagen", "da", "28.11.2026 15:05"),
    ("America/New_York", "en", "28 Nov 2026 9:05 a.m."),
])
def test_pages_show_the_venues_clock_in_the_screens_language(client, director, drawn, zone, language, shown):
    update_tournament(drawn, by=director, time_zone=zone)
    client.force_login(director)
    client.cookies.load({"django_language": language})
    page = client.get(reverse("tournament:schafkopf:seating", args=[drawn.slug])).content.decode()
    assert shown in page
    assert timezone.get_current_timezone_name() == "Europe/Berlin", "the zone ends with the request"


def test_a_table_link_page_is_in_the_venues_zone_too(rf, director, drawn):
    from scoring.results.links import issue_links, token_of
    from tournament.middleware import venue_time_zone_of
    from tournament.models import Round

    update_tournament(drawn, by=director, time_zone="America/New_York")
    link = issue_links(Round.objects.get(stage__tournament=drawn, number=1), by=director)[0]
    assert venue_time_zone_of({"token": token_of(link)}) == "America/New_York"
    assert venue_time_zone_of({"slug": drawn.slug}) == "America/New_York"
    assert venue_time_zone_of({"token": "not-a-link"}) is None


def test_a_printout_made_outside_a_request_tells_the_venues_time(director, drawn):
    from documents.base import venue_locale

    update_tournament(drawn, by=director, time_zone="America/New_York", language="de")
    drawn.refresh_from_db()
    with timezone.override("UTC"), venue_locale(drawn):
        printed = frame_context(tournament=drawn, title="x", landscape=False)["printed_at"]
        local_now = timezone.localtime(timezone.now(), timezone=datetime.timezone(datetime.timedelta(hours=-5)))
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", printed)  # German, not "11/28/2026 ..."
    assert printed.endswith(local_now.strftime("%H:%M")) or printed.endswith(
        (local_now - datetime.timedelta(minutes=1)).strftime("%H:%M"))


def test_excel_writes_dates_money_and_notes_as_the_language_does(director):
    tournament = create_demo(director, seed=3, results=True, players=16)
    update_tournament(tournament, by=director, language="de")
    settings = settings_of(tournament)
    seated_services.update_settings(tournament, type(settings)(**{**settings.__dict__, "prizes": (
        PrizeSpec("fixed", Decimal("555")), PrizeSpec("percent", Decimal("12.5")))}), by=director)
    tournament.refresh_from_db()
    data = render(documents(tournament)["standings"](), "xlsx", tournament=tournament)
    book = openpyxl.load_workbook(io.BytesIO(data))
    final = book.worksheets[0]  # the standings open with the ranking
    texts = [cell.value for row in final.iter_rows() for cell in row if isinstance(cell.value, str)]
    assert any("Preise 585,00." in text for text in texts), texts
    assert not any(re.search(r"\d\.\d\d\b", text) for text in texts), "a number written the English way"
    header = [cell.value for cell in final[1]]
    prize = final.cell(row=2, column=header.index("Preis") + 1)
    assert prize.value == 555 and prize.number_format == "0.00"


def test_excel_dates_in_the_languages_format(director, make_tournament):
    from documents.base import TableDocument

    document = TableDocument("Dates", [render_column("day", "date"), render_column("at", "date")],
                             [{"day": datetime.date(2026, 11, 28), "at": MOMENT}], filename_stem="dates")
    for language, day, moment in (("de", "dd.mm.yyyy", "dd.mm.yyyy hh:mm"), ("da", "dd.mm.yyyy", "dd.mm.yyyy hh:mm"),
                                  ("en", "d mmm yyyy", "d mmm yyyy h:mm AM/PM")):
        tournament = make_tournament(director, name=f"Dates {language}", language=language,
                                     time_zone="America/New_York")
        sheet = openpyxl.load_workbook(io.BytesIO(render(document, "xlsx", tournament=tournament))).active
        assert (sheet["A2"].number_format, sheet["B2"].number_format) == (day, moment)
        assert sheet["B2"].value == datetime.datetime(2026, 11, 28, 9, 5), "the venue's wall clock"


def test_excel_numbers_show_as_the_pages_show_them(director, make_tournament):
    from documents.base import TableDocument

    document = TableDocument("Numbers", [render_column("n", "decimal")],
                             [{"n": Decimal("12")}, {"n": Decimal("2.5")}, {"n": Decimal("555.00")}],
                             filename_stem="numbers")
    sheet = openpyxl.load_workbook(io.BytesIO(render(document, "xlsx", tournament=make_tournament(director)))).active
    assert [sheet[f"A{row}"].value for row in (2, 3, 4)] == [12, 2.5, 555]
    assert [sheet[f"A{row}"].number_format for row in (2, 3, 4)] == ["General", "0.0##", "0.00"]


def render_column(key, kind):
    from documents.base import Column

    return Column(key, key, kind)


@pytest.mark.parametrize("language,short,moment", [
    ("en", "8 Jan 2027", "8 Jan 2027 7:05 p.m."),  # not 01/08/2027, which Britain reads as 1 August
    ("de", "08.01.2027", "08.01.2027 19:05"),
    ("da", "08.01.2027", "08.01.2027 19:05"),
])
def test_short_dates_cannot_be_read_the_wrong_way_round(language, short, moment):
    from django.utils import formats, translation

    with translation.override(language):
        assert formats.date_format(datetime.date(2027, 1, 8), "SHORT_DATE_FORMAT") == short
        assert formats.date_format(datetime.datetime(2027, 1, 8, 19, 5), "SHORT_DATETIME_FORMAT") == moment
