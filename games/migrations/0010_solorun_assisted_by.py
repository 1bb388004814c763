from django.db import migrations, models


def backfill(apps, schema_editor):
    """Runs already Assisted get their cause from what they kept: a hint, more than 5
    mistakes (games/sudoku/solo.py CLASSIC_MISTAKES), or else the long pause (the only other one)."""
    SoloRun = apps.get_model("games", "SoloRun")
    assisted = SoloRun.objects.filter(assisted=True, assisted_by="")
    assisted.filter(hints__gt=0).update(assisted_by="hint")
    assisted.filter(mistakes__gt=5).update(assisted_by="mistakes")
    assisted.update(assisted_by="pause")  # each update reads the rows still without a cause


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_solorun_ghost"),
    ]

    operations = [
        migrations.AddField(
            model_name="solorun",
            name="assisted_by",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Classic"),
                    ("hint", "A hint"),
                    ("mistakes", "Too many mistakes"),
                    ("pause", "A pause over 10 s"),
                ],
                db_default="",
                default="",
                max_length=8,
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
