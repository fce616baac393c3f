"""Moving a tournament between machines: download it as JSON, import such a file as a new tournament, or update
the tournament of the file's identity with it (tournament/transfer_update.py).

The import has two steps. The uploaded file is checked by a full trial import (nothing saved) and kept in the
database (`ImportUpload`: step 2 may be answered by another app server) under a random token held in the
importer's session; the second step shows what the file holds and the roles it gives other users, and the importer
chooses which to keep (none by default: on a server shared by clubs, a role is access to the tournament) before the
tournament is created. A file of a tournament that is here already says so there: its director updates it
(the default) or imports a new copy; anyone else may only ask for a new copy. A file not imported within a day is
forgotten.
"""

import datetime
import json
import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, View

from ..addresses import public_path
from ..clubaddress import club_address
from ..models import ImportUpload
from ..permissions import DirectorRequiredMixin, can_create_tournaments
from ..transfer import (
    TransferError,
    check_tournament_file,
    export_filename,
    export_tournament,
    import_tournament,
    max_import_bytes,
)
from ..transfer_update import planned_update, update_tournament

UPDATE, NEW = "update", "new"

SESSION_KEY = "tournament_import"
#: a file not imported within this time is forgotten
STASH_SECONDS = 24 * 3600


class ExportJSONView(DirectorRequiredMixin, View):
    http_method_names = ["get"]

    def get(self, request, slug):
        response = HttpResponse(export_tournament(self.tournament), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{export_filename(self.tournament)}"'
        return response


# --- the uploaded file between the two steps ---------------------------------------------------------


def stash(request, data: bytes) -> None:
    """Keep the checked file for the second step, in the database (any app server may answer step 2); forget
    files older than a day."""
    ImportUpload.objects.filter(uploaded_at__lt=timezone.now() - datetime.timedelta(seconds=STASH_SECONDS)).delete()
    discard(request)
    token = secrets.token_urlsafe(24)
    ImportUpload.objects.create(token=token, user=request.user, data=data)
    request.session[SESSION_KEY] = token


def _kept(request):
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str):
        return ImportUpload.objects.none()
    return ImportUpload.objects.filter(token=token, user=request.user)


def stashed(request) -> bytes | None:
    data = _kept(request).filter(
        uploaded_at__gte=timezone.now() - datetime.timedelta(seconds=STASH_SECONDS)
    ).values_list("data", flat=True).first()
    return bytes(data) if data is not None else None


def discard(request) -> None:
    _kept(request).delete()
    request.session.pop(SESSION_KEY, None)


