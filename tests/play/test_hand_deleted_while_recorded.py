"""A hand recorded while another is deleted at the same table is numbered after the renumbered
hands: no gap (real threads, PostgreSQL)."""

from __future__ import annotations

import pytest

from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand

pytestmark = (
    pytest.mark.slow
)  # a race, an outage or a transaction: seconds, real threads or processes

# -- deleting a hand while another is being recorded at the same table ---------------------------


@pytest.mark.django_db(transaction=True)
def test_a_hand_recorded_while_another_is_deleted_leaves_no_gap(season, table4, players, secretary):
    """delete_hand renumbers the later hands, and record_hand numbers the new hand after the last
    under the table's row lock. The delete holds that lock too (its SELECT ... FOR UPDATE joins the
    table, and PostgreSQL locks every joined row), so a hand recorded meanwhile waits and is
    numbered after the renumbered hands: no gap (the trump rotation goes by hand number)."""
    import threading

    from django.db import connection, connections, transaction

    from club.play.models import Hand
    from club.play.services.hands import delete_hand

    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer at a time: it refuses the second, it does not race")
    ann, bob, cat, _ = players[:4]
    for declarer in (bob, cat, ann):
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=declarer, tricks=5),
            secretary,
        )
    first = Hand.objects.get(table=table4, number=1)
    renumbered, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def deleting() -> None:
        try:
            with transaction.atomic():
                delete_hand(first, secretary)
                renumbered.set()  # hands 2 and 3 are now 1 and 2, not yet committed
                release.wait(10)
        except BaseException as error:  # reported below
            errors.append(error)
            renumbered.set()
        finally:
            connections.close_all()

    def recording() -> None:
        try:
            record_hand(
                table4,
                HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
                secretary,
            )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    deleter = threading.Thread(target=deleting)
    deleter.start()
    assert renumbered.wait(10)
    recorder = threading.Thread(target=recording)
    recorder.start()
    recorder.join(1.0)  # with the table locked by the delete, the recording waits for it
    release.set()
    deleter.join(10)
    recorder.join(10)
    assert not errors, errors
    numbers = sorted(Hand.objects.filter(table=table4).values_list("number", flat=True))
    assert numbers == [1, 2, 3]
