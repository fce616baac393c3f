"""The standings page fits a 1366 px laptop screen in English, German and Danish, with every column there is (two
rounds, prizes, remarks), long names and long clubs: no sideways scrolling at the referee table.
Screenshots with SCREENSHOTS=1: test-artifacts/schafkopf-standings-<language>-1366.png."""

from dataclasses import replace
from decimal import Decimal

import pytest

from scoring.games.schafkopf.config import settings_of
from scoring.rules.schafkopf import PrizeSpec
from scoring.seated import services as seated_services
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import keep_screenshot, login_by_keyboard
from tournament.models import Participant
from tournament.services.participants import set_participant_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = [("Maximilian-Korbinian", "Obermeier-Sedlmeier", "Schafkopffreunde Dachau-Hallertau e. V."),
        ("Kreszenz", "Wittelsbacher-Zellner", "Stammtisch zum Goldenen Hirschen Erding"),
        ("Anna", "Huber", "")]


@pytest.fixture
def finished(drawn, director, enter_all):
    settings = settings_of(drawn)
    seated_services.update_settings(drawn, replace(settings, entry_fee=Decimal("15.00"), prizes=(
        PrizeSpec("percent", Decimal(50)), PrizeSpec("percent", Decimal(30)), PrizeSpec("fixed", Decimal(555)))),
        by=director)
    for number, (first, last, club) in enumerate(LONG, start=1):
        Participant.objects.filter(tournament=drawn, number=number).update(first_name=first, last_name=last,
                                                                           club=club)
    enter_all(drawn)
    set_participant_status(Participant.objects.get(tournament=drawn, number=3), Participant.Status.EXCLUDED,
                           by=director, reason="false entry")
    return drawn


@pytest.mark.parametrize("language", ["en", "de", "da"])
def test_the_standings_fit_1366_pixels(live_server, browser, director, finished, language):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    try:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        login_by_keyboard(page, live_server.url, director, f"/manage/{finished.slug}/schafkopf/standings/")
        table = page.locator("table.sk-standings")
        table.wait_for()
        keep_screenshot(page, ARTIFACTS / f"schafkopf-standings-{language}-1366.png", full_page=True)
        widths = page.evaluate("""() => ({page: document.documentElement.scrollWidth,
            table: document.querySelector('table.sk-standings').getBoundingClientRect().right,
            box: document.querySelector('.sk-scroll').getBoundingClientRect().right})""")
        assert widths["page"] <= 1366, widths
        assert widths["table"] <= widths["box"] + 0.5, f"{widths['table'] - widths['box']:.0f} px too wide"
    finally:
        context.close()
