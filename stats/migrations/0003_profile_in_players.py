"""Profile moved to the players app with its table (stats_profile): the foreign keys only
change in Django's state, the database is left as it is."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cardoku', '0004_profile_in_players'),
        ('domino', '0003_profile_in_players'),
        ('games', '0003_profile_in_players'),
        ('players', '0001_initial'),
        ('rooms', '0006_profile_in_players'),
        ('stats', '0002_showdownresult'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='showdownresult',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='showdown_results', to='players.profile'),
                ),
                migrations.DeleteModel(
                    name='Profile',
                ),
            ],
        ),
    ]
