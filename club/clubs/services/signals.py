"""What a club's life tells the apps that keep rows of the club (play, grades, money).

Sent inside the club's own transaction, with `send`: a receiver that fails fails the change.
"""

from django.dispatch import Signal

from club.lib.signals import answers

__all__ = ["accounts_kept", "answers", "club_deleting", "club_purging", "player_forgotten"]

# The club is about to be deleted for good (club=). Each receiver answers the queued tasks that
# name the club's rows, as {task path: [the ids they were queued with]}, so that no task is left
# to find a row that is gone.
club_purging = Signal()
# The club's rows are being deleted (club=): each receiver deletes the rows of its app that would
# keep the club's players, rule sets and seasons (they PROTECT them), and answers how many rows
# went, those its database triggers took included.
club_deleting = Signal()
# A player is forgotten (player=, old_name=): each receiver forgets the player's name and address
# where it kept a copy.
player_forgotten = Signal()
# The club's accounts that belong to nothing else are about to go with it (user_ids=): each
# receiver answers those it still needs (a league's organiser, say), which stay.
accounts_kept = Signal()
