"""Voms printouts and exports: the same data as the pages, read back from the PDF and Excel files."""

import io
import math

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext
from openpyxl import load_workbook
from pypdf import PdfReader

from documents import render
from scoring.games.voms import services
from scoring.games.voms.documents import CATALOGUE, SLIPS_PER_PAGE, build, documents
from scoring.games.voms.documents import points as document_points
from scoring.games.voms.standings import pool_tables
from tournament.models import Match, Tournament

pytestmark = pytest.mark.django_db


POOL_MATCHES = Match.objects.filter(round__stage__kind="pools")


@pytest.fixture
def demo(director):
    """12 teams in 2 pools with every result, the knockout played out (Danish printouts)."""
    call_command("demo", "voms", "--teams", "12", "--pools", "2", "--results", "--seed", "3",
                 "--director", director.username, stdout=io.StringIO())
    return Tournament.objects.get(game="voms")


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page, whitespace collapsed (names wrap inside their cells)."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


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


def test_standings_excel_matches_the_page_row_by_row(demo):
    data = render(build(demo, "standings"), "xlsx", tournament=demo)
    book = workbook(data)
    tables = pool_tables(demo)
    assert book.sheetnames[0] == danish("Final ranking")  # first, once there is a knockout
    for table in tables:
        sheet = book[danish("Pool %(pool)s", pool=table.pool.name)]
        assert sheet.freeze_panes == "A2"
        rows = sheet_rows(sheet)
        assert len(rows) == len(table.rows)
        for row, standing in zip(rows, table.rows, strict=True):
            values = list(row.values())
            rank, team, _played, points, wins, _for, _against, lus_diff = values[:8]
            assert rank == standing.rank
            assert team == table.teams[standing.participant].name
            assert points == float(standing.values["points"]) and isinstance(points, float | int)
            assert wins == standing.values["wins"]
            assert lus_diff == standing.values["lus_diff"]


def test_standings_pdf_has_team_names_and_lus(demo):
    text = " ".join(pdf_pages(render(build(demo, "standings"), "pdf", tournament=demo)))
    for table in pool_tables(demo):
        for standing in table.rows:
            v = standing.values
            assert table.teams[standing.participant].name in text
            with translation.override("da"):
                points = formats.number_format(document_points(v["points"]))  # "14,5", "12"
            assert f"{v['played']} {points} {v['wins']} {v['lus_for']} {v['lus_against']} {v['lus_diff']}" in text


def test_standings_mark_a_lot_and_print_its_seed(voms, director):
    teams = [services.register_team(voms, by=director, name=f"Team {n}", players=[f"P{n} One"]) for n in "ABC"]
    services.draw_pools(voms, by=director, pools=1, seed=42)
    # A beats B, B beats C, C beats A, all 9:5: tied on every step, so the lot decides.
    for match in Match.objects.filter(stage__tournament=voms, team_b__isnull=False):
        services.record_slip(match, by=director, entry=services.slip_entry(lus_a=9, lus_b=5))
    assert {m.team_a_id for m in Match.objects.filter(team_b__isnull=False)} == {t.pk for t in teams}
    sheet = build(voms, "standings").sheets[0]
    assert [row["decided_by"] for row in sheet.row_dicts()][1:] == ["decided by lot", "decided by lot"]
    assert any("42:0" in str(note) for note in sheet.notes)
    text = " ".join(pdf_pages(render(build(voms, "standings"), "pdf", tournament=voms)))
    assert "decided by lot" in text and "42:0" in text


