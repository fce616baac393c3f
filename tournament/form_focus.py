"""The cursor after a refused form: on the first field in error, not on the field the empty form starts in."""

from __future__ import annotations


class FocusFirstError:
    """A form mixin: once validated with errors, the first field in error has the focus (`autofocus`); with
    errors of the whole form only, the first field. A view that adds errors later calls `focus_first_error`
    again."""

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound and self._errors:
            self.focus_first_error()

    def focus_first_error(self) -> None:
        if not self.errors:
            return
        wrong = [name for name in self.fields if name in self.errors]
        for field in self.fields.values():
            field.widget.attrs.pop("autofocus", None)
        target = wrong[0] if wrong else next(iter(self.fields))
        self.fields[target].widget.attrs["autofocus"] = True
