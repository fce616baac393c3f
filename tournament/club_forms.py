"""Forms of the club page (tournament/views/clubs.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .form_focus import FocusFirstError
from .models import MemberRole


class InviteForm(FocusFirstError, forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150,
                               help_text=_("The name the new member logs in with."))
    first_name = forms.CharField(label=_("First name"), max_length=150, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=150, required=False)
    role = forms.ChoiceField(label=_("Role"), choices=MemberRole.choices, initial=MemberRole.DIRECTOR)


class ClubAddressForm(FocusFirstError, forms.Form):
    slug = forms.CharField(label=_("Short name in addresses"), max_length=60,
                           help_text=_("The club's part of every address on this server: /c/<short name>/…"))


class MemberRoleForm(forms.Form):
    member = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    role = forms.ChoiceField(label=_("Role"), choices=MemberRole.choices)


class MemberForm(forms.Form):
    member = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
