"""Voms printouts and exports: the same data as the pages, read back from the PDF and Excel files."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from openpyxl import load_workbook

from documents import render
from scoring.games.voms import entries as voms_entries
from scoring.games.voms.documents import CATALOGUE, build, documents
from scoring.games.voms.services import pools as voms_pools
from scoring.games.voms.services import slips as voms_slips
from tests.pdf_text import page_texts
from tournament.models import Match, Tournament
from tournament.services.participants import register_team

pytestmark = pytest.mark.django_db


POOL_MATCHES = Match.objects.filter(round__stage__kind="pools")


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page, whitespace collapsed (names wrap inside their cells)."""
    return [" ".join(text.split()) for text in page_texts(data)]


def danish(message: str, **values) -> str:
    """What the demo's (Danish) printouts say for `message`, whether or not the catalogue has it yet."""
    with translation.override("da"):
        return gettext(message) % values if values else gettext(message)


def workbook(data: bytes):
    return load_workbook(io.BytesIO(data))


def sheet_rows(sheet) -> list[dict]:
    """The table of a sheet as dicts keyed by the header row, up to the first blank row (notes follow)."""
    rows = sheet.iter_rows(values_only=True)
    header = next(rows)
    table = []
    for values in rows:
        if all(value in (None, "") for value in values):
            break
        table.append(dict(zip(header, values, strict=False)))
    return table


def test_standings_mark_a_lot_and_print_its_seed(voms, director):
    teams = [register_team(voms, by=director, name=f"Team {n}", players=[f"P{n} One"]) for n in "ABC"]
    voms_pools.draw_pools(voms, by=director, pools=1, seed=42)
    # A beats B, B beats C, C beats A, all 9:5: tied on every step, so the lot decides.
    for match in Match.objects.filter(stage__tournament=voms, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=5))
    assert {m.team_a_id for m in Match.objects.filter(team_b__isnull=False)} == {t.pk for t in teams}
    sheet = build(voms, "standings").sheets[0]
    assert [row["decided_by"] for row in sheet.row_dicts()][1:] == ["decided by lot", "decided by lot"]
    assert any("42:0" in str(note) for note in sheet.notes)
    text = " ".join(pdf_pages(render(build(voms, "standings"), "pdf", tournament=voms)))
    assert "decided by lot" in text and "42:0" in text


def test_a_forfeit_is_named_in_the_results(drawn, director):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False).first()
    voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(absent="b"))
    row = next(r for r in build(drawn, "results").row_dicts() if r["table"] == match.table_number and r["round"] == 1)
    assert (row["lus_a"], row["lus_b"], str(row["points_a"])) == (9, 0, "2.5")
    assert row["note"] == f"forfeit: {match.team_b.name} absent"
    book = workbook(render(build(drawn, "results"), "xlsx", tournament=drawn))
    assert sheet_rows(book.active)[0]["Pts A"] == 2.5


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_document_renders_before_the_draw(voms, name):
    document = documents(voms)[name]()
    for file_format in CATALOGUE[name].formats:
        assert render(document, file_format, tournament=voms)


