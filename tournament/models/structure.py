"""Where they play: draws, stages, pools, rounds, matches, tables and seats."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Draw(models.Model):
    """A random draw, kept with its seed so it can be reproduced and printed."""

    class Kind(models.TextChoices):
        PARTNERS = "partners", _("Partners")
        POOLS = "pools", _("Pools")
        SEATING = "seating", _("Seating")
        LOT = "lot", _("Lot for the standings")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    seed = models.BigIntegerField(_("seed"))
    params = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")

    class Meta:
        ordering = ["-created", "-id"]
        get_latest_by = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.seed}"


class Stage(models.Model):
    """A part of the tournament: the pool round robin, the knockout, the seated rounds."""

    class Kind(models.TextChoices):
        POOLS = "pools", _("Preliminary round")
        KNOCKOUT = "knockout", _("Knockout")
        SEMIFINAL_POOL = "semifinal_pool", _("Semifinal round robin")
        ROUNDS = "rounds", _("Rounds")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="stages")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    order = models.PositiveSmallIntegerField(default=0)
    settings = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "kind"], name="one_stage_per_kind")]

    def __str__(self) -> str:
        return str(self.get_kind_display())


class Pool(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="pools")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(_("pool"), max_length=8)
    teams = models.ManyToManyField("tournament.Team", through="PoolEntry", related_name="pools")

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["stage", "index"], name="pool_index_unique")]

    def __str__(self) -> str:
        return self.name


class PoolEntry(models.Model):
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey("tournament.Team", on_delete=models.CASCADE, related_name="pool_entries")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["pool", "team"], name="team_once_per_pool")]

    def __str__(self) -> str:
        return f"{self.pool_id}/{self.position}"


class Round(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    slot_minutes = models.PositiveSmallIntegerField(_("slot length in minutes"), default=20)
    # The round clock the director runs (tournament/services/clock.py); `starts_at` above is the planned time.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    #: set while the clock is paused
    clock_paused_at = models.DateTimeField(_("clock paused at"), null=True, blank=True)
    #: pauses that have ended, added up
    clock_paused_seconds = models.PositiveIntegerField(_("seconds paused"), default=0)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return str(_("Round %(number)s") % {"number": self.number})


class Match(models.Model):
    """Two teams meeting: one game in a pool, or a best-of-N series in the knockout."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="matches")
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, null=True, blank=True, related_name="matches")
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    team_a = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, null=True, blank=True, related_name="matches_as_a"
    )
    team_b = models.ForeignKey(
        "tournament.Team", on_delete=models.PROTECT, null=True, blank=True, related_name="matches_as_b"
    )
    #: the bracket's name for a knockout match ("SF1", "F", "3P"); empty in pools
    key = models.CharField(max_length=8, blank=True)
    best_of = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["round__number", "table_number", "id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.team_a or '?'} – {self.team_b or '?'}"


class Table(models.Model):
    """A numbered table in one round of a seated game (Schafkopf, Domino, ...)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["round__number", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]

    def __str__(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number})


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    participant = models.ForeignKey("tournament.Participant", on_delete=models.PROTECT, related_name="seats")
    #: who actually plays the seat after a drop-out; points go to the seat's participant unless
    #: the director chose to credit the substitute
    substitute = models.ForeignKey(
        "tournament.Participant", on_delete=models.PROTECT, null=True, blank=True, related_name="substitute_seats"
    )
    points_to_substitute = models.BooleanField(default=False)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique")]

    def __str__(self) -> str:
        return str(_("Seat %(number)s") % {"number": self.number})
