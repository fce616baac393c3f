"""Tournaments and who may do what in them."""

import functools
import re
import secrets
import uuid
import zoneinfo

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .organisation import ClubQuerySet, ClubRow, address_slug, organisation_field


def new_evening_nonce() -> str:
    """A fresh nonce for the players' personal links (tournament/public/evening_links.py)."""
    return secrets.token_hex(16)


def installation_time_zone() -> str:
    """A new tournament's venue time zone: the installation's (TIME_ZONE from the environment)."""
    return django_settings.TIME_ZONE


@functools.cache
def time_zone_names() -> frozenset[str]:
    """The time zones of the system's tz database, read once per process: `zoneinfo.available_timezones()` walks
    the database's ~600 files on every call (14 ms), and the names cannot change under a running server."""
    return frozenset(zoneinfo.available_timezones())


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(time_zone_names())]


def validate_time_zone(name: str) -> None:
    if name not in time_zone_names():
        raise ValidationError(_("Unknown time zone: %(zone)s"), params={"zone": name}, code="unknown_time_zone")


#: the form of a game's key; which keys are games the registry knows (`scoring.games.is_game`), asked by the
#: services that store one (tournament.services.tournaments, seasons, tournament.transfer): the models never
#: import the registry, which imports the games, which import the models
GAME_KEY = re.compile(r"[a-z][a-z0-9_]*")


def validate_game(key: str) -> None:
    if not GAME_KEY.fullmatch(key):
        raise ValidationError(_("Unknown game: %(game)s"), params={"game": key}, code="unknown_game")


class Tournament(ClubRow):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    #: the club the tournament belongs to (tournament/models/organisation.py)
    organisation = organisation_field()
    name = models.CharField(_("name"), max_length=120)
    #: unique within the club (the addresses of a server of several clubs carry the club: tournament/clubaddress.py)
    slug = models.SlugField(_("short name in addresses"), max_length=80)
    #: the tournament's identity wherever its file goes (tournament/transfer.py): uploading the file again updates
    #: the copy of the same identity instead of making another
    uid = models.UUIDField(_("identity"), default=uuid.uuid4, unique=True, editable=False)
    # No `choices` here: games come from the registry, and adding one must not need a migration.
    game = models.CharField(_("game"), max_length=40, validators=[validate_game])
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    language = models.CharField(
        _("language of printouts"),
        max_length=8,
        choices=django_settings.LANGUAGES,
        default=django_settings.LANGUAGE_CODE,
    )
    #: every date and time of the tournament (pages, printouts, exports, public pages) is shown in it
    time_zone = models.CharField(
        _("time zone of the venue"), max_length=64, default=installation_time_zone, validators=[validate_time_zone],
        help_text=_("Times on every page, printout and export are shown as the clocks at the venue show them."),
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PLANNED)
    archived = models.BooleanField(_("archived"), default=False)
    #: the game's per-tournament settings (the defaults of docs/rules/ until the director changes them)
    settings = models.JSONField(_("game settings"), default=dict, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    # The public pages (tournament/public/): each kind is published on its own, all off until the director says so.
    publish_schedule = models.BooleanField(_("publish the schedule and seating"), default=False)
    publish_standings = models.BooleanField(_("publish the standings"), default=False)
    publish_bracket = models.BooleanField(_("publish the bracket"), default=False)
    publish_results = models.BooleanField(_("publish the results"), default=False)
    #: each player's (Voms: each team's) personal "my evening" link is derived from it with the secret key;
    #: a new nonce withdraws all of them at once (tournament/public/evening_links.py)
    evening_nonce = models.CharField(max_length=32, default=new_evening_nonce, editable=False)
    #: a score sheet counts only once a second person confirmed it or entered it identically (issue #5)
    double_entry = models.BooleanField(
        _("double entry of score sheets"),
        default=False,
        help_text=_("A sheet counts only once a second person has confirmed it or entered it again identically."),
    )
    #: what each participant (a team in Voms) pays at the desk; empty: no entry fee
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=8, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Per player (per team in a team game). Empty: no entry fee."),
    )
    #: a list sent from a table's private link counts at once, without the referee table confirming it
    link_entries_count = models.BooleanField(
        _("table entries count at once"),
        default=False,
        help_text=_("A list a table sends from its private link counts at once (still logged and correctable). "
                    "Off: the referee table confirms it first."),
    )
    #: each seat (each Voms team) has its own link; a sheet counts once two of them send the same
    agreeing_reports_count = models.BooleanField(
        _("two agreeing reports count"),
        default=False,
        help_text=_("Each seat (each team in Voms) gets its own link. When two of them send the same list, it counts "
                    "without the referee table; when they differ, the referee table compares and decides."),
    )
    beamer_seconds = models.PositiveSmallIntegerField(
        _("seconds per beamer page"), default=15, validators=[MinValueValidator(5), MaxValueValidator(300)]
    )
    #: the season this tournament is an evening of (tournament/models/season.py)
    season = models.ForeignKey("tournament.Season", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="tournaments", verbose_name=_("season"))
    #: the federation's season (a league) this tournament also counts in (tournament/models/federation.py)
    federation_season = models.ForeignKey("tournament.FederationSeason", on_delete=models.SET_NULL, null=True,
                                          blank=True, related_name="tournaments",
                                          verbose_name=_("federation season"))
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        constraints = [models.UniqueConstraint(fields=["organisation", "slug"], name="tournament_slug_per_club")]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:detail", kwargs={"slug": self.slug})

    def clean(self) -> None:
        super().clean()
        if self.link_entries_count and self.agreeing_reports_count:
            raise ValidationError({"agreeing_reports_count": _(
                "A list cannot count at once and also wait for a second agreeing report: choose one of the two.")})

    #: slugs that are addresses of their own under /manage/
    RESERVED_SLUGS = frozenset({"new", "import", "register", "seasons", "backups", "club", "federation"})

    @staticmethod
    def unique_slug(name: str, organisation) -> str:
        """A slug from `name` that no other tournament of the club has (`-2`, `-3`, … appended)."""
        base = address_slug(name)[:70] or "tournament"
        taken = Tournament.objects.of(organisation)
        slug, n = base, 2
        while slug in Tournament.RESERVED_SLUGS or taken.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        return slug


class Role(models.TextChoices):
    DIRECTOR = "director", _("Director")
    ASSISTANT = "assistant", _("Assistant")


class TournamentRole(models.Model):
    """A user's role in one tournament: directors run it, assistants enter score sheets."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_tournament")]
        verbose_name = _("role")
        verbose_name_plural = _("roles")

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} – {self.tournament}"
