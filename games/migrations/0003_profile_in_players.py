"""Profile moved to the players app with its table (stats_profile): the foreign keys only
change in Django's state, the database is left as it is."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_revision'),
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='solorun',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='solo_runs', to='players.profile'),
                ),
            ],
        ),
    ]
