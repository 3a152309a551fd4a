"""Django's admin covers every model of the app; derived rows (score lines, night totals) are
shown but cannot be changed there, so they never drift from the hands."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from club.play.models import NightTotal, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand


@pytest.fixture
def superuser_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(user)
    return client


def test_every_model_of_the_app_is_in_the_admin():
    models = {
        model
        for config in apps.get_app_configs()
        if config.name.startswith("club.")
        for model in config.get_models()
    }
    assert len(models) == 45  # every model of the apps (the leagues' 9 too), none forgotten
    assert models and models <= set(admin.site._registry)


def test_each_changelist_lists_its_rows(superuser_client, table4, players, secretary):
    ann, bob = players[:2]
    hand = record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary
    )
    for model in apps.get_app_config("club").get_models():
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        body = superuser_client.get(url).content.decode()
        count = model.objects.count()
        if count:
            assert f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}" in (
                body
            ), url
    assert (
        "Hand 1"
        in superuser_client.get(reverse("admin:play_hand_change", args=[hand.pk])).content.decode()
    )


@pytest.mark.parametrize("model", [ScoreLine, NightTotal])
def test_derived_rows_cannot_be_added_changed_or_deleted(
    superuser_client, model, table4, players, secretary
):
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    row = model.objects.first()
    name = model._meta.model_name
    assert (
        superuser_client.get(reverse(f"admin:{model._meta.app_label}_{name}_add")).status_code
        == 403
    )
    response = superuser_client.post(
        reverse(f"admin:{model._meta.app_label}_{name}_delete", args=[row.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def _change_form_data(response) -> dict:
    """What the admin's change page posts back unchanged: its form's and inlines' values."""
    data: dict = {}
    form = response.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        data[name] = "" if value is None else value
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[f"{formset.prefix}-{name}"] = formset.management_form[name].value()
        for i, line in enumerate(formset.forms):
            for name in line.fields:
                value = line[name].value()
                data[f"{formset.prefix}-{i}-{name}"] = "" if value is None else value
    return data


def test_a_hands_admin_page_cannot_change_its_score_or_its_score_lines(
    superuser_client, table4, players, secretary
):
    """The hand's page in the admin let a superuser change the tricks (or contract, declarer...)
    without scoring the hand again, and edit or add its score lines in the inline: the amounts
    then no longer followed from the hand, and the night totals took the edited points. The
    fields the score follows from, and the score lines, are read-only there."""
    ann, bob = players[:2]
    hand = record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary
    )
    lines = sorted(ScoreLine.objects.values_list("player_id", "amount", "points"))
    url = reverse("admin:play_hand_change", args=[hand.pk])
    data = _change_form_data(superuser_client.get(url))
    data |= {"tricks": 9, "contract": "abundance", "declarer": ann.pk, "notes": "Checked"}
    data |= {key: 999 for key in data if key.endswith("-points")}
    response = superuser_client.post(url, data)
    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.contract, hand.declarer_id, hand.tricks) == ("solo", bob.pk, 5)
    assert hand.notes == "Checked"  # a note may still be added
    assert sorted(ScoreLine.objects.values_list("player_id", "amount", "points")) == lines
    assert sorted(NightTotal.objects.values_list("player_id", "net", "points")) == lines
    assert superuser_client.get(reverse("admin:play_hand_add")).status_code == 403


def test_what_scored_hands_depend_on_is_fixed_in_the_admin(
    superuser_client, table4, players, secretary, hoyle, season
):
    from club.play.models import Seat

    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)

    page = superuser_client.get(reverse("admin:clubs_ruleset_change", args=[hoyle.pk]))
    assert 'name="data"' not in page.content.decode()  # shown, not editable
    before = dict(hoyle.data)
    superuser_client.post(
        reverse("admin:clubs_ruleset_change", args=[hoyle.pk]),
        {"name": hoyle.name, "data": '{"name": "x"}'},
    )
    hoyle.refresh_from_db()
    assert hoyle.data == before

    page = superuser_client.get(reverse("admin:clubs_season_change", args=[season.pk]))
    body = page.content.decode()
    assert 'name="rule_set"' not in body and 'name="standings_rule_set"' not in body

    seat = Seat.objects.filter(table=table4).first()
    change = reverse("admin:play_seat_change", args=[seat.pk])
    superuser_client.post(
        change, {"table": table4.pk, "position": seat.position, "player": players[8].pk}
    )
    seat.refresh_from_db()
    assert seat.player != players[8]
    delete = reverse("admin:play_seat_delete", args=[seat.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403
