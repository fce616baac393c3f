from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def ensure_directors_group(sender, **kwargs):
    """The "Directors" group may create tournaments and use the admin for their own."""
    from django.contrib.auth.models import Group, Permission

    from .permissions import DIRECTORS_GROUP

    group, _created = Group.objects.get_or_create(name=DIRECTORS_GROUP)
    wanted = Permission.objects.filter(
        content_type__app_label="tournament",
        codename__in=["add_tournament", "change_tournament", "view_tournament", "view_auditentry",
                      "add_tournamentrole", "change_tournamentrole", "delete_tournamentrole", "view_tournamentrole"],
    )
    group.permissions.add(*wanted)


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self):
        from django.core.signals import request_started
        from django.db.backends.signals import connection_created

        from . import checks  # noqa: F401 (registers the system checks)
        from .backup import check_pending_backups
        from .sqlite_connections import drop_if_replaced, remember_file

        post_migrate.connect(ensure_directors_group, sender=self)
        # SQLite connections are kept between requests; one whose file was replaced (a restore) is dropped first
        connection_created.connect(remember_file, dispatch_uid="tournament.sqlite_file")
        request_started.connect(drop_if_replaced, dispatch_uid="tournament.sqlite_replaced")
        # automatic backups still owed (a server killed after a round's commit) are made soon after a start
        request_started.connect(check_pending_backups, dispatch_uid="tournament.check_pending_backups")
