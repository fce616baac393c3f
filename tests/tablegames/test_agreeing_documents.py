"""Two agreeing reports count: each seat's own link is printed on the table game's score sheet."""

import pytest

from documents import render
from scoring.games.tablegames.documents import score_sheets
from scoring.link_pages import link_url
from scoring.models import TableLink
from scoring.results.links import current_token, issue_links
from tests.pdf_shapes import square_sides
from tests.pdf_text import page_texts
from tournament.models import Round

pytestmark = pytest.mark.django_db


def test_each_seat_has_its_own_qr_code_on_the_score_sheet(domino_of_four, director, tmp_path):
    domino_of_four.agreeing_reports_count = True
    domino_of_four.save()
    issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)
    document = score_sheets(domino_of_four, 1)
    page = document.pages[0]
    wanted = {link.holder: link_url(current_token(link))
              for link in TableLink.objects.filter(table_id=page["table"].table_id)}
    assert [(code["seat"], code["url"]) for code in page["seat_links"]] == sorted(wanted.items())
    assert page["link"] is None
    data = render(document, "pdf", tournament=domino_of_four)
    (tmp_path / "score-sheets.pdf").write_bytes(data)
    text = page_texts(data)[0]
    assert "Or enter the sheet on a phone" not in text
    # each seat's code as large as a table's on a Schafkopf list (22 mm with its quiet zone): 15 read badly;
    # the sheet still one page
    assert [sides.count(22.0) for sides in square_sides(data)] == [4]


def test_without_the_option_the_sheet_carries_the_tables_link(domino_of_four, director):
    issue_links(Round.objects.get(stage__tournament=domino_of_four, number=1), by=director)
    page = score_sheets(domino_of_four, 1).pages[0]
    assert page["link"]["url"] and page["seat_links"] == []
