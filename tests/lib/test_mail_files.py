"""`EMAIL_URL=file:` (the demo's demo-mail/): one file a message, whatever the connection, each file
a whole message that a mail program reads."""

from __future__ import annotations

import email
import email.policy
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMessage, get_connection, send_mass_mail

from club.lib.mail_files import EmailBackend

ROOT = Path(__file__).resolve().parents[2]


def read_folder(folder: Path) -> list[tuple[str, str, str]]:
    """(To, Subject, body) of each file, in name order; each file must hold exactly one message."""
    found = []
    for path in sorted(folder.iterdir()):
        assert path.suffix == ".eml", path.name
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        body = message.get_content().strip()
        assert "\n" + "-" * 79 not in body, f"{path.name} holds more than one message"
        found.append((str(message["To"]), str(message["Subject"]), body))
    return found


def test_a_connection_sending_several_messages_writes_a_file_for_each(tmp_path):
    connection = get_connection("club.lib.mail_files.EmailBackend", file_path=str(tmp_path))
    sent = send_mass_mail(
        [
            (f"Results {n}", f"Your night, message {n}.", None, [f"p{n}@example.org"])
            for n in range(5)
        ],
        connection=connection,
    )
    assert sent == 5
    assert read_folder(tmp_path) == [
        (f"p{n}@example.org", f"Results {n}", f"Your night, message {n}.") for n in range(5)
    ]  # in sending order by name


def test_an_open_connection_still_writes_each_message_apart(tmp_path):
    with get_connection("club.lib.mail_files.EmailBackend", file_path=str(tmp_path)) as connection:
        for n in range(3):
            EmailMessage(f"S{n}", f"B{n}", to=[f"p{n}@example.org"], connection=connection).send()
    assert [to for to, _, _ in read_folder(tmp_path)] == [f"p{n}@example.org" for n in range(3)]


def test_connections_made_one_after_another_never_share_a_file(tmp_path, settings):
    """Django's own file backend names a file by the second and the connection's id(), which a
    connection made just after another freed one gets again: several messages in one file."""
    settings.EMAIL_BACKEND = "club.lib.mail_files.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    for n in range(30):
        EmailMessage(f"S{n}", "B", to=[f"p{n}@example.org"]).send()
    assert len(read_folder(tmp_path)) == 30


def test_a_message_to_nobody_writes_nothing(tmp_path):
    backend = EmailBackend(file_path=str(tmp_path))
    assert backend.send_messages([EmailMessage("S", "B", to=[])]) == 0
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_made_is_refused_clearly(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(ImproperlyConfigured, match="exists, but is not a directory"):
        EmailBackend(file_path=str(blocked))


def test_email_url_file_writes_a_file_a_message_into_email_file_path(tmp_path):
    """The settings as bin/demo sets them, in a process of their own."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DJANGO_SETTINGS_MODULE": "club.settings",
        "DEBUG": "true",
        "EMAIL_URL": "file:",
        "EMAIL_FILE_PATH": str(tmp_path / "demo-mail"),
    }
    script = (
        "import django; django.setup()\n"
        "from django.core.mail import send_mass_mail\n"
        "print(send_mass_mail([(f'S{n}', 'B', None, [f'p{n}@example.org']) for n in range(4)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "4"
    assert sorted(s for _, s, _ in read_folder(tmp_path / "demo-mail")) == ["S0", "S1", "S2", "S3"]
