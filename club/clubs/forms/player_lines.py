"""Players in bulk, the form: pasted lines or a CSV file, read by
club/clubs/services/player_lines.py, and the digest that lets a preview's confirm save exactly
what the preview showed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.crypto import constant_time_compare

from club.clubs.models import Club
from club.clubs.services import player_lines
from club.clubs.services.player_lines import Entry, LinesError

LINES_HELP = (
    "One player a line: Name, email — or Name <email> — or just the name. A line's last part "
    "(after its last comma) is taken as the address only if it has an @ in it, so "
    '"Baxter, Ann" is one name. A name alone leaves any address the player has.'
)
FILE_HELP = (
    "Two columns, name and email (a header row name,email is optional); at most 1 MB and "
    f"{player_lines.MAX_LINES:,} lines, UTF-8 or Latin-1."
)


class LinesReading(forms.Form):
    """The reading shared by the Players page and the first-night page: the text field named
    `lines_field`, or the uploaded `file`, into `entries`; `confirmed` when the post carries
    the digest of those very entries (the preview's "Save" button)."""

    lines_field = "lines"
    max_lines = player_lines.MAX_LINES

    file = forms.FileField(label="Or choose a CSV file", required=False, help_text=FILE_HELP)
    digest = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.entries: list[Entry] = []
        self.signed = ""
        self.from_file = False

    def clean(self) -> dict[str, Any]:
        super().clean()
        self.read_lines()
        return self.cleaned_data

    def read_lines(self) -> None:
        """The entries, or the text field's (or the file's) errors, by line."""
        text = self.cleaned_data.get(self.lines_field) or ""
        upload = self.cleaned_data.get("file")
        try:
            if upload is not None and text.strip():
                raise LinesError(["Paste the lines or choose a file, not both."])
            if upload is not None:
                player_lines.check_size(upload.size or 0)
                entries = player_lines.read_csv(upload.read(player_lines.MAX_BYTES + 1))
                self.from_file = True
            else:
                entries = player_lines.read_paste(text)
        except LinesError as error:
            self.add_error("file" if upload is not None else self.lines_field, error.problems)
            return
        if len(entries) > self.max_lines:
            self.add_error(
                self.lines_field,
                f"At most {self.max_lines} players at a time (these are {len(entries)}): add the "
                "rest on the Players page afterwards.",
            )
            return
        self.entries = entries
        self.signed = player_lines.digest(self.club, entries)

    @property
    def confirmed(self) -> bool:
        """The post is the preview's confirm of these very lines."""
        sent = self.cleaned_data.get("digest") or ""
        return (
            "confirm" in self.data
            and bool(self.signed and sent)
            and constant_time_compare(sent, self.signed)
        )

    @property
    def changed_since_preview(self) -> bool:
        """A confirm of lines that are not the preview's (edited since, or forged)."""
        return "confirm" in self.data and not self.confirmed

    def shown_text(self) -> str:
        """The lines as the preview shows them in the box: as pasted, or the file's, written
        as lines (a file cannot travel with the confirm; its lines can)."""
        if self.from_file:
            return player_lines.as_text(self.entries)
        return str(self.cleaned_data.get(self.lines_field) or "")


class PlayerLinesForm(LinesReading):
    """The Players page's "Add players in bulk"."""

    lines = forms.CharField(
        label="Players, one a line",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=LINES_HELP,
    )

    field_order = ["lines", "file", "digest"]
