"""Password reset, limited and queued.

The page counts the request against the limits per client and per address
(club/clubs/services/account_mail.py) and queues the email for the task worker: it answers "sent" at
once, whether or not an account has that address (never revealed), and whatever the mail server
does. A client over its limit is told to wait (429); an address over its own limit is answered
as any other, and nothing more is sent to it.
"""

from __future__ import annotations

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.http import HttpResponse, HttpResponseRedirect

from club.clubs.services import account_mail


class PasswordResetView(auth_views.PasswordResetView):
    # Also reaches a club member with no password yet (a create_club secretary's first link
    # expired): club/clubs/services/account_mail.py.
    form_class = account_mail.MemberPasswordResetForm

    def form_valid(self, form: auth_forms.PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        refused = account_mail.allowed(self.request, "password-reset", email)
        if refused is not None and refused.retry_after:
            minutes = max(1, refused.retry_after // 60)
            form.add_error("email", f"Too many requests from here: try again in {minutes} minutes.")
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(refused.retry_after)
            return response
        if refused is None:
            account_mail.send_password_reset.enqueue(
                email, self.request.get_host(), self.request.is_secure()
            )
        return HttpResponseRedirect(self.get_success_url())
