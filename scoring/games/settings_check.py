"""Checking a tournament's stored settings against its game's settings page (used by the tournament-file import).

A settings dict from a file is accepted only when the game's settings form would accept the same values
and the game reads the dict back as itself: a value the game's reader would silently replace by a default
(a word where a number belongs, an unknown variant) is refused instead of changing meaning on the way in.
Each game's `check_settings` hook (see `scoring.games.base.Game`) uses these helpers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def _label(form: forms.Form, name: str) -> str:
    field = form.fields.get(name)
    return str(field.label) if field is not None and field.label else name


def as_mapping(stored: Any, *, known: Iterable[str]) -> dict:
    """The stored settings as a dict of known keys, else a translated refusal."""
    if not isinstance(stored, Mapping):
        raise ValidationError(_("The game settings are not a set of named values."))
    unknown = sorted(set(map(str, stored)) - set(known))
    if unknown:
        raise ValidationError(
            _("The game settings hold entries this game does not know: %(names)s.") % {"names": ", ".join(unknown)}
        )
    return dict(stored)


def form_data(form_class: type[forms.Form], values: Mapping[str, Any], *args, **kwargs) -> dict:
    """The values as the text a browser would post for `form_class`'s fields; only plain JSON values pass."""
    form = form_class(*args, **kwargs)
    data = {}
    for name, field in form.fields.items():
        value = values.get(name)
        if isinstance(field, forms.BooleanField):
            if not isinstance(value, bool) and value is not None:
                raise ValidationError(_("%(setting)s: yes or no is expected.") % {"setting": _label(form, name)})
            data[name] = "on" if value else ""
        elif value is None:
            data[name] = ""
        elif isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
            raise ValidationError(_("%(setting)s: a single value is expected.") % {"setting": _label(form, name)})
        else:
            data[name] = str(value)
    return data


def require_valid(form: forms.Form) -> forms.Form:
    """The bound form, valid; else a refusal listing each setting with the form's own message."""
    if not form.is_valid():
        messages = []
        for name, errors in form.errors.items():
            prefix = "" if name == forms.forms.NON_FIELD_ERRORS else f"{_label(form, name)}: "
            messages += [f"{prefix}{error}" for error in errors]
        raise ValidationError(messages)
    return form


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def require_same(read_back: Mapping, stored: Mapping) -> None:
    """Refuse settings the game reads differently from how they are stored (silently defaulted entries)."""
    changed = sorted(key for key in set(read_back) | set(stored)
                     if canonical(read_back.get(key)) != canonical(stored.get(key)))
    if changed:
        raise ValidationError(
            _("The game settings cannot be read as stored: %(names)s.") % {"names": ", ".join(changed)}
        )
