"""The Django admin: reading tournaments and their audit log, and giving roles.

Tournament data is read-only here: every change goes through the app's pages and their
services (validation, audit log), which the admin's generic forms would bypass. The one thing
the admin changes is who holds which role in a tournament (there is no other page for it), and
that goes through `tournament.services.roles` too. Accounts are managed in Django's user admin.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from .models import AuditEntry, Role, Tournament, TournamentRole
from .services import roles
from .services.errors import DomainError
from .tenancy import members_of, organisations_of


def directed_by(user):
    """The tournaments `user` directs (every one for a superuser)."""
    if user.is_superuser:
        return Tournament.objects.all()
    mine = TournamentRole.objects.filter(user=user, role=Role.DIRECTOR).values("tournament_id")
    return Tournament.objects.filter(pk__in=mine)


def club_members(user):
    """The users who may get a role from `user`: the members of the clubs `user` works for (every account on a
    laptop's one club; every account for a superuser)."""
    if user.is_superuser:
        return get_user_model().objects.filter(is_active=True)
    found = get_user_model().objects.none()
    for club in organisations_of(user):
        found |= members_of(club)
    return found.distinct().order_by(get_user_model().USERNAME_FIELD)


class OwnTournamentsMixin:
    tournament_path = "tournament"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.tournament_path}__in": directed_by(request.user)})


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TournamentRoleInline(ReadOnlyMixin, admin.TabularInline):
    model = TournamentRole
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(OwnTournamentsMixin, ReadOnlyMixin, admin.ModelAdmin):
    tournament_path = "pk"
    list_display = ("name", "game", "date", "venue", "status", "archived")
    list_filter = ("game", "status", "archived")
    search_fields = ("name", "venue")
    inlines = [TournamentRoleInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(OwnTournamentsMixin, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("when", "user", "action", "object_repr", "tournament")
    list_filter = ("action",)


class TournamentRoleForm(forms.ModelForm):
    #: the admin's user, set by TournamentRoleAdmin.get_form
    by = None

    class Meta:
        model = TournamentRole
        fields = ("tournament", "user", "role")

    def clean(self):
        cleaned = super().clean()
        tournament = cleaned.get("tournament", getattr(self.instance, "tournament", None))
        user = cleaned.get("user", getattr(self.instance, "user", None))
        if tournament is not None and user is not None and cleaned.get("role"):
            try:
                roles.check_role_change(tournament, user, cleaned["role"], by=self.by)
            except DomainError as error:
                raise ValidationError(error.message) from error
        return cleaned


@admin.register(TournamentRole)
class TournamentRoleAdmin(OwnTournamentsMixin, admin.ModelAdmin):
    """Who is director or assistant where; each change is in the tournament's audit log."""

    form = TournamentRoleForm
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)
    search_fields = ("tournament__name", "user__username")

    def get_readonly_fields(self, request, obj=None):
        # an existing role changes its kind only; another person or tournament is a new role
        return ("tournament", "user") if obj is not None else ()

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.by = request.user
        return form

    def has_delete_permission(self, request, obj=None):
        if not super().has_delete_permission(request, obj):
            return False
        if obj is None:
            return True
        try:
            roles.check_role_change(obj.tournament, obj.user, None, by=request.user)
        except DomainError:
            return False  # e.g. the tournament's last director
        return True

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "tournament":
            kwargs["queryset"] = directed_by(request.user)
        if db_field.name == "user":
            kwargs["queryset"] = club_members(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        saved = roles.set_role(obj.tournament, obj.user, obj.role, by=request.user)
        obj.pk = saved.pk

    def delete_model(self, request, obj):
        roles.remove_role(obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for held in queryset.select_related("tournament", "user"):
            try:
                roles.remove_role(held, by=request.user)
            except DomainError as error:
                self.message_user(request, f"{held}: {error.message}", messages.ERROR)
