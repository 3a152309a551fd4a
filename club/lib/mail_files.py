"""`EMAIL_URL=file:` (bin/demo): every message a file of its own, `<UTC time>-<random>.eml`, in
EMAIL_FILE_PATH, which any mail program opens.

Django's file backend writes one file per connection, named by the second and the connection
object's id: a connection sending several messages puts them all in one file, and two connections
made in the same second can get the same id and so the same file. This one keeps Django's checks
of the folder (made if missing, refused if not writable) and writes each message on its own."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends import filebased
from django.utils import timezone


class EmailBackend(filebased.EmailBackend):
    def __init__(self, *args: Any, file_path: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, file_path=file_path, **kwargs)  # Django's checks of the folder
        self.folder = Path(settings.EMAIL_FILE_PATH if file_path is None else file_path).absolute()

    def open(self) -> bool:
        return False  # nothing is held open: each message opens, writes and closes its own file

    def close(self) -> None:
        pass

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            try:
                self.write_file(message)
            except OSError:
                if not self.fail_silently:
                    raise
            else:
                sent += 1
        return sent

    def write_file(self, message: EmailMessage) -> Path:
        """The message in a new file: named by the time (UTC) to the microsecond, so that a listing
        sorts in sending order, and a random part, so that no two processes share a name."""
        data = message.message().as_bytes()
        while True:
            stamp = timezone.now().strftime("%Y%m%d-%H%M%S-%f")  # UTC
            path = self.folder / f"{stamp}-{secrets.token_hex(3)}.eml"
            try:
                with path.open("xb") as file:  # never appends to a file that exists
                    file.write(data)
            except FileExistsError:
                continue
            return path
