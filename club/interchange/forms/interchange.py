"""The import upload: a club data file (.json) or a paper-sheet CSV, within the size limit."""

from __future__ import annotations

from django import forms
from django.core.files.uploadedfile import UploadedFile

from club.interchange import MAX_BYTES, MAX_MB


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Club data file or paper-sheet CSV",
        help_text=f"A .json club data file, or a .csv of paper sheets; at most {MAX_MB} MB.",
        error_messages={"required": "Choose the file to import.", "empty": "The file is empty."},
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.csv,application/json,text/csv"}),
    )

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        # Refused from its size alone, before it is read, let alone parsed.
        if upload.size >= MAX_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size / (1024 * 1024):.1f} MB: the limit is {MAX_MB} MB. "
                "Export one season at a time and import each."
            )
        return upload

    @property
    def kind(self) -> str:
        name = self.cleaned_data["file"].name.lower()
        return "csv" if name.endswith(".csv") else "json"


class ConfirmImportForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput)
    # Shown only when the file has closed nights without `debts` whose settle-up has payments.
    carry_settle_ups = forms.BooleanField(
        required=False,
        initial=True,
        label="Carry each closed night's settle-up as money owed",
        help_text="The file gives no money owed for these nights: ticked, each player's "
        "statement owes or is owed what the night's settle-up says, as if the night had been "
        "closed here. Unticked, they owe nothing for them.",
    )


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label="League file",
        help_text=f"A .json league file, exported from a league's page; at most {MAX_MB} MB.",
        error_messages={"required": "Choose the file to import.", "empty": "The file is empty."},
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size >= MAX_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size / (1024 * 1024):.1f} MB: the limit is {MAX_MB} MB."
            )
        return upload
