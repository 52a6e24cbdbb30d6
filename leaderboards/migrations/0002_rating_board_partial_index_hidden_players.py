"""The rating board's index covers only rated players (the count of players ahead is an
index-only scan), and a partial index lists the accounts hidden from the boards
(inactive: banned or deleted; guests): a board position is the stored rank minus the
hidden players ranked ahead, found through this index instead of a scan of every
account. It lives on the user table but serves only the leaderboards, so it is
created here."""

from django.conf import settings
from django.db import migrations, models

HIDDEN_USER_INDEX = "leaderboards_hidden_user"


def create_hidden_user_index(apps, schema_editor) -> None:
    table = schema_editor.quote_name(apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table)
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {HIDDEN_USER_INDEX} ON {table} (id)"
        " WHERE NOT is_active OR is_guest"
    )


def drop_hidden_user_index(apps, schema_editor) -> None:
    schema_editor.execute(f"DROP INDEX IF EXISTS {HIDDEN_USER_INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="rating", name="rating_board_order"),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                condition=models.Q(("rated_matches__gt", 0)),
                fields=["-rating", "user"],
                name="rated_board_order",
            ),
        ),
        migrations.RunPython(create_hidden_user_index, drop_hidden_user_index),
    ]
