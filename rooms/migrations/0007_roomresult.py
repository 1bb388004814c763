"""ShowdownResult (stats) becomes RoomResult (rooms): every row is kept. The table moves from
stats_showdownresult to rooms_roomresult; what each game type records of its own (difficulty,
rules preset, mistakes, hints, Cardoku's layout) moves from the columns into `summary`, and
whether a row counts in the totals (not a custom-rule showdown) into `in_totals`."""

import django.db.models.deletion
from django.db import migrations, models


def to_summary(row) -> dict:
    # The game types' result_summary as it was when this migration was written.
    if row.game == "cardoku":
        return {"layout": row.preset}
    summary = {"difficulty": row.difficulty} if row.difficulty else {}
    summary["mistakes"] = row.mistakes
    if row.game == "showdown":
        summary.update(preset=row.preset, hints=row.hints)
    return summary


def fill_summaries(apps, schema_editor):
    RoomResult = apps.get_model("rooms", "RoomResult")
    for row in RoomResult.objects.all().iterator():
        row.summary = to_summary(row)
        row.in_totals = row.preset != "custom"
        row.save(update_fields=["summary", "in_totals"])


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="rooms", model="roomresult").exists():
        ContentType.objects.filter(app_label="stats", model="showdownresult").update(
            app_label="rooms", model="roomresult"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("players", "0001_initial"),
        ("rooms", "0006_profile_in_players"),
        ("stats", "0003_profile_in_players"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RoomResult",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("room_code", models.CharField(max_length=6)),
                        ("game", models.CharField(default="showdown", max_length=12)),
                        ("placement", models.PositiveSmallIntegerField()),
                        ("player_count", models.PositiveSmallIntegerField()),
                        ("difficulty", models.CharField(max_length=8)),
                        ("preset", models.CharField(max_length=10)),
                        ("status", models.CharField(max_length=10)),
                        ("seconds", models.FloatField(blank=True, null=True)),
                        ("score", models.IntegerField()),
                        ("mistakes", models.PositiveIntegerField()),
                        ("hints", models.PositiveIntegerField()),
                        ("finished_at", models.DateTimeField()),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="room_results",
                                to="players.profile",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "stats_showdownresult",
                        "ordering": ["-finished_at"],
                        "constraints": [
                            models.UniqueConstraint(fields=("player", "room_code"), name="one_result_per_room")
                        ],
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="roomresult", table=None),
        migrations.RunPython(move_content_type, migrations.RunPython.noop),
        migrations.AddField(
            model_name="roomresult",
            name="in_totals",
            field=models.BooleanField(
                default=True, help_text="False for a custom-rule room: kept in the history, left out of the totals"
            ),
        ),
        migrations.AddField(
            model_name="roomresult",
            name="summary",
            field=models.JSONField(blank=True, default=dict, help_text="The game type's own record (difficulty, ...)"),
        ),
        migrations.RunPython(fill_summaries, migrations.RunPython.noop),
        migrations.RemoveField(model_name="roomresult", name="difficulty"),
        migrations.RemoveField(model_name="roomresult", name="hints"),
        migrations.RemoveField(model_name="roomresult", name="mistakes"),
        migrations.RemoveField(model_name="roomresult", name="preset"),
        migrations.AlterField(model_name="roomresult", name="game", field=models.CharField(max_length=12)),
    ]
