# The club app's schema in one step, as migrations 0001 to 0026 left it (Django's squash: a new
# database runs this one; a database made by the old ones is recognised by `replaces` and goes on
# from 0026). The night totals' triggers are installed from club/play/models/totals.py, where their SQL
# lives, as every later `migrate` also does (post_migrate).

import club.clubs.models.clubs
import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def install_night_total_triggers(apps, schema_editor):
    from club.play.models.totals import install_triggers

    install_triggers(schema_editor.connection)


def drop_night_total_triggers(apps, schema_editor):
    from club.play.models.totals import drop_triggers

    drop_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("club", "0001_initial"),
        ("club", "0002_night_totals"),
        ("club", "0003_score_line_contract_and_mate"),
        ("club", "0004_tournaments"),
        ("club", "0005_hardening"),
        ("club", "0006_hand_client_id"),
        ("club", "0007_table_links"),
        ("club", "0008_races_names_and_rights"),
        ("club", "0009_grades"),
        ("club", "0010_ledger"),
        ("club", "0011_night_token_and_extra_hands"),
        ("club", "0012_invitations"),
        ("club", "0013_payments_marked_without_login"),
        ("club", "0014_rulings"),
        ("club", "0015_rulings_data"),
        ("club", "0016_rulings_drop_revoke_by"),
        ("club", "0017_grade_backlog"),
        ("club", "0018_hand_tombstones"),
        ("club", "0019_staged_uploads"),
        ("club", "0020_table_cards"),
        ("club", "0021_arrivals"),
        ("club", "0022_club_time_zone"),
        ("club", "0023_hand_wrong_cards"),
        ("club", "0024_club_closure"),
        ("club", "0025_hand_entry_digest"),
        ("club", "0026_rate_windows"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Club",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("slug", models.SlugField(max_length=60, unique=True)),
                (
                    "unit_kind",
                    models.CharField(
                        choices=[("money", "Money"), ("points", "Points")],
                        default="money",
                        max_length=10,
                    ),
                ),
                ("currency_symbol", models.CharField(blank=True, default="£", max_length=4)),
                ("minor_units", models.PositiveIntegerField(default=100)),
                ("points_label", models.CharField(blank=True, default="pts", max_length=12)),
                (
                    "is_public",
                    models.BooleanField(
                        default=False,
                        help_text="Anyone may read nights and standings without logging in.",
                    ),
                ),
                (
                    "confirm_table_hands",
                    models.BooleanField(
                        default=False,
                        help_text="A hand entered through a table's link waits until a second player at the table confirms it.",
                    ),
                ),
                (
                    "correction_minutes",
                    models.PositiveSmallIntegerField(
                        default=30,
                        help_text="Minutes a closed night stays provisional before it is published (0: at once).",
                    ),
                ),
                (
                    "players_may_claim",
                    models.BooleanField(
                        default=False,
                        help_text="Players may claim their own record by email, with a one-time link.",
                    ),
                ),
                (
                    "projector_embed_origins",
                    models.CharField(
                        blank=True,
                        help_text="Web sites that may show the tournament projector page in a frame, e.g. https://club.example.org (space-separated). Empty: none may.",
                        max_length=300,
                        validators=[club.clubs.models.clubs.validate_origins],
                    ),
                ),
                (
                    "scorers_add_players",
                    models.BooleanField(
                        default=False,
                        help_text="Table scorers may add new players when setting up a night or a tournament.",
                    ),
                ),
                (
                    "first_card_opens_night",
                    models.BooleanField(
                        default=False,
                        help_text="The first table card scanned opens tonight's night (no secretary needed).",
                    ),
                ),
                (
                    "door_check_in",
                    models.BooleanField(
                        default=False,
                        help_text="Players tick themselves in on the club's door QR code as they arrive.",
                    ),
                ),
                (
                    "door_salt",
                    models.CharField(blank=True, default="", editable=False, max_length=40),
                ),
                (
                    "odd_tables",
                    models.CharField(
                        choices=[
                            ("5", "Tables of five (one sits out each hand)"),
                            ("3", "Tables of three"),
                        ],
                        default="5",
                        help_text="When the players do not make tables of four, the draw adds tables of this size.",
                        max_length=1,
                    ),
                ),
                (
                    "time_zone",
                    models.CharField(
                        default="Europe/London",
                        help_text="The club's time zone, by its IANA name (e.g. Europe/London).",
                        max_length=64,
                        validators=[club.clubs.models.clubs.validate_time_zone],
                    ),
                ),
                ("closed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "closed_because",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("signup", "Signed up, email not confirmed yet"),
                            ("secretary", "Closed by its secretary"),
                            ("operator", "Closed by the operator"),
                        ],
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("delete_after", models.DateTimeField(blank=True, editable=False, null=True)),
            ],
            options={
                "ordering": ["name"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("closed_at", None), ("closed_because", ""), ("delete_after", None)
                            ),
                            models.Q(
                                ("closed_at__isnull", False),
                                ("delete_after__isnull", False),
                                models.Q(("closed_because", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="club_closed_has_its_deletion_date",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Netting",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(auto_now_add=True)),
                ("amount", models.PositiveIntegerField()),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="nettings",
                        to="club.club",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Night",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("date", models.DateField()),
                ("title", models.CharField(blank=True, max_length=80)),
                (
                    "counts_in_standings",
                    models.BooleanField(
                        default=True,
                        help_text="Its hands count in the season standings and player pages.",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "Open"), ("closed", "Closed")],
                        default="open",
                        max_length=6,
                    ),
                ),
                ("closed_at", models.DateTimeField(blank=True, null=True)),
                ("form_token", models.UUIDField(blank=True, editable=False, null=True)),
                ("publish_after", models.DateTimeField(blank=True, null=True)),
                ("published_at", models.DateTimeField(blank=True, null=True)),
                (
                    "closed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-date", "-id"],
            },
        ),
        migrations.CreateModel(
            name="NightSheetCache",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("fingerprint", models.CharField(max_length=64)),
                ("pdf", models.BinaryField()),
                ("rendered_at", models.DateTimeField(auto_now=True)),
                (
                    "night",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.night",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Player",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60)),
                (
                    "name_key",
                    models.CharField(blank=True, editable=False, max_length=180, null=True),
                ),
                ("active", models.BooleanField(default=True)),
                (
                    "email",
                    models.EmailField(
                        blank=True, help_text="Their results are emailed here.", max_length=254
                    ),
                ),
                (
                    "email_results",
                    models.BooleanField(
                        default=True, help_text="Email them their result when a night is published."
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="players",
                        to="club.club",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        help_text="The account that sees this player's own nights and money owed.",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="player_records",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Hand",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "contract",
                    models.CharField(
                        choices=[
                            ("prop_cop", "Prop & Cop"),
                            ("solo", "Solo"),
                            ("misere", "Misère"),
                            ("abundance", "Abundance"),
                            ("royal_abundance", "Royal Abundance"),
                            ("open_misere", "Open Misère"),
                            ("abundance_declared", "Abundance Declared"),
                            ("all_passed", "All passed"),
                            ("misdeal", "Cards wrongly dealt"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "trump",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("hearts", "Hearts"),
                            ("clubs", "Clubs"),
                            ("diamonds", "Diamonds"),
                            ("spades", "Spades"),
                            ("no_trumps", "No trumps"),
                        ],
                        max_length=10,
                    ),
                ),
                ("tricks", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "penalty",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("exposed_card", "exposed a card"),
                            ("lead_out_of_turn", "led out of turn"),
                            ("played_out_of_turn", "played out of turn"),
                        ],
                        max_length=20,
                    ),
                ),
                ("wrong_cards", models.JSONField(blank=True, default=list)),
                (
                    "turned_suit",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("hearts", "Hearts"),
                            ("clubs", "Clubs"),
                            ("diamonds", "Diamonds"),
                            ("spades", "Spades"),
                        ],
                        help_text="The suit the dealer turned up.",
                        max_length=10,
                    ),
                ),
                (
                    "outcome",
                    models.CharField(
                        choices=[
                            ("played", "played"),
                            ("all_passed", "all passed"),
                            ("void", "void"),
                            ("misdeal", "misdeal"),
                        ],
                        default="played",
                        max_length=12,
                    ),
                ),
                ("notes", models.CharField(blank=True, max_length=200)),
                ("made", models.BooleanField(null=True)),
                ("over_tricks", models.PositiveSmallIntegerField(default=0)),
                ("under_tricks", models.PositiveSmallIntegerField(default=0)),
                ("version", models.PositiveIntegerField(default=1)),
                ("client_id", models.UUIDField(blank=True, editable=False, null=True)),
                (
                    "entry_digest",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                ("entered_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("awaiting_confirmation", models.BooleanField(default=False)),
                (
                    "entered_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "updated_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "dealer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
                (
                    "declarer",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="declared_hands",
                        to="club.player",
                    ),
                ),
                (
                    "last_trick_by",
                    models.ForeignKey(
                        blank=True,
                        help_text="General misère: the player who took the last trick and pays.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
                (
                    "partner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="partnered_hands",
                        to="club.player",
                    ),
                ),
                (
                    "penalty_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
                (
                    "sitting_out",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "number"],
            },
        ),
        migrations.CreateModel(
            name="GradeOptOut",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "player",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="grade_opt_out",
                        to="club.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="GradeNight",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("hands", models.PositiveIntegerField()),
                ("day", models.PositiveIntegerField()),
                ("date", models.DateField()),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.club",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.night",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="GradeLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("hands", models.PositiveIntegerField()),
                ("day", models.PositiveIntegerField()),
                ("sort_key", models.CharField(max_length=48)),
                (
                    "club",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.club",
                    ),
                ),
                (
                    "hand",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="grade_lines",
                        to="club.hand",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.night",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Grade",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("hands", models.PositiveIntegerField()),
                ("day", models.PositiveIntegerField()),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.club",
                    ),
                ),
                (
                    "player",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="grade",
                        to="club.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Debt",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="debts",
                        to="club.club",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="debts",
                        to="club.night",
                    ),
                ),
                (
                    "payee",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="debts_due",
                        to="club.player",
                    ),
                ),
                (
                    "payer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="debts_owed",
                        to="club.player",
                    ),
                ),
            ],
            options={
                "ordering": ["night__date", "id"],
            },
        ),
        migrations.CreateModel(
            name="Arrival",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("date", models.DateField()),
                ("arrived_at", models.DateTimeField(auto_now_add=True)),
                (
                    "via",
                    models.CharField(
                        choices=[
                            ("secretary", "Ticked by a secretary"),
                            ("door", "Ticked in at the door"),
                        ],
                        default="secretary",
                        max_length=10,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="arrivals",
                        to="club.club",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="arrivals",
                        to="club.player",
                    ),
                ),
            ],
            options={
                "ordering": ["-arrived_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="PlayerClaim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("used_at", models.DateTimeField(blank=True, null=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="claims",
                        to="club.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Publication",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="publications",
                        to="club.night",
                    ),
                ),
            ],
            options={
                "ordering": ["night", "number"],
            },
        ),
        migrations.CreateModel(
            name="Delivery",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("email", models.CharField(max_length=254)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "waiting to send"),
                            ("sending", "being sent"),
                            ("sent", "sent"),
                            ("failed", "failed"),
                        ],
                        default="pending",
                        max_length=8,
                    ),
                ),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("error", models.CharField(blank=True, max_length=300)),
                ("next_attempt_at", models.DateTimeField(blank=True, null=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deliveries",
                        to="club.player",
                    ),
                ),
                (
                    "publication",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deliveries",
                        to="club.publication",
                    ),
                ),
            ],
            options={
                "ordering": ["publication", "player__name"],
            },
        ),
        migrations.CreateModel(
            name="RateWindow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=200, unique=True)),
                ("stamps", models.JSONField(default=list)),
                ("expires_at", models.DateTimeField(db_index=True)),
                ("last_allowed", models.BooleanField(default=True)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("key", ""), _negated=True),
                        name="ratewindow_key_not_empty",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Revoke",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="revokes",
                        to="club.hand",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
            ],
            options={
                "ordering": ["hand", "position"],
            },
        ),
        migrations.CreateModel(
            name="RuleSet",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80)),
                (
                    "preset",
                    models.CharField(
                        blank=True,
                        help_text="The preset it was copied from, if any.",
                        max_length=20,
                    ),
                ),
                ("data", models.JSONField(help_text="scoring.RuleSet.to_dict()")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rule_sets",
                        to="club.club",
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.AddField(
            model_name="hand",
            name="rule_set",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="hands", to="club.ruleset"
            ),
        ),
        migrations.CreateModel(
            name="Season",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80)),
                ("start", models.DateField()),
                ("end", models.DateField()),
                (
                    "standings_method",
                    models.CharField(
                        choices=[
                            ("net", "Net amount"),
                            ("points", "Winner-only points"),
                            ("average", "Average per hand"),
                        ],
                        default="net",
                        max_length=10,
                    ),
                ),
                (
                    "min_nights",
                    models.PositiveSmallIntegerField(
                        default=0, help_text="Nights a player needs to qualify for the ladder."
                    ),
                ),
                (
                    "best_nights",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="Only a player's best N nights count (blank: all).",
                        null=True,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seasons",
                        to="club.club",
                    ),
                ),
                (
                    "rule_set",
                    models.ForeignKey(
                        help_text="The stakes the nights settle under.",
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seasons",
                        to="club.ruleset",
                    ),
                ),
                (
                    "standings_rule_set",
                    models.ForeignKey(
                        blank=True,
                        help_text="For winner-only points: the rule set the ladder scores the same hands under.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ladder_seasons",
                        to="club.ruleset",
                    ),
                ),
            ],
            options={
                "ordering": ["-start"],
            },
        ),
        migrations.CreateModel(
            name="ScoreLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.IntegerField()),
                ("points", models.IntegerField(default=0)),
                ("declared", models.BooleanField(default=False)),
                ("declared_made", models.BooleanField(default=False)),
                (
                    "contract",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("prop_cop", "Prop & Cop"),
                            ("solo", "Solo"),
                            ("misere", "Misère"),
                            ("abundance", "Abundance"),
                            ("royal_abundance", "Royal Abundance"),
                            ("open_misere", "Open Misère"),
                            ("abundance_declared", "Abundance Declared"),
                            ("all_passed", "All passed"),
                            ("misdeal", "Cards wrongly dealt"),
                        ],
                        max_length=20,
                    ),
                ),
                ("made", models.BooleanField(default=False)),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="score_lines",
                        to="club.hand",
                    ),
                ),
                (
                    "mate",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        help_text="Prop & Cop: this player's partner on the declaring side.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="club.player",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="score_lines",
                        to="club.night",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="score_lines",
                        to="club.player",
                    ),
                ),
                (
                    "season",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="score_lines",
                        to="club.season",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="NightTotal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("hands", models.IntegerField(default=0)),
                ("net", models.IntegerField(default=0)),
                ("points", models.IntegerField(default=0)),
                ("declared", models.IntegerField(default=0)),
                ("made", models.IntegerField(default=0)),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="totals",
                        to="club.night",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="totals",
                        to="club.player",
                    ),
                ),
                (
                    "season",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="totals",
                        to="club.season",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="night",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="nights", to="club.season"
            ),
        ),
        migrations.CreateModel(
            name="StagedUpload",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64)),
                ("raw", models.BinaryField()),
                ("staged_at", models.DateTimeField()),
            ],
            options={
                "indexes": [models.Index(fields=["staged_at"], name="staged_upload_age")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("digest",), name="staged_upload_one_per_content"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Table",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round_number", models.PositiveSmallIntegerField(default=1)),
                ("number", models.PositiveSmallIntegerField()),
                ("first_dealer", models.PositiveSmallIntegerField(default=0)),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tables",
                        to="club.night",
                    ),
                ),
            ],
            options={
                "ordering": ["round_number", "number"],
            },
        ),
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="club.player",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="club.table",
                    ),
                ),
            ],
            options={
                "ordering": ["position"],
            },
        ),
        migrations.CreateModel(
            name="HandTombstone",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("client_id", models.UUIDField()),
                ("number", models.PositiveSmallIntegerField()),
                ("deleted_at", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.table",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="hand",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="hands", to="club.table"
            ),
        ),
        migrations.CreateModel(
            name="TableCard",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("salt", models.CharField(max_length=40)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("issued_at", models.DateTimeField(auto_now_add=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                ("label", models.CharField(max_length=40)),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_cards",
                        to="club.club",
                    ),
                ),
                (
                    "issued_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["club", "number", "-issued_at"],
            },
        ),
        migrations.AddField(
            model_name="table",
            name="card",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="tables",
                to="club.tablecard",
            ),
        ),
        migrations.CreateModel(
            name="TableLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("salt", models.CharField(max_length=40)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("issued_at", models.DateTimeField(auto_now_add=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "issued_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="links",
                        to="club.table",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "-issued_at"],
            },
        ),
        migrations.CreateModel(
            name="Settlement",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.PositiveIntegerField()),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("paid", "paid"),
                            ("netted", "netted"),
                            ("voided", "voided (the night's settle-up was corrected)"),
                        ],
                        max_length=8,
                    ),
                ),
                ("at", models.DateTimeField(auto_now_add=True)),
                ("note", models.CharField(blank=True, max_length=120)),
                ("via", models.CharField(blank=True, max_length=120)),
                ("undone_at", models.DateTimeField(blank=True, null=True)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "debt",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="settlements",
                        to="club.debt",
                    ),
                ),
                (
                    "netting",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="settlements",
                        to="club.netting",
                    ),
                ),
                (
                    "undone_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "link",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="club.tablelink",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.AddField(
            model_name="hand",
            name="entered_via",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="club.tablelink",
            ),
        ),
        migrations.CreateModel(
            name="AuditEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "night_label",
                    models.CharField(
                        blank=True,
                        help_text='The night, readable: "Club night 20 Nov 2026".',
                        max_length=160,
                    ),
                ),
                ("device", models.CharField(blank=True, max_length=40)),
                ("link_label", models.CharField(blank=True, max_length=40)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("create", "entered"),
                            ("update", "edited"),
                            ("delete", "deleted"),
                            ("close", "closed"),
                            ("reopen", "reopened"),
                            ("confirm", "confirmed"),
                            ("issue", "issued"),
                            ("revoke", "revoked"),
                        ],
                        max_length=10,
                    ),
                ),
                (
                    "subject",
                    models.CharField(
                        help_text='What changed, e.g. "Table 2, hand 7".', max_length=120
                    ),
                ),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="audit_events",
                        to="club.club",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="audit_events",
                        to="club.night",
                    ),
                ),
                (
                    "link",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="club.tablelink",
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Tournament",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80)),
                ("rounds", models.PositiveSmallIntegerField(default=3)),
                ("hands_per_round", models.PositiveSmallIntegerField(default=8)),
                (
                    "scoring_method",
                    models.CharField(
                        choices=[
                            ("amounts", "Amounts summed"),
                            ("table_rank", "Table-rank points per round"),
                        ],
                        default="amounts",
                        max_length=12,
                    ),
                ),
                (
                    "is_public",
                    models.BooleanField(
                        default=False,
                        help_text="Anyone may follow the leaderboard and read the results without logging in.",
                    ),
                ),
                (
                    "seed",
                    models.PositiveIntegerField(
                        default=0,
                        help_text="The seating seed: the same seed and entries give the same seats.",
                    ),
                ),
                (
                    "current_round",
                    models.PositiveSmallIntegerField(
                        default=0, help_text="The round in play; 0 before the first round opens."
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("setup", "Entries open"),
                            ("running", "Running"),
                            ("finished", "Finished"),
                        ],
                        default="setup",
                        max_length=8,
                    ),
                ),
                (
                    "extra_hands_allowed",
                    models.BooleanField(
                        default=False,
                        help_text="Tables may save hands past the round's number (they are warned).",
                    ),
                ),
                ("planned_max_meetings", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tournaments",
                        to="club.club",
                    ),
                ),
                (
                    "director",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "night",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tournament",
                        to="club.night",
                    ),
                ),
            ],
            options={
                "ordering": ["-night__date", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Entry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("joined_round", models.PositiveSmallIntegerField(default=1)),
                ("withdrawn_after_round", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("entered_at", models.DateTimeField(auto_now_add=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="club.player",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="club.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["player__name"],
            },
        ),
        migrations.CreateModel(
            name="GradeBacklog",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("from_key", models.CharField(max_length=60)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="club.club",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["club", "from_key"], name="grade_backlog_club_key")
                ],
            },
        ),
        migrations.CreateModel(
            name="GradeSettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "enabled",
                    models.BooleanField(
                        default=True, help_text="Show grades on the standings and player pages."
                    ),
                ),
                (
                    "min_hands",
                    models.PositiveSmallIntegerField(
                        default=60, help_text="Rated hands before a grade stops being provisional."
                    ),
                ),
                (
                    "ladder_by_grade",
                    models.BooleanField(
                        default=False,
                        help_text="The standings table is ordered by grade rather than by money.",
                    ),
                ),
                (
                    "club",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="grading",
                        to="club.club",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "grade settings",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("min_hands__gte", 1), ("min_hands__lte", 10000)),
                        name="grade_settings_min_hands_1_to_10000",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("secretary", "Secretary"),
                            ("scorer", "Table scorer"),
                            ("viewer", "Viewer"),
                        ],
                        default="viewer",
                        max_length=10,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("accepted_at", models.DateTimeField(blank=True, null=True)),
                ("declined_at", models.DateTimeField(blank=True, null=True)),
                ("withdrawn_at", models.DateTimeField(blank=True, null=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="club.club",
                    ),
                ),
                (
                    "invited_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="club_invitations",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(
                            ("accepted_at", None), ("declined_at", None), ("withdrawn_at", None)
                        ),
                        fields=("club", "user"),
                        name="invitation_one_open_per_club_user",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("accepted_at", None), ("declined_at", None)),
                            models.Q(("accepted_at", None), ("withdrawn_at", None)),
                            models.Q(("declined_at", None), ("withdrawn_at", None)),
                            _connector="OR",
                        ),
                        name="invitation_ends_one_way",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("secretary", "Secretary"),
                            ("scorer", "Table scorer"),
                            ("viewer", "Viewer"),
                        ],
                        default="viewer",
                        max_length=10,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to="club.club",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "club"), name="membership_one_per_user_club"
                    )
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="netting",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="netting_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"),
                models.F("club"),
                name="player_name_unique_in_club_ignoring_case",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("club", "name_key"), name="player_name_key_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("club", "user"),
                name="player_one_record_per_user_in_club",
            ),
        ),
        migrations.AddIndex(
            model_name="gradenight",
            index=models.Index(fields=["player", "date", "night"], name="grade_night_player_date"),
        ),
        migrations.AddIndex(
            model_name="gradenight",
            index=models.Index(fields=["club", "date", "night"], name="grade_night_club_date"),
        ),
        migrations.AddConstraint(
            model_name="gradenight",
            constraint=models.UniqueConstraint(
                fields=("player", "night"), name="grade_night_one_per_player"
            ),
        ),
        migrations.AddIndex(
            model_name="gradeline",
            index=models.Index(fields=["player", "sort_key"], name="grade_line_player_key"),
        ),
        migrations.AddIndex(
            model_name="gradeline",
            index=models.Index(fields=["club", "sort_key"], name="grade_line_club_key"),
        ),
        migrations.AddConstraint(
            model_name="gradeline",
            constraint=models.UniqueConstraint(
                fields=("hand", "player"), name="grade_line_one_per_player"
            ),
        ),
        migrations.AddIndex(
            model_name="grade",
            index=models.Index(fields=["club", "mu"], name="grade_club_mu"),
        ),
        migrations.AddIndex(
            model_name="debt",
            index=models.Index(fields=["club", "payer"], name="debt_club_payer"),
        ),
        migrations.AddIndex(
            model_name="debt",
            index=models.Index(fields=["club", "payee"], name="debt_club_payee"),
        ),
        migrations.AddConstraint(
            model_name="debt",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="debt_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="debt",
            constraint=models.CheckConstraint(
                condition=models.Q(("payer", models.F("payee")), _negated=True),
                name="debt_between_two_players",
            ),
        ),
        migrations.AddConstraint(
            model_name="arrival",
            constraint=models.UniqueConstraint(
                fields=("club", "date", "player"), name="arrival_once_per_player_and_date"
            ),
        ),
        migrations.AddConstraint(
            model_name="publication",
            constraint=models.UniqueConstraint(
                fields=("night", "number"), name="publication_number_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="delivery",
            index=models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.UniqueConstraint(
                fields=("publication", "player"), name="delivery_one_per_player_per_publication"
            ),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.CheckConstraint(
                condition=models.Q(("sent_at__isnull", True), ("status", "sent"), _connector="OR"),
                name="delivery_sent_at_only_when_sent",
            ),
        ),
        migrations.AddConstraint(
            model_name="revoke",
            constraint=models.UniqueConstraint(
                fields=("hand", "position"), name="revoke_position_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="revoke",
            constraint=models.CheckConstraint(
                condition=models.Q(("position__lte", 12)), name="revoke_position_0_to_12"
            ),
        ),
        migrations.AddConstraint(
            model_name="ruleset",
            constraint=models.UniqueConstraint(
                fields=("club", "name"), name="ruleset_name_unique_in_club"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(
                fields=("club", "name"), name="season_name_unique_in_club"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("end__gte", models.F("start"))), name="season_ends_after_start"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("best_nights__isnull", True), ("best_nights__gte", 1), _connector="OR"
                ),
                name="season_best_nights_at_least_1",
            ),
        ),
        migrations.AddIndex(
            model_name="scoreline",
            index=models.Index(fields=["season", "player"], name="score_line_season_player"),
        ),
        migrations.AddIndex(
            model_name="scoreline",
            index=models.Index(fields=["night", "player"], name="score_line_night_player"),
        ),
        migrations.AddIndex(
            model_name="scoreline",
            index=models.Index(
                condition=models.Q(("declared", True)),
                fields=["season", "player"],
                include=("contract", "amount", "declared_made"),
                name="score_line_declared_player",
            ),
        ),
        migrations.AddIndex(
            model_name="scoreline",
            index=models.Index(
                condition=models.Q(("mate__isnull", False)),
                fields=["season", "player"],
                include=("mate", "made", "amount"),
                name="score_line_mate_player",
            ),
        ),
        migrations.AddIndex(
            model_name="scoreline",
            index=models.Index(
                condition=models.Q(("declared", True)),
                fields=["season", "-amount"],
                name="score_line_declared_amount",
            ),
        ),
        migrations.AddConstraint(
            model_name="scoreline",
            constraint=models.UniqueConstraint(
                fields=("hand", "player"), name="score_line_one_per_player"
            ),
        ),
        migrations.AddIndex(
            model_name="nighttotal",
            index=models.Index(fields=["season", "player"], name="night_total_season_player"),
        ),
        migrations.AddConstraint(
            model_name="nighttotal",
            constraint=models.UniqueConstraint(
                fields=("night", "player"), name="night_total_one_per_player"
            ),
        ),
        migrations.AddIndex(
            model_name="night",
            index=models.Index(fields=["season", "date"], name="night_season_date"),
        ),
        migrations.AddConstraint(
            model_name="night",
            constraint=models.UniqueConstraint(
                fields=("form_token",), name="night_form_token_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="night",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("published_at__isnull", True), ("status", "closed"), _connector="OR"
                ),
                name="night_published_only_when_closed",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("table", "position"), name="seat_position_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("table", "player"), name="seat_player_once_per_table"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(("position__lte", 4)), name="seat_position_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="handtombstone",
            constraint=models.UniqueConstraint(
                fields=("client_id",), name="hand_tombstone_client_id_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="tablecard",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("club", "number"),
                name="table_card_one_live_per_number",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablecard",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="table_card_number_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="tablecard",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("revoked_at__isnull", True),
                    ("revoked_at__gte", models.F("issued_at")),
                    _connector="OR",
                ),
                name="table_card_revoked_after_issued",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                fields=("night", "card"), name="table_one_per_card_a_night"
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                fields=("night", "round_number", "number"), name="table_number_unique_in_round"
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="table_number_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_dealer__lte", 4)), name="table_first_dealer_is_a_seat"
            ),
        ),
        migrations.AddConstraint(
            model_name="tablelink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("table",),
                name="table_link_one_live_per_table",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablelink",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("revoked_at__isnull", True),
                    ("revoked_at__gte", models.F("issued_at")),
                    _connector="OR",
                ),
                name="table_link_revoked_after_issued",
            ),
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="settlement_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.CheckConstraint(
                condition=models.Q(("undone_at__isnull", True), ("kind", "paid"), _connector="OR"),
                name="settlement_only_payments_undone",
            ),
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.CheckConstraint(
                condition=models.Q(("netting__isnull", True), ("kind", "netted"), _connector="OR"),
                name="settlement_netting_only_when_netted",
            ),
        ),
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(
                condition=models.Q(("awaiting_confirmation", True)),
                fields=["table"],
                name="hand_awaiting_confirmation",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                fields=("table", "number"), name="hand_number_unique_at_table"
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(fields=("client_id",), name="hand_client_id_unique"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="hand_number_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("tricks__isnull", True), ("tricks__lte", 13), _connector="OR"),
                name="hand_tricks_0_to_13",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("contract__in", ("all_passed", "misdeal")),
                    models.Q(
                        ("declarer__isnull", False),
                        models.Q(
                            ("tricks__isnull", False),
                            models.Q(("penalty", ""), _negated=True),
                            models.Q(("wrong_cards", []), _negated=True),
                            _connector="OR",
                        ),
                    ),
                    _connector="OR",
                ),
                name="hand_contract_has_declarer_and_tricks",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("penalty", ""), ("penalty_by__isnull", True)),
                    models.Q(
                        models.Q(("penalty", ""), _negated=True), ("penalty_by__isnull", False)
                    ),
                    _connector="OR",
                ),
                name="hand_penalty_has_its_offender",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("contract__in", ("all_passed", "misdeal")), _negated=True),
                    models.Q(
                        ("declarer__isnull", True),
                        ("tricks__isnull", True),
                        ("penalty", ""),
                        ("wrong_cards", []),
                    ),
                    _connector="OR",
                ),
                name="hand_no_contract_no_declarer",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("partner__isnull", True),
                    models.Q(
                        ("contract", "prop_cop"),
                        models.Q(("partner", models.F("declarer")), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="hand_partner_only_for_prop_cop",
            ),
        ),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["night", "at"], name="audit_night_at"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("rounds__gte", 1), ("rounds__lte", 30)),
                name="tournament_rounds_1_to_30",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("hands_per_round__gte", 1), ("hands_per_round__lte", 60)),
                name="tournament_hands_per_round_1_to_60",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("current_round__lte", models.F("rounds"))),
                name="tournament_current_round_within_rounds",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "setup"), ("current_round", 0)),
                    models.Q(("status__in", ["running", "finished"]), ("current_round__gte", 1)),
                    _connector="OR",
                ),
                name="tournament_status_matches_round",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("scoring_method__in", ["amounts", "table_rank"])),
                name="tournament_scoring_method_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(
                fields=("tournament", "player"), name="entry_once_per_player"
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(("joined_round__gte", 1)), name="entry_joins_round_1_on"
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("withdrawn_after_round__isnull", True),
                    ("withdrawn_after_round__gte", models.F("joined_round")),
                    _connector="OR",
                ),
                name="entry_withdraws_after_playing",
            ),
        ),
        migrations.RunPython(install_night_total_triggers, drop_night_total_triggers),
    ]
