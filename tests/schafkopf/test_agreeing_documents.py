"""Two agreeing reports count: each seat's link is printed in its own column of the score list."""

import pytest

from documents import render
from scoring.games.schafkopf.documents import PRINTOUTS
from scoring.link_pages import link_url
from scoring.models import TableLink
from scoring.results.links import current_token, issue_links
from tests.pdf_shapes import square_sides
from tests.pdf_text import page_texts
from tournament.models import Round

pytestmark = pytest.mark.django_db


def test_each_seat_has_its_own_qr_code_on_the_score_list(drawn, director, tmp_path):
    drawn.agreeing_reports_count = True
    drawn.save()
    issue_links(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    document = PRINTOUTS.documents(drawn)["score-lists-1"]()
    for page in document.pages:
        codes = [code for _seat, _head, _signature, code in page["places"]]
        wanted = {link.holder: link_url(current_token(link)) for link in
                  TableLink.objects.filter(table_id=page["table"].table_id)}
        assert [code["url"] for code in codes] == [wanted[seat] for seat in range(1, 5)]
        assert [code["left"] for code in codes] == [signature["left"] for signature in page["grid"].signatures[:4]]
        assert page["link"] is None  # no table's link beside the seats'
    data = render(document, "pdf", tournament=drawn)
    (tmp_path / "score-lists.pdf").write_bytes(data)
    pages = [" ".join(text.split()) for text in page_texts(data)]
    assert len(pages) == 4
    for text in pages:
        assert all(f"Seat {seat}'s link" in text for seat in range(1, 5)), text
        assert "Or enter the list on a phone" not in text
    # each seat's code as large as a table's (22 mm with its quiet zone, the code itself about 18): 16 read badly
    assert [sides.count(22.0) for sides in square_sides(data)] == [4, 4, 4, 4]


def test_without_the_option_the_score_list_carries_the_tables_link(drawn, director):
    issue_links(Round.objects.get(stage__tournament=drawn, number=1), by=director)
    page = PRINTOUTS.documents(drawn)["score-lists-1"]().pages[0]
    assert page["link"]["url"] and not page["grid"].seat_codes
    assert all(code is None for *_rest, code in page["places"])
