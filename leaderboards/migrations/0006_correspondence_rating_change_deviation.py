"""A correspondence rating change keeps the deviation and volatility after it, as a live
rating change does, so that voiding a farmed match can replay correspondence ratings.
Changes made before have the defaults (no history to rebuild them from)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboards", "0005_correspondence_rating"),
    ]

    operations = [
        migrations.AddField(
            model_name="correspondenceratingchange",
            name="deviation",
            field=models.FloatField(default=350.0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="correspondenceratingchange",
            name="volatility",
            field=models.FloatField(default=0.06),
            preserve_default=False,
        ),
    ]
