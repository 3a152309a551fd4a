"""Every model leaves the label "club" for the app of its domain (club/clubs, club/play, ...).

No table changes: each app's first migration adopted its tables (db_table keeps their names), and
this one only forgets the models under their old label. What names a model or a task by its old
place follows it: the content types (so the permissions, the admin's log and any generic link
keep pointing at the same model) and the paths of tasks still waiting in the queue.
"""

from django.db import migrations

# The models' new labels, by model name (lower case, as content types store it).
MOVED = {
    "clubs": [
        "auditevent",
        "club",
        "invitation",
        "membership",
        "player",
        "playerclaim",
        "ratewindow",
        "ruleset",
        "season",
    ],
    "play": [
        "arrival",
        "hand",
        "handtombstone",
        "night",
        "nightsheetcache",
        "nighttotal",
        "revoke",
        "scoreline",
        "seat",
        "table",
        "tablecard",
        "tablelink",
    ],
    "money": ["debt", "delivery", "netting", "publication", "settlement"],
    "grades": ["grade", "gradebacklog", "gradeline", "gradenight", "gradeoptout", "gradesettings"],
    "tournaments": ["entry", "tournament"],
    "interchange": ["stagedupload"],
}

# Each task's module, before and after. Tasks queued by an older release may also name
# `club.tasks.<task>`, the list the one app kept for them.
TASKS = {
    "send_claim_link": ("club.services.account_mail", "club.clubs.services.account_mail"),
    "send_password_reset": ("club.services.account_mail", "club.clubs.services.account_mail"),
    "send_closing_notice": ("club.services.closing_mail", "club.clubs.services.closing_mail"),
    "finish_sign_up": ("club.services.signup", "club.clubs.services.signup"),
    "drain_grades": ("club.services.grades", "club.grades.services.grades"),
    "publish_when_due": ("club.services.publish", "club.money.services.publish"),
    "send_results": ("club.services.publish", "club.money.services.publish"),
}


def _relabel(apps, schema_editor, old_of, new_of) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for app, models in MOVED.items():
        for model in models:
            content_type.objects.using(db).filter(app_label=old_of(app), model=model).update(
                app_label=new_of(app)
            )


def _move_tasks(apps, schema_editor, forwards: bool) -> None:
    result = apps.get_model("django_tasks_database", "DBTaskResult")
    db = schema_editor.connection.alias
    for task, (old, new) in TASKS.items():
        if forwards:
            olds, path = [f"{old}.{task}", f"club.tasks.{task}"], f"{new}.{task}"
        else:
            olds, path = [f"{new}.{task}"], f"{old}.{task}"
        result.objects.using(db).filter(task_path__in=olds).update(task_path=path)


def forwards(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, old_of=lambda app: "club", new_of=lambda app: app)
    _move_tasks(apps, schema_editor, forwards=True)


