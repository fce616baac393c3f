"""The club page (/manage/club/, a club's admins): its members, inviting one, changing a role, removing one, its
API tokens (making one, shown once; revoking one), and the club's own audit entries (register, seasons, members:
what belongs to no tournament). The page where an invited member sets a password is Django's password-reset
confirmation with our template.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import AccessMixin
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..audit_labels import action_label
from ..club_forms import ClubAddressForm, InviteForm, MemberForm, MemberRoleForm, TokenForm, TokenRevokeForm
from ..clubaddress import requested_club, reverse_in_club, several_clubs
from ..models import AuditEntry, Membership
from ..services import api_tokens, clubs
from ..services.errors import DomainError
from ..tenancy import administered_club, administers
from .confirm import confirmation_page, confirmed

RECENT_ENTRIES = 50
#: the session's key of a set-password link not yet shown
LINK_KEY = "club_password_link"


class ClubView(AccessMixin, TemplateView):
    template_name = "tournament/club.html"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        club = requested_club(request)  # under /c/<club>/: that club's page, for its admins only
        self.club = administered_club(request.user) if club is None else club if administers(request.user, club) \
            else None
        if self.club is None:
            raise Http404
        return super().dispatch(request, *args, **kwargs)

    def members(self):
        return Membership.objects.filter(organisation=self.club).select_related("user").order_by("user__username")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        members = list(self.members())
        for member in members:
            member.role_form = MemberRoleForm(initial={"member": member.pk, "role": member.role},
                                              auto_id=f"member-{member.pk}-%s")
        entries = list(AuditEntry.objects.of(self.club).filter(tournament__isnull=True).select_related("user")
                       [:RECENT_ENTRIES])
        for entry in entries:
            entry.label = action_label(entry.action)
        if several_clubs():  # a one-club installation's addresses carry no club: nothing to name
            context["address_form"] = kwargs.get("address_form") or ClubAddressForm(initial={"slug": self.club.slug},
                                                                                    auto_id="club-%s")
        context.update(club=self.club, members=members, entries=entries,
                       invite_form=kwargs.get("invite_form") or InviteForm(), link=kwargs.get("link"),
                       link_for=kwargs.get("link_for"), tokens=api_tokens.tokens_of(self.club),
                       token_form=kwargs.get("token_form") or TokenForm(auto_id="token-%s"),
                       new_token=kwargs.get("new_token"))
        return context

    def member(self, form) -> Membership:
        return get_object_or_404(self.members(), pk=form.cleaned_data["member"])

    def with_link(self, membership: Membership, path: str):
        """To the club page, which shows the set-password link once: kept in the session until then."""
        self.request.session[LINK_KEY] = {"user": membership.user.get_username(),
                                          "link": self.request.build_absolute_uri(path)}
        return redirect("club")

    def change_address(self, request):
        form = ClubAddressForm(request.POST, auto_id="club-%s")
        if form.is_valid():
            try:
                self.club = clubs.set_club_address(self.club, form.cleaned_data["slug"], by=request.user)
            except DomainError as error:
                form.add_error("slug", error.message)
        if not form.is_valid():
            form.focus_first_error()
            return self.render_to_response(self.get_context_data(address_form=form))
        messages.success(request, _("Changes saved."))
        # the club page at the club's new address (this request's prefix is the old one)
        return redirect(reverse_in_club(self.club, "club"))

    def get(self, request, *args, **kwargs):
        shown = request.session.pop(LINK_KEY, None) or {}
        return self.render_to_response(self.get_context_data(link=shown.get("link"), link_for=shown.get("user")))

    def make_token(self, request):
        form = TokenForm(request.POST, auto_id="token-%s")
        if form.is_valid():
            try:
                token, text = api_tokens.make_token(self.club, by=request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                # shown in this answer, not kept for a redirect: the token is nowhere at rest, the session neither;
                # 201: something was made (a reload asks the browser to send the form again, and says so)
                return self.render_to_response(self.get_context_data(new_token={"name": token.name, "token": text}),
                                               status=201)
        form.focus_first_error()
        return self.render_to_response(self.get_context_data(token_form=form))

    def revoke_token(self, request):
        form = TokenRevokeForm(request.POST)
        if not form.is_valid():
            raise Http404
        token = get_object_or_404(api_tokens.tokens_of(self.club), pk=form.cleaned_data["token"])
        if not confirmed(request):
            return confirmation_page(
                request, question=_("Revoke the API token “%(name)s”?") % {"name": token.name},
                explanation=_("What uses it (a laptop, a program) can no longer send or read anything with it. "
                              "This cannot be undone: make a new token for it instead."),
                confirm_label=_("Yes, revoke"), cancel_url=reverse("club"))
        api_tokens.revoke_token(token, by=request.user)
        messages.success(request, _("The API token “%(name)s” is revoked.") % {"name": token.name})
        return redirect("club")

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        try:
            if action == "token":
                return self.make_token(request)
            if action == "revoke":
                return self.revoke_token(request)
            if action == "address":
                return self.change_address(request)
            if action == "invite":
                form = InviteForm(request.POST)
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(invite_form=form))
                try:
                    membership, path = clubs.invite(self.club, by=request.user, **form.cleaned_data)
                except DomainError as error:
                    form.add_error(error.field if error.field in form.fields else None, error.message)
                    form.focus_first_error()
                    return self.render_to_response(self.get_context_data(invite_form=form))
                messages.success(request, _("%(user)s is a member of the club now.")
                                 % {"user": membership.user.get_username()})
                return self.with_link(membership, path)
            if action == "role":
                form = MemberRoleForm(request.POST)
                if not form.is_valid():
                    raise Http404
                membership = clubs.set_member_role(self.member(form), form.cleaned_data["role"], by=request.user)
                messages.success(request, _("Changes saved."))
            elif action in ("remove", "link"):
                form = MemberForm(request.POST)
                if not form.is_valid():
                    raise Http404
                membership = self.member(form)
                if action == "link":
                    return self.with_link(membership, clubs.new_password_link(membership, by=request.user))
                if not confirmed(request):
                    return confirmation_page(
                        request, question=_("Remove %(user)s from the club?") % {"user": membership.user},
                        explanation=_("They lose their roles in the club's tournaments and seasons; a tournament "
                                      "or season they directed alone is then directed by you. Their account stays."),
                        confirm_label=_("Yes, remove"), cancel_url=reverse("club"))
                clubs.remove_member(membership, by=request.user)
                messages.success(request, _("%(user)s is no longer a member of the club.")
                                 % {"user": membership.user.get_username()})
            else:
                raise Http404
        except DomainError as error:
            messages.error(request, error.message)
        return redirect("club")


class SetPasswordView(PasswordResetConfirmView):
    """An invited member's one-time link: choose a password, then log in with it."""

    template_name = "registration/set_password.html"
    success_url = reverse_lazy("login")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is set: log in with it."))
        return response
