"""The player register of a club and seasons: named series of tournaments of one game.

A `Person` is someone who plays in many tournaments; a tournament's `Participant` may link to one, which is
how a season knows that the Anna Huber of March is the Anna Huber of April. A `Season` groups tournaments
of one game and says how its ranking counts them (scoring/rules/season.py does the counting).
"""

import uuid

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .organisation import ClubQuerySet, ClubRow, address_slug, organisation_field
from .tournament import validate_game


class Person(ClubRow):
    """One entry of a club's player register. The contact is for the club's directors only: never on a public page
    or printout, never shown to another club."""

    organisation = organisation_field()
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True,
                               help_text=_("Telephone or e-mail; seen by directors only."))
    #: the federation's member this entry is (tournament/models/federation.py); none without a federation
    member = models.ForeignKey("tournament.FederationMember", on_delete=models.PROTECT, null=True, blank=True,
                               related_name="entries", verbose_name=_("federation member"))
    #: the club asked its federation for a member number for this entry (its admin assigns one)
    member_requested = models.BooleanField(default=False, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["last_name", "first_name", "club", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    def get_absolute_url(self) -> str:
        return reverse("register:person", args=[self.pk])

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class SeasonSettings(models.Model):
    """What a season is and how its ranking counts its evenings: a club's `Season` and a federation's season
    (tournament/models/federation.py) alike (scoring/rules/season.py does the counting)."""

    class Scoring(models.TextChoices):
        PLACES = "places", _("Points per place")
        GAME_POINTS = "game_points", _("The game's own points")

    name = models.CharField(_("name"), max_length=120)
    #: unique within the club (the addresses of a server of several clubs carry the club: tournament/clubaddress.py)
    slug = models.SlugField(_("short name in addresses"), max_length=80)
    #: the season's identity wherever its evenings' files go: an evening imported elsewhere joins the season of
    #: this identity there (tournament/transfer.py)
    uid = models.UUIDField(_("identity"), default=uuid.uuid4, unique=True, editable=False)
    game = models.CharField(_("game"), max_length=40, validators=[validate_game])
    language = models.CharField(_("language of printouts"), max_length=8, choices=django_settings.LANGUAGES,
                                default=django_settings.LANGUAGE_CODE)
    scoring = models.CharField(_("ranking by"), max_length=12, choices=Scoring.choices, default=Scoring.PLACES)
    #: points for 1st, 2nd, ... place (strings of decimals); places beyond the table get nothing
    place_points = models.JSONField(_("points per place"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(
        _("best evenings counting"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(999)],
        help_text=_("Empty: every evening counts."))
    min_evenings = models.PositiveSmallIntegerField(
        _("evenings needed to be ranked"), default=1, validators=[MinValueValidator(1), MaxValueValidator(999)])
    publish = models.BooleanField(_("publish the season ranking"), default=False)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("created by"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @classmethod
    def unique_slug(cls, name: str) -> str:
        base = address_slug(name)[:70] or "season"
        slug, n = base, 2
        while slug in {"new"} or cls.objects.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        return slug


class Season(SeasonSettings, ClubRow):
    organisation = organisation_field()
    directors = models.ManyToManyField(django_settings.AUTH_USER_MODEL, related_name="seasons",
                                       verbose_name=_("directors"))

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "name"]
        constraints = [models.UniqueConstraint(fields=["organisation", "slug"], name="season_slug_per_club")]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def get_absolute_url(self) -> str:
        return reverse("seasons:detail", args=[self.slug])

    @staticmethod
    def unique_slug(name: str, organisation) -> str:
        """A slug from `name` that no other season of the club has (`-2`, `-3`, … appended)."""
        base = address_slug(name)[:70] or "season"
        taken = Season.objects.of(organisation)
        slug, n = base, 2
        while slug in {"new"} or taken.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        return slug
