"""Fewer indexes for a move to update: the match row is rewritten on every move, and
when the turn passes (its clock_due_at changes) PostgreSQL adds the new row version to
every index of the table whose condition the row meets. Dropped: the indexes that
repeat the leading column of a unique constraint (seat, hand and move by match; match
by status), and the pattern-matching copies of the invitation token and offline id.
The indexes on columns that stay null while a match is in play are partial."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_offline_matches"),
    ]

    operations = [
        migrations.AlterField(
            model_name="hand",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hands",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="match",
            name="invite_token",
            field=models.CharField(blank=True, max_length=32, null=True),
        ),
        migrations.AlterField(
            model_name="match",
            name="offline_id",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AlterField(
            model_name="match",
            name="rematch_of",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematches",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="status",
            field=models.CharField(
                choices=[
                    ("waiting", "Waiting for an opponent"),
                    ("active", "In play"),
                    ("finished", "Finished"),
                    ("cancelled", "Invitation closed"),
                ],
                default="waiting",
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="move",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="moves",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.match",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("finished_at__isnull", False)),
                fields=["finished_at"],
                name="match_finished_at",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("rematch_of__isnull", False)),
                fields=["rematch_of"],
                name="match_rematch_of",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("invite_token__isnull", False)),
                fields=("invite_token",),
                name="match_invite_token",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("offline_id__isnull", False)),
                fields=("offline_id",),
                name="match_offline_id",
            ),
        ),
    ]