# --- the two steps -------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Tournament file (.json)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json", "autofocus": True}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        # refuse by the declared size before reading a huge upload into memory
        if upload.size > max_import_bytes():
            raise forms.ValidationError(
                _("The file is larger than %(limit)s MB.") % {"limit": max_import_bytes() // (1024 * 1024)}
            )
        return upload


class RolesForm(forms.Form):
    keep = forms.MultipleChoiceField(
        label=gettext_lazy("Roles to keep"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Only the roles ticked here are given; you become the tournament's director."),
    )

    def __init__(self, roles, *args, people=(), existing=None, may_update=False, older=False, **kwargs):
        super().__init__(*args, **kwargs)
        if existing is not None:
            # the file is a tournament here: its director updates it or makes a copy; anyone else only a copy
            choices = [(NEW, _("Import as a new tournament, a copy of its own"))]
            if may_update:
                choices.insert(0, (UPDATE, _("Update “%(name)s” with this file") % {"name": existing.name}))
            self.fields["action"] = forms.ChoiceField(
                label=_("This tournament is on this server already"), choices=choices, widget=forms.RadioSelect,
                initial=UPDATE if may_update else None)
            if may_update and older:
                self.fields["older_ok"] = forms.BooleanField(
                    label=_("Replace it with the older file all the same"), required=False)
        self.fields["keep"].choices = [
            (role.username, _("%(user)s as %(role)s") % {"user": role.username, "role": role.role_label})
            for role in roles if role.known
        ]
        # the file's people whose register entry is unsure: the importer answers for each
        self.people = list(people)
        for index, person in enumerate(self.people):
            self.fields[f"person_{index}"] = forms.ChoiceField(
                label=person.label, widget=forms.RadioSelect,
                choices=[(str(pk), _("the same person as %(entry)s (register entry %(number)s)")
                          % {"entry": label, "number": pk}) for pk, label in person.candidates]
                + [("new", _("someone else: a new register entry"))])

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("action") == UPDATE and "older_ok" in self.fields and not cleaned.get("older_ok"):
            self.add_error("older_ok", _("The file is older than the tournament here: tick this to replace it."))
        return cleaned

    def person_fields(self):
        return [self[f"person_{index}"] for index in range(len(self.people))]

    def chosen_people(self) -> dict:
        return {person.key: None if self.cleaned_data[f"person_{index}"] == "new"
                else int(self.cleaned_data[f"person_{index}"]) for index, person in enumerate(self.people)}


class ImporterMixin(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            return HttpResponseForbidden(_("You are not allowed to create tournaments."))
        return super().dispatch(request, *args, **kwargs)


class ImportView(ImporterMixin, FormView):
    """Step 1: upload and check the file (a full trial import; nothing is saved)."""

    template_name = "tournament/import.html"
    form_class = ImportForm

    def form_valid(self, form):
        data = form.cleaned_data["file"].read()
        try:
            check_tournament_file(data, by=self.request.user)
        except TransferError as error:
            form.add_error("file", error.message)
            return self.form_invalid(form)
        stash(self.request, data)
        return redirect("tournament:import_roles")


def file_slug(data: bytes) -> str:
    """The short name the tournament file gives (empty when it cannot be read: the import checked the rest)."""
    try:
        slug = json.loads(data)["tournament"]["slug"]
    except (ValueError, KeyError, TypeError):
        return ""
    return slug if isinstance(slug, str) else ""


class ImportRolesView(ImporterMixin, FormView):
    """Step 2: what the file holds, the roles it gives, and the importer's choice of roles to keep."""

    template_name = "tournament/import_roles.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and can_create_tournaments(request.user):
            self.data = stashed(request)
            if self.data is None:
                messages.error(request, _("Choose the tournament file again: the upload is no longer there."))
                return redirect("tournament:import")
            try:
                self.preview = check_tournament_file(self.data, by=request.user)
            except TransferError as error:  # the server changed between the steps (a user deleted, say)
                discard(request)
                messages.error(request, error.message)
                return redirect("tournament:import")
        return super().dispatch(request, *args, **kwargs)

    def get_form(self, form_class=None):
        update = self.update()
        return RolesForm(self.preview.roles, people=self.preview.people, existing=self.preview.existing,
                         may_update=self.preview.may_update, older=update is not None and update.older,
                         **self.get_form_kwargs())

    def update(self):
        """What updating the tournament of the file's identity replaces; None when the importer may not."""
        if not self.preview.may_update:
            return None
        if not hasattr(self, "_update"):
            self._update = planned_update(self.preview.existing, self.data)
        return self._update

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            preview=self.preview, unknown=[role for role in self.preview.roles if not role.known],
            cancel_url=reverse("tournament:import"), update=self.update(), **kwargs,
        )

    def post(self, request, *args, **kwargs):
        if "cancel" in request.POST:
            discard(request)
            messages.info(request, _("The import was cancelled; nothing was saved."))
            return redirect("tournament:import")
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        notes: list[str] = []
        action = form.cleaned_data.get("action")
        try:
            if action == UPDATE:
                tournament = update_tournament(self.preview.existing, self.data, by=self.request.user,
                                               people=form.chosen_people(),
                                               older_ok=bool(form.cleaned_data.get("older_ok")), notes=notes)
            else:
                tournament = import_tournament(self.data, by=self.request.user, keep_roles=form.cleaned_data["keep"],
                                               people=form.chosen_people(), as_new=action == NEW, notes=notes)
        except TransferError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        discard(self.request)
        for note in notes:
            messages.info(self.request, note)
        if action == UPDATE:
            messages.success(self.request, _("“%(name)s” was updated with the file; what it replaced is kept as a "
                                             "snapshot.") % {"name": tournament.name})
            return redirect(club_address(tournament))
        messages.success(
            self.request,
            _("Tournament “%(name)s” imported as a new tournament; you are its director.") % {"name": tournament.name},
        )
        in_file = file_slug(self.data)
        if in_file and in_file != tournament.slug:
            # a second copy on this machine: the public address and every printed QR code lead to the first one
            messages.warning(self.request, _(
                "The short name “%(wanted)s” is taken here, so this tournament's is “%(slug)s”: its public pages "
                "are at %(path)s, and QR codes printed before the move lead to the other tournament. Print again "
                "what carries them.") % {"wanted": in_file, "slug": tournament.slug,
                                          "path": public_path(tournament)})
        return redirect(club_address(tournament))
