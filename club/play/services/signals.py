"""What a hand's and a night's writes tell the apps above play (grades, money).

Each is sent inside the write's own transaction, with `send`, not `send_robust`: a receiver that
fails fails the write, and the transaction rolls back with it. Closing a night therefore stays
one transaction with the ledger rows the close makes (club/money/services/publish.py).
"""

from django.dispatch import Signal

from club.lib.signals import page_extras

__all__ = [
    "hand_deleted",
    "hand_deleting",
    "hand_saved",
    "night_closed",
    "night_deleting",
    "night_page",
    "night_reopened",
    "page_extras",
    "table_page",
]

# A hand was saved or corrected (hand=, night=, user=): the grades queue its players; a closed
# night's ledger, in its correction window, follows the new settle-up.
hand_saved = Signal()
# A hand is about to be deleted (hand=): the grades take back its lines while it is there.
hand_deleting = Signal()
# A hand was deleted and the table's later hands renumbered (night=, user=).
hand_deleted = Signal()
# An open night is about to be deleted with its hands (night= the locked row): a receiver may
# refuse by raising SetupError with the reason, or take back what it derived from the hands.
night_deleting = Signal()
# The night was closed (night= the locked row, just closed; user=): the correction window starts
# and the night's debts are written.
night_closed = Signal()
# The night was reopened (night=, user=): neither provisional nor published any more.
night_reopened = Signal()

# Pages of play that show what the apps above keep. Each receiver answers a dict of the template's
# context, merged into the page's (`page_extras`):
# the night page (request=, club=, night=): after the night, its publication and debts;
night_page = Signal()
# a table's page opened through its link (route=): money owed to the table's players, once the
# night is closed.
table_page = Signal()
