# The hand's single revoke column, now copied into the revoke rows (0015).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("club", "0015_rulings_data")]

    operations = [
        migrations.RemoveField(model_name="hand", name="revoke_by"),
    ]
