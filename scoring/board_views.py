"""The round's board for the director, the same page for every game: each table (Voms: each slip or series)
missing, still playing, arrived from the table, awaiting confirmation or counted, the problems the tables
signalled, the counts, and one key to the next entry to confirm.

The game's `Game.board` hook says what is on it (`scoring.board`); each game's URLconf mounts a subclass
of `RoundBoardView` mixed with its own page class (for its menu) as "board" and "board_part". The board
reloads itself every `BOARD_POLL_SECONDS` (htmx, local copy; `?live=1` answers the board alone).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import TemplateView

from documents.charts import chart_html
from scoring.games import game_of
from scoring.link_pages import close_problem_saying_so
from scoring.models import TableProblem

from .board import AWAITING, BOARD_POLL_SECONDS, Board, arrivals_chart

#: the query flag a board's links carry: the page opened from the board goes back to it after confirming
FROM_BOARD = "from=board"


def with_from_board(url: str) -> str:
    return url + ("&" if "?" in url else "?") + FROM_BOARD


def opened_from_board(request) -> bool:
    """The page was opened from the board (a link's `?from=board`, or a form posting `from=board`)."""
    return request.GET.get("from") == "board" or request.POST.get("from") == "board"


def board_url(tournament, part: str | None = None) -> str:
    """The board of the tournament's game (its current part, or `part`)."""
    namespace = f"tournament:{board_namespace(tournament)}"
    if part is None:
        return reverse(f"{namespace}:board", args=[tournament.slug])
    return reverse(f"{namespace}:board_part", args=[tournament.slug, part])


def board_namespace(tournament) -> str:
    """The URL namespace of the game's pages ("schafkopf", "tablegames", "voms"): its URLconf's app_name."""
    return game_of(tournament).urlconf().app_name


class RoundBoardView(TemplateView):
    """Mixed with a game's own page class (which loads `self.tournament` and the role, and gives the menu its
    context); `nav_template` is that game's menu."""

    template_name = "scoring/board.html"
    nav_template = ""
    nav = "board"
    #: whether problems are closed from this board (`ProblemsBoardView`): the games whose tables signal them
    closes_problems = False

    def board(self) -> Board:
        board = game_of(self.tournament).board(self.tournament, self.kwargs.get("part"), user=self.request.user)
        if board is None:
            raise Http404
        return board

    def get(self, request, *args, **kwargs):
        if request.GET.get("live"):
            self.template_name = "scoring/_board.html"
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        board = self.board()
        for item in board.items:
            if item.state == AWAITING:
                item.url = with_from_board(item.url)
        following = board.next_to_confirm
        context.update(
            board=board, nav_template=self.nav_template, poll_seconds=BOARD_POLL_SECONDS,
            live_url=f"{self.request.path}?live=1", next_item=following, closes_problems=self.closes_problems,
            parts=[(label, board_url(self.tournament, key), key == board.part) for key, label in board.parts],
        )
        if self.template_name == RoundBoardView.template_name:  # the page, not its periodic reload
            chart = arrivals_chart(board)
            context["arrivals_chart"] = chart_html(chart) if chart else None
        return context


class ProblemsBoardView(RoundBoardView):
    """The board of a game whose tables signal problems from their links (`TableProblem`): closed from here."""

    closes_problems = True

    def post(self, request, *args, **kwargs):
        """Close a problem a table signalled: someone went to the table and sorted it out."""
        number = request.POST.get("problem", "")
        problem = TableProblem.objects.filter(tournament=self.tournament, pk=int(number)).select_related(
            "table", "match").first() if number.isdigit() else None
        if problem is None:
            raise Http404
        close_problem_saying_so(request, problem)
        return redirect(request.path)
