"""Voms on the public pages: pool standings, the schedule, results, the bracket and "my next game".

Everything is turned into plain values here (names, numbers, tables, lus, points), so the public templates
never reach into the models and nothing beyond what the hall may see can leak through them.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from tournament.models import Match, Round, Stage
from tournament.public.cache import cached
from tournament.public.content import (
    Found,
    PublicContent,
    Section,
    Slide,
    evening_link,
    find_participants,
    pages,
    person,
)
from tournament.services.publishing import published_kinds

from . import queries
from .documents import time_of_day
from .standings import final_ranking, pool_tables
from .text import show_points, with_note

#: rows per beamer page (what 1080 pixels hold in type readable from 10 metres)
BEAMER_ROWS = 10


def _lus(game: dict) -> str:
    return f"{game['lus_a']} : {game['lus_b']}"


def _pool_game(match: Match, state: queries.PoolState) -> dict:
    """A pool game as it counts: a disqualification's forfeit (or void game) overrides what the slip says."""
    sheet = getattr(match, "sheet", None)
    game = sheet.derived["games"][0] if sheet is not None else None
    result = state.result(match.pk)
    void = result is not None and result.outcome == "void"
    if result is not None and result.outcome == "disqualified_forfeit":
        score = result.game
        game = {"lus_a": score.lus_a, "lus_b": score.lus_b, "points_a": score.points_a, "points_b": score.points_b,
                "kind": "forfeit"}
    dq = state.marks
    return {
        "table": match.table_number,
        "pool": match.pool.name if match.pool else "",
        "a": with_note(match.team_a.name, dq, match.team_a_id),
        "b": with_note(match.team_b.name, dq, match.team_b_id) if match.team_b else None,
        "lus": _("void") if void else _lus(game) if game else "",
        "points": "" if void or not game else f"{show_points(game['points_a'])} : {show_points(game['points_b'])}",
        "forfeit": bool(not void and game and game["kind"] == "forfeit"),
        "entered": match.team_b_id is None or (result is not None and result.entered),
        # decided by a disqualification: nobody plays it
        "decided": result is not None and bool(result.disqualified),
    }


def _series(match: Match) -> dict:
    sheet = getattr(match, "sheet", None)
    derived = sheet.derived if sheet is not None else {}
    return {
        "key": match.key,
        "a": match.team_a.name if match.team_a else None,
        "b": match.team_b.name if match.team_b else None,
        "games": [_lus(g) for g in derived.get("games", [])],
        "wins": f"{derived['wins_a']} : {derived['wins_b']}" if "wins_a" in derived else "",
        "winner": derived.get("winner") if derived.get("finished") else None,
    }


