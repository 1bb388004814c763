"""Hints are the race's own count, kept in the seat's board: Seat keeps only what every game has."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0007_roomresult'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='seat',
            name='hints',
        ),
        migrations.AlterField(
            model_name='seat',
            name='mistakes',
            field=models.PositiveIntegerField(default=0, help_text='Showdown: mistakes; Domino: lives lost'),
        ),
    ]
