"""A federation above clubs (issue 26): its register of members with stable numbers, its admins, its seasons.

A `Federation` has admins of its own (`FederationAdmin`, no club role) and member clubs (`Organisation.federation`).
Its register (`FederationMember`) holds a person once for all its clubs: a member number the federation assigns
(unique within it, never reused, never changed), a name and a home club, no contacts (those stay in the clubs'
registers, `Person`, which link to a member). A merge retires a number: it still resolves to the member kept
(`merged_into`), so an old file's number finds the right person. A `FederationSeason` (a league) counts the evenings
of member clubs that join it, each player once by member number (tournament/services/federation.py).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .organisation import Organisation
from .season import SeasonSettings


class Federation(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    #: the last member number given: numbers count up from it and are never given twice
    last_number = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name


class FederationAdmin(models.Model):
    """A user who keeps the federation's register and seasons; a role of the federation, not of a club."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="admins")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="federation_admins")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["federation", "user"], name="one_admin_role_per_federation")]
        verbose_name = _("federation admin")
        verbose_name_plural = _("federation admins")

    def __str__(self) -> str:
        return f"{self.user} – {self.federation}"


class FederationMember(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="members")
    number = models.PositiveIntegerField(_("member number"))
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    last_name = models.CharField(_("last name"), max_length=80)
    home_club = models.ForeignKey(Organisation, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                  verbose_name=_("home club"))
    #: a merged (retired) number: the member kept, whose number it resolves to
    merged_into = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["federation", "number"], name="one_member_per_number")]
        verbose_name = _("federation member")
        verbose_name_plural = _("federation members")

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class FederationSeason(SeasonSettings):
    """A league of the federation: the evenings of member clubs that joined it (`Tournament.federation_season`)."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="seasons")
    #: unique on the server: its public address (/p/federation-seasons/<slug>/) carries no club
    slug = models.SlugField(_("short name in addresses"), max_length=80, unique=True)

    class Meta:
        ordering = ["-created", "name"]
        verbose_name = _("federation season")
        verbose_name_plural = _("federation seasons")

    def get_absolute_url(self) -> str:
        return reverse("federation:season", args=[self.slug])
