"""Matches paired before ``Match.tournament_id`` existed get it from their pairing."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def fill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Pairing = apps.get_model("tournaments", "Pairing")
    Match.objects.filter(tournament_pairing__isnull=False).update(
        tournament_id=Subquery(
            Pairing.objects.filter(match_id=OuterRef("pk")).values("tournament_id")[:1]
        )
    )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_match_tournament_id"),
        ("tournaments", "0001_initial"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
