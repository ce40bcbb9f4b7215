"""Trigram indexes for the search by part of a name (PostgreSQL only): `icontains` is UPPER(name) LIKE
UPPER('%word%'), which no B-tree can serve; on 100,000 players a scan costs tens of milliseconds a page.
pg_trgm is a trusted extension: the database's owner may create it. SQLite scans (a few ms there)."""

from django.db import migrations

CREATE = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS player_last_name_trigram ON players_player USING gin (UPPER(last_name) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS player_first_name_trigram ON players_player "
    "USING gin (UPPER(first_name) gin_trgm_ops)",
]
DROP = ["DROP INDEX IF EXISTS player_last_name_trigram", "DROP INDEX IF EXISTS player_first_name_trigram"]


def indexes_create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def indexes_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0003_countries_and_spare"),
    ]

    operations = [
        migrations.RunPython(indexes_create, indexes_drop),
    ]
