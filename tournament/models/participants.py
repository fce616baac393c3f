"""Who plays: participants (individual players) and teams of them."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class CheckIn(models.Model):
    """What the registration desk records on the evening: arrived, and paid (how much, where there is a fee)."""

    arrived = models.BooleanField(_("arrived"), default=False)
    paid = models.BooleanField(_("paid"), default=False)
    #: the amount taken at the desk; None where the tournament has no entry fee
    paid_amount = models.DecimalField(_("amount paid"), max_digits=8, decimal_places=2, null=True, blank=True)

    class Meta:
        abstract = True


class Participant(CheckIn):
    """A registered player. The participant number is stable: withdrawn players keep theirs."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXCLUDED = "excluded", _("Excluded")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="participants")
    number = models.PositiveIntegerField(_("participant number"))
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    #: players of the same group (a family, say) are kept at different tables when possible
    group = models.CharField(_("group"), max_length=80, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.TextField(_("reason"), blank=True, max_length=500)  # services.text.MAX_REASON
    #: the director's tick: eligible for a prize although he did not play every round (scoring.withdrawals)
    prize_eligible = models.BooleanField(_("eligible for a prize although he did not play every round"),
                                         default=False)
    created = models.DateTimeField(auto_now_add=True)
    #: who this is in the installation's player register (tournament/models/season.py): what seasons count by
    person = models.ForeignKey("tournament.Person", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="participations", verbose_name=_("person in the register"))

    class Meta(CheckIn.Meta):
        abstract = False
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="participant_number_unique")]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}".strip(", ")


class Team(CheckIn):
    """A side of 1 or 2 players (Voms: a *hold*)."""

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(_("team number"))
    name = models.CharField(_("team name"), max_length=120)
    members = models.ManyToManyField(Participant, related_name="teams", blank=True, verbose_name=_("players"))
    #: seeded teams are kept in different pools by the draw
    seeded = models.BooleanField(_("seeded"), default=False)
    #: withdrawn before the pool draw (or while in no pool): plays no game at all
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    #: left the evening: withdrawn from this pool round on (Voms, voms.md "a team leaves early"); its games from
    #: then on count 9:0 for the opponents, its earlier results stand
    withdrawn_from_round = models.PositiveSmallIntegerField(_("withdrawn from round"), null=True, blank=True)

    class Meta(CheckIn.Meta):
        abstract = False
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique")]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name