class VomsPublic(PublicContent):
    kinds = ("schedule", "standings", "bracket", "results")

    # --- reading ------------------------------------------------------------------------------------

    def _pool_stage(self) -> Stage | None:
        return Stage.objects.filter(tournament=self.tournament, kind=Stage.Kind.POOLS).first()

    def _pool_matches(self, stage: Stage) -> list[Match]:
        return list(
            Match.objects.filter(stage=stage).select_related("round", "pool", "team_a", "team_b", "sheet")
            .order_by("round__number", "table_number", "pk")
        )

    def _rounds(self, stage: Stage, with_results: bool) -> list[dict]:
        state = queries.pool_state(self.tournament, stage)
        number = state.derivation.first_open_round()
        current = stage.rounds.filter(number=number).first() if number else stage.rounds.order_by("-number").first()
        rounds: dict[int, dict] = {}
        for match in self._pool_matches(stage):
            number = match.round.number
            entry = rounds.setdefault(number, {
                "number": number, "time": time_of_day(match.round.starts_at),
                "current": current is not None and current.number == number, "games": [], "done": True,
            })
            game = _pool_game(match, state)
            if not with_results:
                game.update(lus="", points="", forfeit=False)
            entry["games"].append(game)
            entry["done"] = entry["done"] and game["entered"]
        return [rounds[n] for n in sorted(rounds)]

    # --- the pages ----------------------------------------------------------------------------------

    def schedule(self) -> list[Section]:
        stage = self._pool_stage()
        if stage is None:
            return []
        rounds = self._rounds(stage, with_results=self.tournament.publish_results)
        return [Section("public/voms/schedule.html", {"rounds": rounds})]

    def standings(self) -> list[Section]:
        sections = []
        final = self._final_ranking()
        if final:
            sections.append(Section("public/voms/final.html", {"places": final}, _("Final ranking")))
        for table in pool_tables(self.tournament):
            sections.append(self._pool_section(table))
        return sections

    def _pool_section(self, table) -> Section:
        rows = [
            {"rank": row.rank, "team": with_note(table.teams[row.participant].name, table.marks,
                                                          row.participant),
             "played": row.values["played"],
             "points": show_points(row.values["points"]), "wins": row.values["wins"],
             "lus_diff": row.values["lus_diff"], "by_lot": row.by_lot}
            for row in table.rows
        ]
        title = _("Pool %(pool)s") % {"pool": table.pool.name}
        waiting = any(row["rank"] is None for row in rows)
        return Section("public/voms/pool.html", {"rows": rows, "complete": table.complete, "waiting": waiting}, title)

    def _final_ranking(self) -> list[dict]:
        """The final ranking, once the final has been decided (before that it would be a guess)."""
        if queries.knockout_stage(self.tournament) is None:
            return []
        ranking = final_ranking(self.tournament)
        if not any(how == "final" for _place, _team, how in ranking):
            return []
        dq = queries.marks_of(self.tournament)
        return [{"place": place, "team": with_note(team.name, dq, team.pk)} for place, team, _how in ranking]

    def bracket(self) -> list[Section]:
        return [
            Section("public/voms/bracket.html", {"matches": [_series(m) for m in matches]}, str(name))
            for name, matches in queries.knockout_rounds(self.tournament)
        ]

    def results(self) -> list[Section]:
        sections = []
        stage = self._pool_stage()
        if stage is not None:
            for rnd in reversed(self._rounds(stage, with_results=True)):
                played = [g for g in rnd["games"] if g["lus"]]
                if played:
                    title = _("Round %(number)s") % {"number": rnd["number"]}
                    sections.append(Section("public/voms/results.html", {"games": played}, title))
        return self.bracket() + sections

    # --- find my seat --------------------------------------------------------------------------------

    def find(self, query: str) -> Found:
        people, total = find_participants(self.tournament, query)
        if not people:
            return Found([], total)
        teams_of = {p.pk: list(p.teams.all()) for p in people}
        state = queries.pool_state(self.tournament)
        games = self._open_games({t.pk for teams in teams_of.values() for t in teams}, state)
        dq, left = state.disqualified, state.derivation.withdrawn
        sections = [
            Section("public/voms/found.html", {"person": person(p), "teams": [
                {"name": team.name, "withdrawn": team.withdrawn, "evening": evening_link(self.tournament, team),
                 # "disqualified in round 3" or "withdrawn from round 3": out of the tournament from then on
                 "disqualified": state.marks.get(team.pk, ""),
                 # a team withdrawn from a later round still plays the rounds before it
                 "games": [] if team.pk in dq else [
                     game for game in games.get(team.pk, [])
                     if team.pk not in left or (game["round"] or 0) < left[team.pk] and not game["stage"]]}
                for team in teams_of[p.pk]
            ]})
            for p in people
        ]
        return Found(sections, total)

    def _open_games(self, team_ids: set[int], state: queries.PoolState) -> dict[int, list[dict]]:
        """{team: its games still to play, the next first}: round, time, table, opponent (or a bye).

        A game a disqualification decided (a forfeit or a void game) is not to be played: left out; so is a bye
        whose round is over (a bye never gets a slip: it would stay the team's "next game" all evening)."""
        open_round = state.derivation.first_open_round()
        matches = (
            Match.objects.filter(stage__tournament=self.tournament, sheet__isnull=True)
            .select_related("stage", "round", "pool", "team_a", "team_b")
            .order_by("stage__order", "round__number", "table_number", "pk")
        )
        games: dict[int, list[dict]] = {}
        for match in matches:
            result = state.result(match.pk)
            if result is not None and result.entered:
                continue
            if (match.stage.kind == Stage.Kind.POOLS and match.team_b_id is None
                    and (open_round is None or match.round.number < open_round)):
                continue
            for team, opponent in ((match.team_a, match.team_b), (match.team_b, match.team_a)):
                if team is None or team.pk not in team_ids:
                    continue
                games.setdefault(team.pk, []).append({
                    "stage": str(match.stage) if match.stage.kind != Stage.Kind.POOLS else "",
                    "round": match.round.number if match.round else None,
                    "time": time_of_day(match.round.starts_at) if match.round else "",
                    "table": match.table_number,
                    "pool": match.pool.name if match.pool else "",
                    "opponent": opponent.name if opponent else None,
                    "bye": match.stage.kind == Stage.Kind.POOLS and opponent is None,
                })
        return games

    # --- my evening --------------------------------------------------------------------------------

    def evening(self, team) -> list[Section]:
        """A team's evening: every game with its round, time, table and opponent as the schedule has them, and
        whether its slip is in and counted; its pool place (and final place) once the standings are published."""
        state = queries.pool_state(self.tournament)
        matches = (Match.objects.filter(stage__tournament=self.tournament).filter(Q(team_a=team) | Q(team_b=team))
                   .select_related("stage", "round", "pool", "team_a", "team_b", "sheet", "pending_sheet")
                   .order_by("stage__order", "round__number", "table_number", "pk"))
        results = self.tournament.publish_results
        games = [self._evening_game(match, team, state, results) for match in matches]
        sections = [Section("public/evening/voms.html", {
            "team": {"number": team.number, "name": team.name, "withdrawn": team.withdrawn,
                     "mark": state.marks.get(team.pk, ""),
                     "members": [person(m) for m in team.members.order_by("number")]},
            "games": games})]
        if "standings" in published_kinds(self.tournament):
            standing = cached(self.tournament, "evening-standing", self._standing_table).get(team.pk)
            sections.append(Section("public/evening/voms_standing.html", {"standing": standing}))
        return sections

    @staticmethod
    def _evening_game(match: Match, team, state: queries.PoolState, results: bool) -> dict:
        pool = match.stage.kind == Stage.Kind.POOLS
        opponent = match.team_b if match.team_a_id == team.pk else match.team_a
        result = state.result(match.pk) if pool else None
        sheet = getattr(match, "sheet", None)
        if pool and opponent is None:
            shown = "bye"
        elif result is not None and result.disqualified:
            shown = "decided"
        elif sheet is not None:
            shown = "counted"
        elif getattr(match, "pending_sheet", None) is not None:
            shown = "pending"
        else:
            shown = "missing"
        score = ""
        if results and sheet is not None:
            score = _pool_game(match, state)["lus"] if pool else _series(match)["wins"]
        return {
            "stage": "" if pool else str(match.stage), "round": match.round.number if match.round else None,
            "time": time_of_day(match.round.starts_at) if match.round else "", "table": match.table_number,
            "pool": match.pool.name if match.pool else "", "opponent": opponent.name if opponent else None,
            "home": match.team_a_id == team.pk, "sheet": shown, "score": score,
        }

    def _standing_table(self) -> dict[int, dict]:
        """{team: its pool, place and points in the pool; its final place once the final is decided}."""
        tables = pool_tables(self.tournament)
        rows = {row.participant: {"pool": table.pool.name, "rank": row.rank, "points": show_points(
                    row.values["points"]), "played": row.values["played"], "by_lot": row.by_lot,
                    "teams": len(table.rows), "final": None}
                for table in tables for row in table.rows}
        if queries.knockout_stage(self.tournament) is not None:
            ranking = final_ranking(self.tournament, tables)
            if any(how == "final" for _place, _team, how in ranking):
                for place, ranked, _how in ranking:
                    if ranked.pk in rows:
                        rows[ranked.pk]["final"] = place
        return rows

    # --- the beamer ----------------------------------------------------------------------------------

    def slides(self, kinds) -> list[Slide]:
        slides = []
        stage = self._pool_stage()
        if "schedule" in kinds and stage is not None:
            slides += self._current_round_slides(stage)
        if "standings" in kinds:
            slides += [Slide("standings", section) for section in self._standings_pages()]
        if "bracket" in kinds:
            slides += [Slide("bracket", section) for section in self.bracket()]
        return slides

    def _standings_pages(self) -> list[Section]:
        """The standings cut to beamer pages: the final ranking and each pool, BEAMER_ROWS at a time."""
        sections = []
        for section in self.standings():
            key = "places" if "places" in section.data else "rows"
            for chunk in pages(section.data[key], BEAMER_ROWS):
                sections.append(Section(section.template, {**section.data, key: chunk}, section.title))
        return sections

    def _current_round_slides(self, stage: Stage) -> list[Slide]:
        rounds = self._rounds(stage, with_results=False)
        current = next((r for r in rounds if r["current"]), None)
        if current is None or current["done"]:  # after the last round, "who plays where" is over
            return []
        games = [g for g in current["games"] if g["b"] and not g["decided"]]
        title = _("Round %(number)s: who plays where") % {"number": current["number"]}
        return [
            Slide("schedule", Section("public/voms/beamer_round.html", {"games": chunk, "time": current["time"]},
                                      title))
            for chunk in pages(games, BEAMER_ROWS)
        ]


    def clock_round(self):
        """The pool round on the beamer ("Round 2: who plays where": the first with a game still waiting, games a
        disqualification decides counting as played), after the pools the knockout's round still to play."""
        from tournament.services.clock import playing_round

        stage = self._pool_stage()
        if stage is not None:
            number = queries.pool_state(self.tournament, stage).derivation.first_open_round()
            if number is not None:
                return stage.rounds.select_related("stage").filter(number=number).first()
        later = playing_round(self.tournament, Round.objects.filter(stage__tournament=self.tournament)
                              .exclude(stage__kind=Stage.Kind.POOLS))
        if later is not None:
            return later
        return stage.rounds.select_related("stage").order_by("-number").first() if stage is not None else None


def public(tournament) -> VomsPublic:
    return VomsPublic(tournament)
