"""`manage.py import_tournament` asks about unsure register matches, as the web import does."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournament.models import Person, Tournament
from tournament.services.participants import add_participant
from tournament.transfer import export_tournament


@pytest.fixture
def unsure_file(director, make_tournament, tmp_path):
    """A file with Anna Huber (SK Au, known here exactly) and Hans Wolf (SK Au), whom this register knows only
    in two other clubs: the import must ask about Hans."""
    tournament = make_tournament(director, name="Export me", game="schafkopf")
    anna = add_participant(tournament, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    hans = add_participant(tournament, by=director, first_name="Hans", last_name="Wolf", club="SK Au")
    path = tmp_path / "evening.json"
    path.write_bytes(export_tournament(tournament))
    hans.person.delete()
    moosach = Person.objects.create(first_name="Hans", last_name="Wolf", club="Moosach")
    pasing = Person.objects.create(first_name="Hans", last_name="Wolf", club="Pasing")
    return path, anna.person, moosach, pasing


def run(path, *options, answers=""):
    out = StringIO()
    # the file's tournament is still here: a copy of its own
    call_command("import_tournament", str(path), "--user", "director", "--as-new", *options, stdin=StringIO(answers),
                 stdout=out)
    return out.getvalue()


def imported_wolf():
    return Tournament.objects.order_by("-pk").first().participants.get(last_name="Wolf").person


def test_the_command_asks_and_takes_the_chosen_register_entry(unsure_file):
    path, anna, moosach, pasing = unsure_file
    out = run(path, answers="2\n")
    assert "Hans Wolf (SK Au) in the file may be someone the register already has:" in out
    assert "n: someone else: a new register entry" in out
    # the second entry offered, whichever it is
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("2: the same person as")]
    assert len(lines) == 1
    chosen = moosach if f"(register entry {moosach.pk})" in lines[0] else pasing
    assert imported_wolf() == chosen
    assert Tournament.objects.order_by("-pk").first().participants.get(last_name="Huber").person == anna
    assert Person.objects.count() == 3, "nobody new in the register"


def test_the_answer_new_makes_a_new_entry_and_a_wrong_answer_is_asked_again(unsure_file):
    path, _anna, moosach, pasing = unsure_file
    out = run(path, answers="7\nxyz\n n \n")
    assert out.count("Please answer with a number from 1–2, or n for a new entry.") == 2
    wolf = imported_wolf()
    assert wolf not in (moosach, pasing) and wolf.club == "SK Au"
    assert Person.objects.count() == 4


def test_no_input_makes_a_new_entry_and_says_so(unsure_file):
    path, _anna, moosach, pasing = unsure_file
    out = run(path, "--no-input")
    assert "Hans Wolf (SK Au): a new register entry (not asked: --no-input)." in out
    assert "may be someone" not in out
    wolf = imported_wolf()
    assert wolf not in (moosach, pasing) and wolf.club == "SK Au"


def test_no_answer_imports_nothing(unsure_file):
    path, *_people = unsure_file
    tournaments, people = Tournament.objects.count(), Person.objects.count()
    with pytest.raises(CommandError, match=r"No answer for Hans Wolf \(SK Au\): nothing was imported."):
        run(path, answers="")
    assert (Tournament.objects.count(), Person.objects.count()) == (tournaments, people)


def test_a_sure_match_asks_nothing(director, make_tournament, tmp_path):
    tournament = make_tournament(director, name="Export me", game="schafkopf")
    anna = add_participant(tournament, by=director, first_name="Anna", last_name="Huber", club="SK Au")
    path = tmp_path / "evening.json"
    path.write_bytes(export_tournament(tournament))
    out = run(path)  # nothing to read: asking would fail
    assert "may be someone" not in out and "Imported" in out
    assert Tournament.objects.order_by("-pk").first().participants.get().person == anna.person


def test_the_questions_in_german(unsure_file):
    from django.utils import translation

    path, *_people = unsure_file
    with translation.override("de"):
        out = run(path, answers="n\n")
    assert "Hans Wolf (SK Au) in der Datei ist vielleicht jemand, den das Register schon hat:" in out
    assert "n: jemand anderes: ein neuer Registereintrag" in out
