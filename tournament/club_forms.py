"""Forms of the club page (tournament/views/clubs.py)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .form_focus import FocusFirstError
from .models import MemberRole, TokenScope


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


class TokenForm(FocusFirstError, forms.Form):
    name = forms.CharField(label=_("Name of the token"), max_length=80,
                           help_text=_("What uses it, for example “Club laptop”."))
    scopes = forms.MultipleChoiceField(label=_("It may"), choices=TokenScope.choices, initial=[TokenScope.PUSH],
                                       widget=forms.CheckboxSelectMultiple)


class TokenRevokeForm(forms.Form):
    token = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)


class ClubServerForm(FocusFirstError, forms.Form):
    url = forms.URLField(label=_("Address of the club's server"), max_length=300, assume_scheme="https",
                         help_text=_("For example https://club.example.org"))
    token = forms.CharField(label=_("API token"), max_length=200, required=False,
                            widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
                            help_text=_("Made by the club's admin on the server's club page. Leave it empty to keep "
                                        "the token entered before."))
