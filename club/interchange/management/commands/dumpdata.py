"""`dumpdata` that dumps every club, the closed ones too.

A closed club (waiting for the purge, or a sign-up waiting for its email) is hidden by
`Club.objects`, the model's default manager, which Django's dumpdata reads unless given `--all`:
a dump would hold the closed club's players, nights and hands but not the club, and would not
load again. A backup is of the whole database, so this one always reads as `--all` does.
"""

from __future__ import annotations

from django.core.management.commands.dumpdata import Command as DumpData


class Command(DumpData):
    help = DumpData.help + " Closed clubs are dumped too (as with --all)."

    def handle(self, *app_labels, **options):
        options["use_base_manager"] = True
        return super().handle(*app_labels, **options)
