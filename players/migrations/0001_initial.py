"""Profile moves from the stats app to players: the table (stats_profile) and every foreign
key to it stay as they are; only Django's idea of which app owns the model changes."""

import players.models
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    # Admin log entries and permissions keep pointing at the same model.
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="players", model="profile").exists():
        ContentType.objects.filter(app_label="stats", model="profile").update(app_label="players")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("stats", "0002_showdownresult"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Profile",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("token", models.CharField(default=players.models.new_token, editable=False, max_length=64, unique=True)),
                        ("display_name", models.CharField(default=players.models.default_name, max_length=24)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("last_seen", models.DateTimeField(auto_now=True)),
                    ],
                    options={"ordering": ["-created_at"], "db_table": "stats_profile"},
                ),
            ],
        ),
        migrations.RunPython(move_content_type, migrations.RunPython.noop),
    ]
