"""Voms printouts and exports of the played demo (12 teams in 2 pools, every result, the knockout played out;
Danish printouts), read back from the PDF and Excel files. The demo is built once for the module: every test
here only reads it or changes it inside its own savepoint (see "The suite's duration" in docs/development.md)."""

import io
import math

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import formats, translation

from documents import render
from scoring.games.voms.documents import SLIPS_PER_PAGE, build
from scoring.games.voms.documents import points as document_points
from scoring.games.voms.standings import pool_tables
from tests.conftest import built_once_fixtures, new_director
from tournament.models import Match, Tournament

from .test_documents import POOL_MATCHES, danish, pdf_pages, sheet_rows, workbook

pytestmark = pytest.mark.django_db


def build_demo():
    director = new_director()
    call_command("demo", "voms", "--teams", "12", "--pools", "2", "--results", "--seed", "3",
                 "--director", director.username, stdout=io.StringIO())
    return director, Tournament.objects.get(game="voms")


built, world, director, demo = built_once_fixtures(build_demo, "director", "demo")


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
