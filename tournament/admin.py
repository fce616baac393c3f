"""The Django admin, for directors: they see and change only their own tournaments."""

from django.contrib import admin

from .models import AuditEntry, Role, Tournament, TournamentRole


class OwnTournamentsMixin:
    tournament_path = "tournament"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        mine = TournamentRole.objects.filter(user=request.user, role=Role.DIRECTOR).values("tournament_id")
        return qs.filter(**{f"{self.tournament_path}__in": mine})


class TournamentRoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 1


@admin.register(Tournament)
class TournamentAdmin(OwnTournamentsMixin, admin.ModelAdmin):
    tournament_path = "pk"
    list_display = ("name", "game", "date", "venue", "status", "archived")
    list_filter = ("game", "status", "archived")
    search_fields = ("name", "venue")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_by", "created", "updated")
    inlines = [TournamentRoleInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(OwnTournamentsMixin, admin.ModelAdmin):
    list_display = ("when", "user", "action", "object_repr", "tournament")
    list_filter = ("action",)
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