def test_printouts_page_links_every_document_and_round(client, drawn, director):
    client.force_login(director)
    response = client.get(reverse("tournament:voms:printouts", args=[drawn.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    for entry in CATALOGUE.values():
        for file_format in entry.formats:
            assert reverse("tournament:voms:print", args=[drawn.slug, entry.name, file_format]) in html
    slips = reverse("tournament:voms:print", args=[drawn.slug, "slips", "pdf"])
    for number in range(1, drawn.stages.get().rounds.count() + 1):
        assert f'href="{slips}?round={number}"' in html


@pytest.mark.parametrize(
    "name,file_format,content_type,disposition",
    [
        ("standings", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "attachment"),
        ("standings", "pdf", "application/pdf", "inline"),
        ("slips", "pdf", "application/pdf", "inline"),
    ],
)
def test_document_download(client, drawn, director, name, file_format, content_type, disposition):
    client.force_login(director)
    url = reverse("tournament:voms:print", args=[drawn.slug, name, file_format])
    response = client.get(url + ("?round=2" if name == "slips" else ""))
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    stem = "slips-round-2" if name == "slips" else name
    assert response["Content-Disposition"] == f'{disposition}; filename="{drawn.slug}-{stem}.{file_format}"'


@pytest.mark.parametrize("path,query", [("nothing.pdf", ""), ("slips.xlsx", ""), ("slips.pdf", "?round=99"),
                                        ("slips.pdf", "?round=x"), ("standings.csv", "")])
def test_unknown_documents_formats_and_rounds_are_not_found(client, drawn, director, path, query):
    client.force_login(director)
    url = reverse("tournament:voms:printouts", args=[drawn.slug]) + path + query
    assert client.get(url).status_code == 404


def test_printouts_and_exports_are_the_directors_as_in_every_game(client, drawn, assistant_voms):
    """The slips carry the tables' link QR codes: an assistant (score entry) neither opens nor is offered them."""
    client.force_login(assistant_voms)
    assert client.get(reverse("tournament:voms:printouts", args=[drawn.slug])).status_code == 404
    for entry in CATALOGUE.values():
        for file_format in entry.formats:
            url = reverse("tournament:voms:print", args=[drawn.slug, entry.name, file_format])
            assert client.get(url + ("?round=1" if entry.per_round else "")).status_code == 404, url
    standings = client.get(reverse("tournament:voms:standings", args=[drawn.slug]))
    assert standings.status_code == 200
    assert reverse("tournament:voms:printouts", args=[drawn.slug]) not in standings.content.decode()


def test_printouts_need_a_role_in_the_tournament(client, drawn, make_director):
    url = reverse("tournament:voms:print", args=[drawn.slug, "standings", "xlsx"])
    assert client.get(url).status_code == 302
    client.force_login(make_director("stranger"))
    assert client.get(url).status_code == 404


def test_slips_and_schedule_carry_the_public_qr_once_published(director, make_tournament):
    from scoring.games.voms.documents import slips_document
    from scoring.games.voms.services import pools as voms_pools
    from tournament.services.participants import register_team
    from tournament.services.publishing import set_publication

    t = make_tournament(director, name="QR cup", game="voms")
    for i in range(4):
        register_team(t, by=director, name=f"T{i}", players=[f"A{i} B"])
    voms_pools.draw_pools(t, by=director, pools=1, seed=1)
    assert slips_document(t, 1).qr_page is None
    set_publication(t, by=director, kinds=["standings", "schedule"])
    t.refresh_from_db()
    assert slips_document(t, 1).qr_page == "standings"


# --- Knockout slips ---------------------------------------------------------------------------------


def knockout_with_open_final(director):
    """12 teams in 2 pools, every pool game played, the semifinals decided and the final not yet played."""
    call_command("demo", "voms", "--teams", "12", "--pools", "2", "--results", "--seed", "3",
                 "--director", director.username, stdout=io.StringIO())
    t = Tournament.objects.get(game="voms")
    final = Match.objects.get(stage__tournament=t, key="F")
    final.sheet.delete()  # as if the final were still to be played
    return t, final


def test_knockout_slips_default_to_the_series_still_to_play_with_room_for_three_games(director):
    t, final = knockout_with_open_final(director)
    document = build(t, "seriesslips")
    slips = [slip for page in document.pages for slip in page["slips"]]
    assert [(s["a"]["name"], s["b"]["name"]) for s in slips] == [(final.team_a.name, final.team_b.name)]
    assert [g["number"] for g in slips[0]["games"]] == [1, 2, 3] and slips[0]["to_win"] == 2
    text = " ".join(pdf_pages(render(document, "pdf", tournament=t)))
    assert final.team_a.name in text and final.team_b.name in text
    assert danish("Final") in text
    for game in ("1", "2", "3"):
        assert f" {game} A / B" in text  # an empty row per game, the winner to circle


def test_knockout_slips_before_the_knockout_say_so(drawn):
    text = " ".join(pdf_pages(render(build(drawn, "seriesslips"), "pdf", tournament=drawn)))
    assert "The knockout has not been built yet." in text




def test_the_ranking_printed_between_the_pools_and_the_knockout_is_not_called_final(drawn, director):
    """Every pool slip is in but the knockout is still to come: the ranking printout (PDF and Excel) says so in its
    heading too, not "Final ranking" above "Provisional: the final has not been played yet"."""
    for match in POOL_MATCHES.filter(stage__tournament=drawn, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=3))
    document = build(drawn, "ranking")
    # the knockout not built yet counts as one result missing (scoring.games.voms.services.progress)
    assert str(document.title) == "Provisional — after 15 of 16 slips"
    text = " ".join(pdf_pages(render(document, "pdf", tournament=drawn)))
    assert "Final ranking" not in text and "Provisional: the final has not been played yet." in text
    assert workbook(render(document, "xlsx", tournament=drawn)).active.title.startswith("Provisional")


def test_the_cross_table_heading_of_the_rank_stays_inside_the_page_in_danish(director, make_tournament):
    """The last column of the cross-table was 13 mm wide: the Danish heading "Placering" ran 5 mm past the table and
    the page's printed area (seen on the walk); it ends inside the area now, as the venue in the page head does."""
    import pypdfium2 as pdfium

    t = make_tournament(director, name="Vomsaften", game="voms", language="da", venue="Hobro Forsamlingshus")
    for i in range(5):
        register_team(t, by=director, name=f"Hold {i}", players=[f"Spiller{i} Et"])
    voms_pools.draw_pools(t, by=director, pools=1, seed=1)
    document = pdfium.PdfDocument(render(build(t, "crosstables"), "pdf", tournament=t))
    text = document[0].get_textpage()

    def right_edge(word):
        index, length = text.search(word).get_next()
        return max(text.get_charbox(i)[2] for i in range(index, index + length))

    assert right_edge("Placering") <= right_edge("Forsamlingshus") + 1


def test_a_team_on_a_bye_has_no_rank_until_it_has_played(director, make_tournament, client):
    """Five teams: one sits out each round. After round 1 the team on the bye has no result yet: no rank on the
    standings page, PDF, cross-table and public page (it was ranked 3rd above the teams that had lost)."""
    from scoring.games.voms.standings import pool_tables

    t = make_tournament(director, name="Five teams", game="voms")
    for i in range(5):
        register_team(t, by=director, name=f"Team {i}", players=[f"Player{i} One"])
    voms_pools.draw_pools(t, by=director, pools=1, seed=1)
    for match in POOL_MATCHES.filter(stage__tournament=t, round__number=1, team_b__isnull=False):
        voms_slips.record_slip(match, by=director, entry=voms_entries.slip_entry(lus_a=9, lus_b=3))
    bye = POOL_MATCHES.get(stage__tournament=t, round__number=1, team_b__isnull=True).team_a
    rows = pool_tables(t)[0].rows
    assert [row.rank for row in rows] == [1, 2, 3, 4, None] and rows[-1].participant == bye.pk
    standings = " ".join(pdf_pages(render(build(t, "standings"), "pdf", tournament=t)))
    assert f"{bye.name} 0 0 0 0 0 0 no result yet" in " ".join(standings.split())
    crosstables = " ".join(pdf_pages(render(build(t, "crosstables"), "pdf", tournament=t)))
    assert "None" not in crosstables
    client.force_login(director)
    page = client.get(reverse("tournament:voms:standings", args=[t.slug])).content.decode()
    assert "no result yet" in page
    assert client.get(reverse("tournament:voms:knockout", args=[t.slug])).status_code == 200
