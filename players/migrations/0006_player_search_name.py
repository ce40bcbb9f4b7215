"""Each player's folded name (rules.names.fold_name, kept by the model): the name search ignores accents and case on
SQLite and PostgreSQL alike ("Benoit" finds Benoît). The existing players' column is filled here. On PostgreSQL a
trigram index serves `LIKE '%word%'` on it; the two indexes on UPPER(last_name) and UPPER(first_name), which only
`icontains` on the names used, go."""

from importlib import import_module

from django.db import migrations, models

from rules.names import fold_name

# On SQLite, adding a NOT NULL column rebuilds players_player, which the rating row's triggers name (ratings/0006):
# SQLite refuses to drop and rename a table a trigger reads. They are dropped around the rebuild and made again,
# from their one definition.
RATING_ROW_TRIGGERS = import_module("ratings.migrations.0006_rating_list_filters_on_the_rating_row")

CREATE = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS player_search_name_trigram ON players_player USING gin (search_name gin_trgm_ops)",
    "DROP INDEX IF EXISTS player_last_name_trigram",
    "DROP INDEX IF EXISTS player_first_name_trigram",
]
DROP = [
    "DROP INDEX IF EXISTS player_search_name_trigram",
    "CREATE INDEX IF NOT EXISTS player_last_name_trigram ON players_player USING gin (UPPER(last_name) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS player_first_name_trigram ON players_player "
    "USING gin (UPPER(first_name) gin_trgm_ops)",
]
BATCH = 2000


def search_names_fill(apps, schema_editor):
    player_model = apps.get_model("players", "Player")
    batch = []
    for player in player_model.objects.only("id", "first_name", "last_name").iterator(chunk_size=BATCH):
        player.search_name = fold_name(f"{player.first_name} {player.last_name}")
        batch.append(player)
        if len(batch) == BATCH:
            player_model.objects.bulk_update(batch, ["search_name"])
            batch = []
    player_model.objects.bulk_update(batch, ["search_name"])


def sqlite_triggers_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in RATING_ROW_TRIGGERS.SQLITE_DROP:
            schema_editor.execute(statement)


def sqlite_triggers_create(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in RATING_ROW_TRIGGERS.SQLITE:
            schema_editor.execute(statement)


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
        ("players", "0005_sanction_tournament"),
        ("ratings", "0006_rating_list_filters_on_the_rating_row"),
    ]

    operations = [
        migrations.RunPython(sqlite_triggers_drop, sqlite_triggers_create),
        migrations.AddField(
            model_name="player",
            name="search_name",
            field=models.TextField(default="", editable=False, verbose_name="name as searched"),
        ),
        migrations.RunPython(sqlite_triggers_create, sqlite_triggers_drop),
        migrations.RunPython(search_names_fill, migrations.RunPython.noop),
        migrations.RunPython(indexes_create, indexes_drop),
    ]