def test_slips_of_a_round_three_to_a_page_with_their_tables(demo):
    games = list(POOL_MATCHES.filter(round__stage__tournament=demo, round__number=1, team_b__isnull=False)
                 .select_related("team_a", "team_b").order_by("table_number"))
    pages = pdf_pages(render(build(demo, "slips", round_number=1), "pdf", tournament=demo))
    assert len(pages) == math.ceil(len(games) / SLIPS_PER_PAGE) == 2
    for index, match in enumerate(games):
        page = pages[index // SLIPS_PER_PAGE]
        assert match.team_a.name in page and match.team_b.name in page
        assert f"{match.table_number}" in page


def test_lus_boards_one_page_per_table(demo):
    count = POOL_MATCHES.filter(round__stage__tournament=demo, round__number=2, team_b__isnull=False).count()
    pages = pdf_pages(render(build(demo, "lusboards", round_number=2), "pdf", tournament=demo))
    assert len(pages) == count


def test_results_knockout_and_bracket_show_every_games_lus(demo):
    results = build(demo, "results").row_dicts()
    assert len(results) == POOL_MATCHES.filter(round__stage__tournament=demo, team_b__isnull=False).count()
    assert all(row["lus_a"] is not None for row in results)
    knockout = build(demo, "knockout").row_dicts()
    final = Match.objects.get(stage__tournament=demo, key="F")
    final_games = final.sheet.derived["games"]
    assert [(r["lus_a"], r["lus_b"]) for r in knockout if r["match"] == "F"] == [
        (g["lus_a"], g["lus_b"]) for g in final_games
    ]
    bracket = " ".join(pdf_pages(render(build(demo, "bracket"), "pdf", tournament=demo)))
    assert final.team_a.name in bracket and final.team_b.name in bracket


def test_a_forfeit_is_named_in_the_results(drawn, director):
    match = Match.objects.filter(stage__tournament=drawn, round__number=1, team_b__isnull=False).first()
    services.record_slip(match, by=director, entry=services.slip_entry(absent="b"))
    row = next(r for r in build(drawn, "results").row_dicts() if r["table"] == match.table_number and r["round"] == 1)
    assert (row["lus_a"], row["lus_b"], str(row["points_a"])) == (9, 0, "2.5")
    assert row["note"] == f"forfeit: {match.team_b.name} absent"
    book = workbook(render(build(drawn, "results"), "xlsx", tournament=drawn))
    assert sheet_rows(book.active)[0]["Pts A"] == 2.5


def test_cross_tables_have_every_result(demo):
    pages = pdf_pages(render(build(demo, "crosstables"), "pdf", tournament=demo))
    tables = pool_tables(demo)
    assert len(pages) == len(tables)
    for page, table in zip(pages, tables, strict=True):
        for (team, _other), (lus_for, lus_against) in table.results.items():
            assert table.teams[team].name in page
            assert f"{lus_for}:{lus_against}" in page


def test_printouts_are_in_the_tournaments_language(demo, settings):
    settings.LANGUAGE_CODE = "en"
    text = " ".join(pdf_pages(render(build(demo, "ranking"), "pdf", tournament=demo)))
    assert "Kamp om tredjepladsen" in text and "Match for third place" not in text


def test_wall_printouts_carry_a_qr_code_only_to_published_pages(demo):
    assert build(demo, "schedule").qr_page is None
    demo.publish_schedule = demo.publish_bracket = True
    demo.save()
    assert build(demo, "schedule").qr_page == "schedule" and build(demo, "bracket").qr_page == "bracket"
    assert build(demo, "standings").qr_page is None
    assert render(build(demo, "schedule"), "pdf", tournament=demo)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_document_renders_before_the_draw(voms, name):
    document = documents(voms)[name]()
    for file_format in CATALOGUE[name].formats:
        assert render(document, file_format, tournament=voms)


@pytest.mark.parametrize("file_format", ["xlsx", "pdf"])
def test_export_command_writes_the_standings(demo, tmp_path, file_format):
    output = tmp_path / f"standings.{file_format}"
    call_command("export", demo.slug, "standings", "--format", file_format, "--output", str(output),
                 stdout=io.StringIO())
    data = output.read_bytes()
    if file_format == "xlsx":
        sheet = workbook(data)[danish("Pool %(pool)s", pool="A")]
        names = {row[danish("Team")] for row in sheet_rows(sheet)}
        assert names == {team.name for team in pool_tables(demo)[0].teams.values()}
    else:
        text = " ".join(pdf_pages(data))
        assert all(team.name in text for team in pool_tables(demo)[0].teams.values())


def test_printouts_page_links_every_document_and_round(client, drawn, assistant_voms):
    client.force_login(assistant_voms)
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


def test_printouts_need_a_role_in_the_tournament(client, drawn, make_director):
    url = reverse("tournament:voms:print", args=[drawn.slug, "standings", "xlsx"])
    assert client.get(url).status_code == 302
    client.force_login(make_director("stranger"))
    assert client.get(url).status_code == 404


def test_slips_and_schedule_carry_the_public_qr_once_published(director, make_tournament):
    from scoring.games.voms import services
    from scoring.games.voms.documents import slips_document
    from tournament.services.publishing import set_publication

    t = make_tournament(director, name="QR cup", game="voms")
    for i in range(4):
        services.register_team(t, by=director, name=f"T{i}", players=[f"A{i} B"])
    services.draw_pools(t, by=director, pools=1, seed=1)
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


def test_knockout_slips_of_a_round_have_both_teams_a_row_per_game_and_the_series(demo):
    from scoring.games.voms.documents import SERIES_SLIPS_PER_PAGE, knockout_round_choices

    with translation.override("da"):
        rounds = knockout_round_choices(demo)
    number, name, matches = next(r for r in rounds if any(m.key == "SF1" for m in r[2]))
    pages = pdf_pages(render(build(demo, "seriesslips", round_number=number), "pdf", tournament=demo))
    assert len(pages) == math.ceil(len(matches) / SERIES_SLIPS_PER_PAGE) == 1
    text = pages[0]
    assert name in text and danish("Series: games won") in text and danish("Team A") in text
    for match in matches:
        assert match.team_a.name in text and match.team_b.name in text
        games = match.sheet.derived["games"]
        wins = [sum(1 for g in games if g["winner"] == side) for side in "ab"]
        assert f"{match.key}" in text
        for game in games:  # the games already played are printed with their lus
            assert f"{game['lus_a']} {game['lus_b']}" in text
        assert f"{wins[0]} {wins[1]}" in text


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


def test_knockout_slips_are_linked_per_round_next_to_the_pool_slips(client, demo, director):
    from scoring.games.voms.documents import knockout_round_choices

    client.force_login(director)
    html = client.get(reverse("tournament:voms:printouts", args=[demo.slug])).content.decode()
    url = reverse("tournament:voms:print", args=[demo.slug, "seriesslips", "pdf"])
    rounds = knockout_round_choices(demo)
    assert len(rounds) >= 2
    for number, _name, _matches in rounds:
        assert f'href="{url}?round={number}"' in html
        response = client.get(f"{url}?round={number}")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert html.index('id="print-slips"') < html.index('id="print-seriesslips"')
    assert client.get(f"{url}?round={len(rounds) + 1}").status_code == 404
    assert client.get(f"{url}?round=x").status_code == 404
