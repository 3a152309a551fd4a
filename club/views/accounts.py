"""Password reset that says so when the email could not be sent.

Django's form logs a failure to send and its view then says the email was sent all the same. Here
the form remembers the failure, and the page tells the person plainly that no email went out and
what to do instead. Whether an account has that address is still never revealed: when none has
it, nothing is sent and the page says what Django's does.
"""

from __future__ import annotations

import logging

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.core.mail import EmailMultiAlternatives
from django.http import HttpResponse
from django.template import loader

logger = logging.getLogger(__name__)

NOT_SENT = (
    "The email could not be sent: the club's mail server is not answering or not set up, so no "
    "email went out. Try again later, or ask your club secretary to set a new password for you."
)


class PasswordResetForm(auth_forms.PasswordResetForm):
    not_sent = False

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ) -> None:
        # As Django's, but a failure is kept for the view instead of only logged.
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        try:
            message.send()
        except Exception:
            logger.exception("Password reset email to user %s not sent", context["user"].pk)
            self.not_sent = True


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        response = super().form_valid(form)
        if form.not_sent:
            form.add_error("email", NOT_SENT)
            return self.form_invalid(form)
        return response
