"""Laptop ↔ server (issue 26): a club's API tokens on the server, and the club server a laptop pushes to.

`ApiToken` (on the server): a club admin makes one on the club page for a laptop or a club's program. Only the
SHA-256 of the token is stored; the token itself is shown once, when it is made. A token acts for its club only,
with the rights of the member who made it, as far as its scopes allow (tournament/services/api_tokens.py).

`ClubServer` (on the laptop): where the laptop sends its tournaments' files, and the token it sends with them. The
laptop must send the token, so it keeps it as it was given (a hash could not be sent); pages show it masked.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .organisation import Organisation


class TokenScope(models.TextChoices):
    PUSH = "push", _("Send tournament files")
    READ = "read", _("Read the club's tournaments")


class ApiToken(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="api_tokens",
                                     verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=80)
    #: what the token may do: a list of `TokenScope` values
    scopes = models.JSONField(_("scopes"), default=list)
    #: the SHA-256 (hex) of the token: the token itself is never stored
    token_hash = models.CharField(max_length=64, unique=True)
    #: the token's first characters, to tell tokens apart in lists and the audit log (not enough to guess it)
    hint = models.CharField(max_length=12)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+", verbose_name=_("made by"))
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("revoked by"))

    class Meta:
        ordering = ["organisation", "-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def scope_labels(self) -> list[str]:
        return [str(TokenScope(scope).label) for scope in self.scopes if scope in TokenScope.values]


class ClubServer(models.Model):
    """The club's server as this laptop knows it: one row per club of the laptop (a laptop has one)."""

    organisation = models.OneToOneField(Organisation, on_delete=models.CASCADE, related_name="club_server",
                                        verbose_name=_("club"))
    url = models.URLField(_("server address"), max_length=300)
    #: as the club admin gave it: the laptop sends it with every push (docs/laptop-server.md)
    token = models.CharField(_("token"), max_length=200)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("club server")
        verbose_name_plural = _("club servers")

    def __str__(self) -> str:
        return self.url

    @property
    def masked_token(self) -> str:
        return f"{self.token[:8]}…" if len(self.token) > 12 else "…"
