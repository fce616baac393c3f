"""Backup and restore from the browser: the installation's administrator (a superuser) only; anyone else gets 404.

/manage/backups/: download a backup (the file `manage.py backup` writes) and upload one to restore. An upload
goes to a confirmation page that names what is replaced; only its button restores (tournament/services/backups.py).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import logout
from django.contrib.auth.mixins import AccessMixin
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from ..backup import BackupError, create_backup
from ..services import backups


class BackupFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Backup file (.sqlite3)"),
                           help_text=gettext_lazy("A file made by “Download a backup” or by “manage.py backup”."))


class AdministratorRequiredMixin(AccessMixin):
    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not backups.may_manage_backups(request.user):
            raise Http404
        return super().dispatch(request, *args, **kwargs)


def _page(request, *, form=None, error="", status=200):
    return render(request, "tournament/backups.html", {
        "form": form or BackupFileForm(), "error": error, "restorable": backups.restorable_here(),
    }, status=status)


class BackupsView(AdministratorRequiredMixin, View):
    """GET: the page. POST action=download: a new backup, sent as a download; action=upload: check the file and
    show what restoring it would replace."""

    def get(self, request):
        return _page(request)

    def post(self, request):
        if request.POST.get("action") == "download":
            return self._download(request)
        form = BackupFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return _page(request, form=form, status=400)
        if not backups.restorable_here():
            return _page(request, form=form, error=_("This server's database is not an SQLite file: restore with "
                                                     "“manage.py restore” with the server stopped "
                                                     "(docs/operations.md)."), status=400)
        try:
            path = backups.store_upload(form.cleaned_data["file"])
        except BackupError as error:
            return _page(request, form=form, error=_("Nothing was restored: %(why)s") % {"why": error}, status=400)
        return render(request, "tournament/backup_confirm.html", {
            "summary": backups.summarize(path), "upload": path.name, "original": form.cleaned_data["file"].name,
        })

    def _download(self, request):
        try:
            path = create_backup()
        except BackupError as error:
            return _page(request, error=_("No backup was made: %(why)s") % {"why": error}, status=500)
        return FileResponse(open(path, "rb"), as_attachment=True, filename=path.name)  # noqa: SIM115 (closed by it)


class RestoreView(AdministratorRequiredMixin, View):
    """The confirmation page's button: restore the uploaded backup it names."""

    http_method_names = ["post"]

    def post(self, request):
        try:
            path = backups.uploaded(request.POST.get("upload", ""))
            summary = backups.summarize(path)
            safety = backups.restore_upload(path)
        except BackupError as error:
            return _page(request, error=_("Nothing was restored: %(why)s") % {"why": error}, status=400)
        # the sessions are the backup's now: whoever restored signs in again (nothing may be saved in this one)
        logout(request)
        return render(request, "tournament/backup_restored.html", {"summary": summary, "safety": safety})
