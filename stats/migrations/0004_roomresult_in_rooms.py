"""ShowdownResult lives on as rooms.RoomResult (rooms 0007 took over its table)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0007_roomresult"),
        ("stats", "0003_profile_in_players"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="ShowdownResult")]),
    ]
