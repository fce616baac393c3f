"""The heads of a score sheet's columns stay inside their columns in every language (German words are long)."""

import pytest
from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.formatting_structure.boxes import TableCellBox, TextBox

from documents.base import venue_locale
from documents.pdf import render_frame, static_dir
from documents.pdf_writer import LocalFileFetcher
from scoring.games.tablegames.documents import documents
from scoring.seated import services as seated_services

pytestmark = pytest.mark.django_db


def descendants(box):
    yield box
    for child in getattr(box, "children", None) or ():
        yield from descendants(child)


def first_page(tournament, name):
    document = documents(tournament)[name]()
    with venue_locale(tournament):
        fragment = render_to_string(document.template_name, document.page_contexts()[0])
        html = render_frame([fragment], tournament=tournament, title=document.title, landscape=document.landscape)
    root = static_dir()
    return HTML(string=html, base_url=root.as_uri() + "/", url_fetcher=LocalFileFetcher(root)).render().pages[0]


def overflowing_heads(page, tag="th", column=None):
    """The words of a column head (or of the cells `tag` in `column`) that stick out of their cell."""
    out = []
    for cell in descendants(page._page_box):
        if not isinstance(cell, TableCellBox) or cell.element_tag != tag:
            continue
        if column is not None and cell.grid_x != column:
            continue
        left, right = cell.content_box_x(), cell.content_box_x() + cell.width
        out += [text.text for text in descendants(cell) if isinstance(text, TextBox)
                and (text.position_x < left - 0.5 or text.position_x + text.width > right + 0.5)]
    return out


@pytest.mark.parametrize("language", ["de", "da"])
@pytest.mark.parametrize(("game", "variant"), [("domino", "femmer"), ("quadominos", None)])
def test_score_sheet_heads_fit_their_columns(make_game, add_players, director, language, game, variant):
    tournament = make_game(game, variant)
    tournament.language = language
    tournament.save()
    add_players(tournament, 4)
    seated_services.draw_seating(tournament, by=director, seed=1)
    assert overflowing_heads(first_page(tournament, "score-sheets-1")) == []


@pytest.mark.parametrize("language", ["de", "da"])
def test_the_seat_that_keeps_the_sheet_says_so_inside_its_cell(make_game, add_players, director, language):
    # "1 führt den Spielbogen" was cut with an ellipsis when the seat column was too narrow for one line
    tournament = make_game("domino", "blinde")
    tournament.language = language
    tournament.save()
    add_players(tournament, 4)
    seated_services.draw_seating(tournament, by=director, seed=1)
    assert overflowing_heads(first_page(tournament, "score-sheets-1"), tag="td", column=0) == []
