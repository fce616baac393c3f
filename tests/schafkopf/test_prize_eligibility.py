"""The director's prize tick for a player who did not play every round (rules/table-games.md, every seated game)."""

from dataclasses import replace
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.games.schafkopf.config import settings_of
from scoring.rules.schafkopf import PrizeSpec
from scoring.seated import services as seated_services
from tests.pdf_text import page_texts
from tournament.models import Participant, Seat
from tournament.services.participants import set_participant_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(drawn, director, add_players, enter_all):
    """Player 3 goes home after round 1, 40 plays his round-2 seat (points stay with 3); 16 prizes, all paid."""
    seated_services.update_settings(drawn, replace(settings_of(drawn), entry_fee=Decimal("10"), prizes=tuple(
        PrizeSpec("fixed", Decimal(n)) for n in range(16, 0, -1))), by=director)
    (late,) = add_players(drawn, 1, start=40)
    gone = drawn.participants.get(number=3)
    set_participant_status(gone, Participant.Status.WITHDRAWN, by=director)
    seated_services.set_substitute(Seat.objects.get(participant=gone, table__round__number=2), late, by=director)
    enter_all(drawn)
    return drawn, gone


def test_standings_page_offers_the_tick_and_saving_it_gives_him_the_prize(client, director, evening):
    tournament, gone = evening
    client.force_login(director)
    page = client.get(reverse("tournament:schafkopf:standings", args=[tournament.slug])).content.decode()
    assert 'id="prize-eligibility"' in page and "3 Anna3 Huber3" in page
    assert "not eligible: did not play every round" in page
    response = client.post(reverse("tournament:schafkopf:prize_eligibility", args=[tournament.slug]),
                           {"participant": gone.pk, "eligible": "on", "reason": "asked to be"})
    assert response.status_code == 302 and response["Location"].endswith("#prize-eligibility")
    gone.refresh_from_db()
    assert gone.prize_eligible
    page = client.get(reverse("tournament:schafkopf:standings", args=[tournament.slug])).content.decode()
    assert "eligible by the director" in page and "not eligible: did not play every round" not in page


def test_the_tick_of_another_tournaments_player_is_refused(client, director, evening, make_tournament,
                                                           add_players):
    tournament, _gone = evening
    other = make_tournament(director, name="Other", game="schafkopf")
    (stranger,) = add_players(other, 1)
    client.force_login(director)
    response = client.post(reverse("tournament:schafkopf:prize_eligibility", args=[tournament.slug]),
                           {"participant": stranger.pk, "eligible": "on"})
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert not stranger.prize_eligible


def test_prize_list_pdf_and_excel_skip_the_ineligible_and_say_why(client, director, evening):
    from openpyxl import load_workbook

    tournament, _gone = evening
    client.force_login(director)
    pdf = client.get(reverse("tournament:schafkopf:download", args=[tournament.slug, "ranking", "pdf"]))
    text = "\n".join(page_texts(b"".join(pdf.streaming_content) if pdf.streaming else pdf.content))
    assert "not eligible: did not play every round" in " ".join(text.split())
    xlsx = client.get(reverse("tournament:schafkopf:download", args=[tournament.slug, "ranking", "xlsx"]))
    import io

    sheet = load_workbook(io.BytesIO(b"".join(xlsx.streaming_content) if xlsx.streaming else xlsx.content)).active
    cells = [[cell.value for cell in row] for row in sheet.iter_rows()]
    header = next(row for row in cells if "Prize" in row)
    number, prize, remark = header.index("No."), header.index("Prize"), header.index("Remark")
    row3 = next(row for row in cells if row[number] == 3)
    assert row3[prize] in (None, "") and "not eligible: did not play every round" in row3[remark]


def test_public_ranking_marks_him(evening):
    from scoring.games.schafkopf.public import public

    tournament, _gone = evening
    picture, section = public(tournament).standings()  # the standings round by round, then the table
    assert picture.template == "public/_chart.html"
    assert "3 · withdrawn, round 2 played by 40 Anna40 Huber40, did not play every round" in str(
        section.data["rows_html"])


@pytest.mark.parametrize("data", [
    {},
    {"participant": "abc", "eligible": "on"},
    {"participant": "-1", "eligible": "on"},
    {"participant": "99999999999999999999999", "eligible": "on"},
    {"participant": "PK", "eligible": "on", "reason": "x" * 5000},
])
def test_hostile_ticks_change_nothing(client, director, evening, data):
    """The hostile-forms walk cannot reach this form (it is shown only beside a player who missed rounds, and the
    demo has none: tests/hostile/harness.py NOT_FUZZED), so its bad input is tried here."""
    tournament, gone = evening
    client.force_login(director)
    data = {key: (str(gone.pk) if value == "PK" else value) for key, value in data.items()}
    response = client.post(reverse("tournament:schafkopf:prize_eligibility", args=[tournament.slug]), data)
    assert response.status_code in (302, 404)
    gone.refresh_from_db()
    assert not gone.prize_eligible


def test_an_assistant_cannot_tick(client, evening, sk_assistant):
    tournament, gone = evening
    client.force_login(sk_assistant)
    response = client.post(reverse("tournament:schafkopf:prize_eligibility", args=[tournament.slug]),
                           {"participant": gone.pk, "eligible": "on"})
    assert response.status_code in (403, 404)
    gone.refresh_from_db()
    assert not gone.prize_eligible
