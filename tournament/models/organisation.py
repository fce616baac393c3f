"""Clubs on one server: an `Organisation` (a club, in the pages) is the tenant its tournaments, seasons, player
register and audit entries belong to; a `Membership` says who works for it, and as what.

A laptop installation is one club, made without any step of its own (`default_organisation`): its pages never
mention it. On a server shared by clubs, every query of a club's data goes through `ClubQuerySet.of` (the managers
of `Tournament`, `Season`, `Person` and `AuditEntry`), asked with the clubs `tournament.tenancy` gives a user.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ..prepared import Prepared

#: letters of the clubs' languages that have no plain-letter form for `slugify` (it drops them: "Prøveaften"
#: became "prveaften"), written as Danish and German write them without the letter
SLUG_LETTERS = str.maketrans({"æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe", "ß": "ss", "ẞ": "Ss"})


def address_slug(name: str) -> str:
    """A short name in addresses (club, tournament, season): "Prøveaften i Næstved" → "proeveaften-i-naestved"."""
    return slugify(name.translate(SLUG_LETTERS))


#: words a club's short name may not be: they read as addresses of their own after /c/
RESERVED_CLUB_SLUGS = frozenset({"new", "c", "p", "t", "api", "admin", "manage", "static", "media", "accounts",
                                 "hall", "setup", "i18n", "healthz"})


class Organisation(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    #: the club's short name in the addresses of a server of several clubs (/c/<slug>/…; tournament/clubaddress.py)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    #: the federation the club belongs to (tournament/models/federation.py); none on a laptop
    federation = models.ForeignKey("tournament.Federation", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="clubs", verbose_name=_("federation"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = Organisation.unique_slug(self.name)
        super().save(*args, **kwargs)

    @staticmethod
    def unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
        """A short name from `name` that no other club has and that is no reserved word (`-2`, `-3`, … appended)."""
        base = address_slug(name)[:50] or "club"
        taken = Organisation.objects.exclude(pk=exclude_pk)
        slug, n = base, 2
        while slug in RESERVED_CLUB_SLUGS or taken.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        return slug


#: the one club of an installation that has none yet (a fresh laptop): named so until its admin renames it
FIRST_CLUB_NAME = "Club"


def default_organisation() -> int:
    """The club of a row saved without one: the installation's only club (made on first use). On a server with
    several clubs there is no such default: the service that creates the row must name its club, and a code path
    that forgot to is an error here, never a row slipped into another club."""
    clubs = _FIRST_TWO_CLUBS.all()
    if not clubs:
        return Organisation.objects.get_or_create(name=FIRST_CLUB_NAME)[0].pk
    if len(clubs) > 1:
        raise ValueError("This server has several clubs: name the club of the new row.")
    return clubs[0]


#: asked on every director page of a laptop (the top bar's "directs the only club"): compiled once
_FIRST_TWO_CLUBS = Prepared(Organisation, lambda: Organisation.objects.order_by("pk").values_list("pk", flat=True)[:2])


class MemberRole(models.TextChoices):
    ADMIN = "admin", _("Club admin")
    DIRECTOR = "director", _("Director")
    ASSISTANT = "assistant", _("Assistant")


#: the roles that direct: create tournaments and seasons, keep the club's player register
DIRECTING = (MemberRole.ADMIN, MemberRole.DIRECTOR)


class Membership(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships",
                                     verbose_name=_("club"))
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=12, choices=MemberRole.choices, default=MemberRole.DIRECTOR)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organisation", "user__username"]
        constraints = [models.UniqueConstraint(fields=["organisation", "user"], name="one_membership_per_club")]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} – {self.organisation}"


class ClubQuerySet(models.QuerySet):
    """The rows of one club, or of several (`of(club)`, `of(clubs)`: an `Organisation`, its pk, or a list or query
    of them); the one place a club's data is scoped."""

    def of(self, clubs):
        if isinstance(clubs, Organisation | int):
            return self.filter(organisation=clubs)
        return self.filter(organisation__in=clubs)


def organisation_field(**extra) -> models.ForeignKey:
    """The link of a club's row to its club."""
    return models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="+", verbose_name=_("club"), **extra)


class ClubRow(models.Model):
    """A row of a club (tournament, season, register entry): saved without a club, it goes to the installation's
    only club (`default_organisation`; a laptop). Filled at saving, not as the field's default: a default would ask
    the database whenever an instance is made in memory (a form's empty instance, a tournament's status sketch)."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.organisation_id is None:
            self.organisation_id = default_organisation()
        super().save(*args, **kwargs)
