"""Grades' pages that show what the apps above keep (club/lib/signals.py `page_extras`)."""

from django.dispatch import Signal

# A player's page (request=, club=, player=): money owed, for the secretary and the player.
player_page = Signal()
