# The one revoke a hand could hold before is copied into the new revoke rows; all-passed hands get
# their outcome. Rule sets that carried over- or under-trick values on misère, open misère or
# abundance declared (always ignored by the scoring core) have them set to 0, so that they still
# load: no amount changes, as no amount ever used them. (A migration of its own, so that on
# PostgreSQL no schema change shares a transaction with these rows.)

from django.db import migrations


NO_EXTRA_TRICKS = ("misere", "open_misere", "abundance_declared")


def copy_revokes_and_outcomes(apps, schema_editor):
    Hand = apps.get_model("club", "Hand")
    Revoke = apps.get_model("club", "Revoke")
    Revoke.objects.bulk_create(
        Revoke(hand_id=hand_id, position=0, player_id=player_id)
        for hand_id, player_id in Hand.objects.filter(revoke_by__isnull=False).values_list(
            "id", "revoke_by_id"
        )
    )
    Hand.objects.filter(contract="all_passed").update(outcome="all_passed")


def copy_revokes_back(apps, schema_editor):
    Hand = apps.get_model("club", "Hand")
    Revoke = apps.get_model("club", "Revoke")
    for revoke in Revoke.objects.filter(position=0):
        Hand.objects.filter(pk=revoke.hand_id).update(revoke_by_id=revoke.player_id)


def clear_ignored_trick_values(apps, schema_editor):
    RuleSet = apps.get_model("club", "RuleSet")
    for rule_set in RuleSet.objects.all():
        stakes = (rule_set.data or {}).get("stakes") or {}
        changed = False
        for key in NO_EXTRA_TRICKS:
            stake = stakes.get(key)
            if isinstance(stake, dict):
                for part in ("over", "under"):
                    if stake.get(part):
                        stake[part] = 0
                        changed = True
        if changed:
            rule_set.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("club", "0014_rulings")]

    operations = [
        migrations.RunPython(copy_revokes_and_outcomes, copy_revokes_back),
        migrations.RunPython(clear_ignored_trick_values, migrations.RunPython.noop),
    ]
