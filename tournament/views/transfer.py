"""Moving a tournament between machines: download it as JSON, import such a file as a new tournament."""

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, View

from ..permissions import DirectorRequiredMixin, can_create_tournaments
from ..transfer import TransferError, export_filename, export_tournament, import_tournament, max_import_bytes


class ExportJSONView(DirectorRequiredMixin, View):
    http_method_names = ["get"]

    def get(self, request, slug):
        response = HttpResponse(export_tournament(self.tournament), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{export_filename(self.tournament)}"'
        return response


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


class ImportView(LoginRequiredMixin, FormView):
    template_name = "tournament/import.html"
    form_class = ImportForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            return HttpResponseForbidden(_("You are not allowed to create tournaments."))
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            tournament = import_tournament(form.cleaned_data["file"].read(), by=self.request.user)
        except TransferError as error:
            form.add_error("file", error.message)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Tournament “%(name)s” imported as a new tournament; you are its director.") % {"name": tournament.name},
        )
        return redirect(tournament)
