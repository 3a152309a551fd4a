"""A rule set that has scored (a ladder's points included) is never changed in place, and a stake
too big to store is a form error, not a database error later."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from club.clubs.services.setup import rule_set_from_preset
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand

# -- a ladder rule set with scored points is frozen like one with scored hands -------------------


def _rule_set_post(rules, name: str, **changes: Any) -> dict[str, Any]:
    """The custom rule-set form filled in with these rules' figures."""
    data: dict[str, Any] = {
        "name": name,
        "payment": rules.payment.value,
        "revoke_tricks": rules.revoke_tricks,
        "all_passed": rules.all_passed.value,
        "general_misere_stake": rules.general_misere_stake,
        "sit_out": rules.sit_out.value,
    }
    for contract, stake in rules.stakes.items():
        for part in ("base", "over", "under"):
            data[f"stake_{contract.value}_{part}"] = getattr(stake, part)
    return data | changes


def test_a_ladder_rule_set_with_scored_points_cannot_be_changed_in_place(
    client, secretary, season, table4, players
):
    """The season's ladder scores every hand again under its ladder rule set (ScoreLine.points):
    changing that rule set in place would leave the standings' points scored under rules that no
    longer exist (DESIGN.md 4: a rule set that has scored hands is never changed in place)."""
    from club.clubs.models import RuleSet
    from club.play.models import NightTotal

    ladder = rule_set_from_preset(season.club, "anna-cubed", "Ladder points")
    season.standings_rule_set = ladder
    season.standings_method = "points"
    season.save()
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6), secretary)
    assert NightTotal.objects.get(player=bob).points == 1
    data_before = dict(ladder.data)

    client.force_login(secretary)
    url = reverse("rule_set_edit", args=["crown", ladder.pk])
    response = client.post(url, _rule_set_post(ladder.rules, "Ladder points", stake_solo_base=2))
    assert response.status_code == 302
    ladder.refresh_from_db()
    assert ladder.data == data_before  # refused: the points stay those of the rules shown
    assert ladder.is_used
    page = client.get(reverse("rule_set_list", args=["crown"])).content.decode()
    row = page[page.rindex("Ladder points") :]  # its row (the message above names it too)
    assert row.index("In use: frozen") < row.index("</tr>")
    assert RuleSet.objects.get(pk=ladder.pk).rules.stake("solo").base == 1


# -- stakes too big for the database --------------------------------------------------------------


@pytest.mark.parametrize("field", ["stake_solo_base", "stake_solo_over", "general_misere_stake"])
def test_a_stake_too_big_to_store_is_a_form_error_not_a_crash_later(
    client, secretary, season, table4, players, field
):
    """A score line's amount is a 32-bit integer on PostgreSQL: a rule set with stakes of a
    million million pence was accepted, then every hand scored under it failed with a database
    error (500). The form refuses such stakes with a message."""
    import scoring
    from club.clubs.models import RuleSet

    client.force_login(secretary)
    rules = scoring.preset("hoyle")
    huge = 10**12
    changes = {field: huge}
    if field == "stake_solo_base":  # every higher call must be worth at least as much
        changes |= {f"stake_{c.value}_base": huge for c in scoring.Contract}
    data = _rule_set_post(rules, "Huge", **changes)
    response = client.post(reverse("rule_set_custom", args=["crown"]), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert "A stake can be at most 100,000" in response.content.decode()
    assert not RuleSet.objects.filter(name="Huge").exists()
