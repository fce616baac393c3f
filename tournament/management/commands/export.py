"""`manage.py export <tournament> <document> [--club CLUB] --format pdf|xlsx --output FILE`: a game's document
to a file.

The documents come from the tournament's game (`Game.documents`), so this command never
knows which games exist or what they print.
"""

from pathlib import Path

from django.core.management import BaseCommand, CommandError

from documents import CONTENT_TYPES, formats_for, render
from documents.pdf import PdfUnavailable
from scoring.games import game_of
from tournament.management.tournaments import add_club_argument, tournament_named
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write one of a tournament's documents (standings, score lists, …) to a PDF or Excel file."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="The tournament's short name (as in its address).")
        parser.add_argument("document", help="The document's name; an unknown name lists the available ones.")
        add_club_argument(parser)
        parser.add_argument("--format", dest="file_format", help="pdf or xlsx (default: the output file's suffix).")
        parser.add_argument("--output", help="The file to write (default: the document's file name).")

    def handle(self, *args, tournament, document, file_format, output, club=None, **options):
        found = tournament_named(tournament, club)
        file_format = choose_format(file_format, output)
        made = make_document(found, document)
        if file_format not in formats_for(made):
            possible = " or ".join(formats_for(made))
            raise CommandError(f"The document {document!r} cannot be written as {file_format}, only as {possible}.")
        path = Path(output) if output else Path(f"{made.filename_stem}.{file_format}")
        try:
            data = render(made, file_format, tournament=found)
        except PdfUnavailable:
            raise CommandError("PDF files need Pango, which this computer lacks: install it as docs/install.md says "
                               "for your system (Windows, macOS or Linux), or write the document as xlsx.") from None
        path.write_bytes(data)
        self.stdout.write(f"Wrote {path} ({len(data):,} bytes).")


def choose_format(file_format: str | None, output: str | None) -> str:
    if file_format is None and output:
        file_format = Path(output).suffix.lstrip(".").lower() or None
    if file_format not in CONTENT_TYPES:
        given = f"Unknown format {file_format!r}" if file_format else "No format given"
        raise CommandError(f"{given}: use --format {' or '.join(CONTENT_TYPES)}, or an output file ending in one.")
    return file_format


def make_document(tournament: Tournament, name: str):
    available = game_of(tournament).documents(tournament)
    if name not in available:
        listing = ", ".join(sorted(available)) or "none yet"
        raise CommandError(f"Unknown document {name!r} for {tournament.slug!r}. Available documents: {listing}.")
    return available[name]()
