# Every ruling a club makes at the table: revokes become rows of their own (several a hand), a
# hand records a penalty against a misère, the suit turned up and its outcome (void, misdeal).
# 0015 copies the data, 0016 drops the old single revoke column.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0013_payments_marked_without_login'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Revoke',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
            ],
            options={
                'ordering': ['hand', 'position'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_contract_has_declarer_and_tricks',
        ),
        migrations.AddField(
            model_name='hand',
            name='outcome',
            field=models.CharField(choices=[('played', 'played'), ('all_passed', 'all passed'), ('void', 'void'), ('misdeal', 'misdeal')], default='played', max_length=12),
        ),
        migrations.AddField(
            model_name='hand',
            name='penalty',
            field=models.CharField(blank=True, choices=[('exposed_card', 'exposed a card'), ('lead_out_of_turn', 'led out of turn'), ('played_out_of_turn', 'played out of turn')], max_length=20),
        ),
        migrations.AddField(
            model_name='hand',
            name='penalty_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='club.player'),
        ),
        migrations.AddField(
            model_name='hand',
            name='turned_suit',
            field=models.CharField(blank=True, choices=[('hearts', 'Hearts'), ('clubs', 'Clubs'), ('diamonds', 'Diamonds'), ('spades', 'Spades')], help_text='The suit the dealer turned up.', max_length=10),
        ),
        migrations.AlterField(
            model_name='hand',
            name='contract',
            field=models.CharField(choices=[('prop_cop', 'Prop & Cop'), ('solo', 'Solo'), ('misere', 'Misère'), ('abundance', 'Abundance'), ('royal_abundance', 'Royal Abundance'), ('open_misere', 'Open Misère'), ('abundance_declared', 'Abundance Declared'), ('all_passed', 'All passed'), ('misdeal', 'Cards wrongly dealt')], max_length=20),
        ),
        migrations.AlterField(
            model_name='scoreline',
            name='contract',
            field=models.CharField(blank=True, choices=[('prop_cop', 'Prop & Cop'), ('solo', 'Solo'), ('misere', 'Misère'), ('abundance', 'Abundance'), ('royal_abundance', 'Royal Abundance'), ('open_misere', 'Open Misère'), ('abundance_declared', 'Abundance Declared'), ('all_passed', 'All passed'), ('misdeal', 'Cards wrongly dealt')], max_length=20),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('contract__in', ('all_passed', 'misdeal')), models.Q(('declarer__isnull', False), models.Q(('tricks__isnull', False), models.Q(('penalty', ''), _negated=True), _connector='OR')), _connector='OR'), name='hand_contract_has_declarer_and_tricks'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('penalty', ''), ('penalty_by__isnull', True)), models.Q(models.Q(('penalty', ''), _negated=True), ('penalty_by__isnull', False)), _connector='OR'), name='hand_penalty_has_its_offender'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('contract__in', ('all_passed', 'misdeal')), _negated=True), models.Q(('declarer__isnull', True), ('tricks__isnull', True), ('penalty', '')), _connector='OR'), name='hand_no_contract_no_declarer'),
        ),
        migrations.AddField(
            model_name='revoke',
            name='hand',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='revokes', to='club.hand'),
        ),
        migrations.AddField(
            model_name='revoke',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='club.player'),
        ),
        migrations.AddConstraint(
            model_name='revoke',
            constraint=models.UniqueConstraint(fields=('hand', 'position'), name='revoke_position_unique'),
        ),
        migrations.AddConstraint(
            model_name='revoke',
            constraint=models.CheckConstraint(condition=models.Q(('position__lte', 12)), name='revoke_position_0_to_12'),
        ),
    ]