def backwards(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, old_of=lambda app: app, new_of=lambda app: "club")
    _move_tasks(apps, schema_editor, forwards=False)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0027_canonical_time_zones"),
        ("clubs", "0002_initial"),
        ("play", "0001_initial"),
        ("money", "0001_initial"),
        ("grades", "0001_initial"),
        ("tournaments", "0001_initial"),
        ("interchange", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("django_tasks_database", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="arrival",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="arrival",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="auditevent",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="auditevent",
                    name="link",
                ),
                migrations.RemoveField(
                    model_name="auditevent",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="auditevent",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="gradebacklog",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="invitation",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="tablecard",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="gradesettings",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="tournament",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="gradeline",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="netting",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="grade",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="gradenight",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="season",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="ruleset",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="debt",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="debt",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="debt",
                    name="payee",
                ),
                migrations.RemoveField(
                    model_name="debt",
                    name="payer",
                ),
                migrations.RemoveField(
                    model_name="settlement",
                    name="debt",
                ),
                migrations.RemoveField(
                    model_name="delivery",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="delivery",
                    name="publication",
                ),
                migrations.RemoveField(
                    model_name="entry",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="entry",
                    name="tournament",
                ),
                migrations.RemoveField(
                    model_name="grade",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="gradeline",
                    name="hand",
                ),
                migrations.RemoveField(
                    model_name="gradeline",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="gradeline",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="gradenight",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="gradenight",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="gradeoptout",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="declarer",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="entered_by",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="entered_via",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="last_trick_by",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="partner",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="penalty_by",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="rule_set",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="sitting_out",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="hand",
                    name="updated_by",
                ),
                migrations.RemoveField(
                    model_name="revoke",
                    name="hand",
                ),
                migrations.RemoveField(
                    model_name="scoreline",
                    name="hand",
                ),
                migrations.RemoveField(
                    model_name="handtombstone",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="invitation",
                    name="invited_by",
                ),
                migrations.RemoveField(
                    model_name="invitation",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="netting",
                    name="by",
                ),
                migrations.RemoveField(
                    model_name="settlement",
                    name="netting",
                ),
                migrations.RemoveField(
                    model_name="night",
                    name="closed_by",
                ),
                migrations.RemoveField(
                    model_name="night",
                    name="season",
                ),
                migrations.RemoveField(
                    model_name="table",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="scoreline",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="nighttotal",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="nightsheetcache",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="publication",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="tournament",
                    name="night",
                ),
                migrations.RemoveField(
                    model_name="nighttotal",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="nighttotal",
                    name="season",
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="revoke",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="scoreline",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="playerclaim",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="scoreline",
                    name="mate",
                ),
                migrations.RemoveField(
                    model_name="seat",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="publication",
                    name="by",
                ),
                migrations.DeleteModel(
                    name="RateWindow",
                ),
                migrations.RemoveField(
                    model_name="season",
                    name="standings_rule_set",
                ),
                migrations.RemoveField(
                    model_name="season",
                    name="rule_set",
                ),
                migrations.RemoveField(
                    model_name="scoreline",
                    name="season",
                ),
                migrations.RemoveField(
                    model_name="seat",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="settlement",
                    name="by",
                ),
                migrations.RemoveField(
                    model_name="settlement",
                    name="link",
                ),
                migrations.RemoveField(
                    model_name="settlement",
                    name="undone_by",
                ),
                migrations.DeleteModel(
                    name="StagedUpload",
                ),
                migrations.RemoveField(
                    model_name="table",
                    name="card",
                ),
                migrations.RemoveField(
                    model_name="tablelink",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="tablecard",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="tablecard",
                    name="revoked_by",
                ),
                migrations.RemoveField(
                    model_name="tablelink",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="tablelink",
                    name="revoked_by",
                ),
                migrations.RemoveField(
                    model_name="tournament",
                    name="director",
                ),
                migrations.DeleteModel(
                    name="Arrival",
                ),
                migrations.DeleteModel(
                    name="AuditEvent",
                ),
                migrations.DeleteModel(
                    name="GradeBacklog",
                ),
                migrations.DeleteModel(
                    name="GradeSettings",
                ),
                migrations.DeleteModel(
                    name="Club",
                ),
                migrations.DeleteModel(
                    name="Debt",
                ),
                migrations.DeleteModel(
                    name="Delivery",
                ),
                migrations.DeleteModel(
                    name="Entry",
                ),
                migrations.DeleteModel(
                    name="Grade",
                ),
                migrations.DeleteModel(
                    name="GradeLine",
                ),
                migrations.DeleteModel(
                    name="GradeNight",
                ),
                migrations.DeleteModel(
                    name="GradeOptOut",
                ),
                migrations.DeleteModel(
                    name="Hand",
                ),
                migrations.DeleteModel(
                    name="HandTombstone",
                ),
                migrations.DeleteModel(
                    name="Invitation",
                ),
                migrations.DeleteModel(
                    name="Membership",
                ),
                migrations.DeleteModel(
                    name="Netting",
                ),
                migrations.DeleteModel(
                    name="NightSheetCache",
                ),
                migrations.DeleteModel(
                    name="Night",
                ),
                migrations.DeleteModel(
                    name="NightTotal",
                ),
                migrations.DeleteModel(
                    name="Revoke",
                ),
                migrations.DeleteModel(
                    name="PlayerClaim",
                ),
                migrations.DeleteModel(
                    name="Player",
                ),
                migrations.DeleteModel(
                    name="Publication",
                ),
                migrations.DeleteModel(
                    name="RuleSet",
                ),
                migrations.DeleteModel(
                    name="ScoreLine",
                ),
                migrations.DeleteModel(
                    name="Season",
                ),
                migrations.DeleteModel(
                    name="Seat",
                ),
                migrations.DeleteModel(
                    name="Settlement",
                ),
                migrations.DeleteModel(
                    name="Table",
                ),
                migrations.DeleteModel(
                    name="TableCard",
                ),
                migrations.DeleteModel(
                    name="TableLink",
                ),
                migrations.DeleteModel(
                    name="Tournament",
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards),
    ]
