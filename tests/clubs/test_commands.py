"""The commands that name a tournament by its short name (export, export_tournament, push) on a server where two
clubs have a tournament of the same short name: --club says which; without it they refuse, naming the clubs,
rather than take either (issue 26)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.management import CommandError, call_command

from tests.clubs.conftest import club_world
from tournament.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db

SLUG = "friday-evening"


@pytest.fixture
def twins(db):
    a, b = club_world("a", "SK Isartal"), club_world("b", "TC Moosach")
    for world in (a, b):
        world.twin = create_tournament(by=world.director, name="Friday Evening", game="schafkopf",
                                       date=datetime.date(2026, 3, 6), venue=f"Hall of {world.club.name}")
    assert a.twin.slug == b.twin.slug == SLUG
    return a, b


def exported(tmp_path, *options) -> dict:
    path = tmp_path / "t.json"
    call_command("export_tournament", SLUG, "--output", str(path), *options)
    return json.loads(path.read_bytes())


def test_export_tournament_takes_the_named_club_s_tournament(twins, tmp_path):
    a, b = twins
    assert exported(tmp_path, "--club", a.club.slug)["tournament"]["venue"] == "Hall of SK Isartal"
    assert exported(tmp_path, "--club", b.club.slug)["tournament"]["venue"] == "Hall of TC Moosach"
    assert exported(tmp_path, "--club", "tc moosach")["tournament"]["venue"] == "Hall of TC Moosach"  # its name


def test_a_short_name_several_clubs_have_is_refused_without_club_naming_them(twins, tmp_path):
    for command in (["export_tournament", SLUG, "--output", str(tmp_path / "t.json")],
                    ["export", SLUG, "standings", "--output", str(tmp_path / "t.xlsx")],
                    ["push", SLUG, "--server", "http://127.0.0.1:9", "--token", "x"]):
        with pytest.raises(CommandError) as refused:
            call_command(*command)
        message = str(refused.value)
        assert "sk-isartal (SK Isartal)" in message and "tc-moosach (TC Moosach)" in message
        assert "--club" in message
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_unknown_club_or_a_club_without_the_tournament_is_refused(twins, tmp_path):
    a, b = twins
    with pytest.raises(CommandError, match="There is no club “nowhere” here. The clubs: .*sk-isartal \\(SK Isartal\\)"):
        call_command("export_tournament", SLUG, "--club", "nowhere", "--output", str(tmp_path / "t.json"))
    with pytest.raises(CommandError, match="The club “sk-isartal” has no tournament “evening-b”"):
        call_command("export", b.tournament.slug, "standings", "--club", "sk-isartal",
                     "--output", str(tmp_path / "t.xlsx"))
    assert not list(tmp_path.iterdir())


def test_export_writes_the_named_club_s_document_and_a_short_name_one_club_has_needs_no_club(twins, tmp_path):
    from openpyxl import load_workbook

    a, b = twins
    call_command("export", SLUG, "standings", "--club", b.club.slug, "--output", str(tmp_path / "b.xlsx"))
    assert load_workbook(tmp_path / "b.xlsx").active is not None
    call_command("export_tournament", b.tournament.slug, "--output", str(tmp_path / "only-b.json"))
    assert json.loads((tmp_path / "only-b.json").read_bytes())["tournament"]["name"] == "Evening B"
