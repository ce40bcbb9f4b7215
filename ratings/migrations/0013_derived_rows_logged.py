"""The derived tables are logged again, like every other table: a standby and a physical backup must have them.

They had been UNLOGGED (0011) to save a million-game replay its write-ahead log; a federation of forty thousand
games does not need that, and crash recovery emptied them. The mark that detected such a loss goes with it.
"""

from django.db import migrations

DERIVED_TABLES = [
    "ratings_ratingevent", "ratings_playerrating", "ratings_ratingcount",
    "tournaments_standing", "tournaments_tournamentoutcome",
    "championship_championshipresult", "championship_championshiptotal",
]


def persistence(setting):
    def alter(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in DERIVED_TABLES:
            schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(table)} SET {setting}")
    return alter


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0012_rating_list_indexes_lead_with_the_sort_key"),
        ("tournaments", "0004_standing_tournament_index_dropped"),
        ("championship", "0006_player_first_indexes"),
    ]

    operations = [
        migrations.RunPython(persistence("LOGGED"), persistence("UNLOGGED")),
        migrations.DeleteModel(name="DerivedRowsMark"),
    ]
