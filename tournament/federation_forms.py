"""Forms of the federation's pages (views/federation.py) and of a club's link to its federation."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .form_focus import FocusFirstError

MAX_NUMBER = 2**31 - 1


class MemberNumberForm(FocusFirstError, forms.Form):
    """A club's register entry linked to a federation member by number."""

    number = forms.IntegerField(label=_("Member number in the federation"), min_value=1, max_value=MAX_NUMBER)


class MemberMergeForm(FocusFirstError, forms.Form):
    other = forms.IntegerField(label=_("Member number of the same person's other entry"), min_value=1,
                               max_value=MAX_NUMBER)
    reason = forms.CharField(label=_("Why (for the log)"), required=False, max_length=200)


class AssignForm(forms.Form):
    entry = forms.IntegerField(min_value=1, max_value=MAX_NUMBER, widget=forms.HiddenInput)
