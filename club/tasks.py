"""The background tasks, in one list. Each is defined beside what it calls (publishing in
club/services/publish.py, the grades' catch-up in club/services/grades.py); tasks queued by an
earlier release name `club.tasks.<task>`, and still find them here."""

from club.services.account_mail import send_claim_link, send_password_reset
from club.services.closing_mail import send_closing_notice
from club.services.grades import drain_grades
from club.services.publish import publish_when_due, send_results
from club.services.signup import finish_sign_up

__all__ = [
    "drain_grades",
    "finish_sign_up",
    "publish_when_due",
    "send_claim_link",
    "send_closing_notice",
    "send_password_reset",
    "send_results",
]
