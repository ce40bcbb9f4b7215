"""PlayerRating.system loses the index of its own (and PostgreSQL's LIKE index): the unique (system, player) and
every rating list index start with the system.

Done by dropping the indexes, not by AlterField's database operation: on SQLite that remakes the table, which
the triggers of migration 0006 (they update ratings_playerrating when a player changes) do not survive."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "ratings_playerrating_system_id_6bcf4dbd"


def drop_indexes(apps, schema_editor):
    for name in (f"{INDEX}_like", INDEX):
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


def create_indexes(apps, schema_editor):
    schema_editor.execute(f'CREATE INDEX "{INDEX}" ON "ratings_playerrating" ("system_id")')
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX "{INDEX}_like" ON "ratings_playerrating" ("system_id" varchar_pattern_ops)')


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0008_history_without_tournament_index'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='playerrating',
                    name='system',
                    field=models.ForeignKey(db_constraint=False, db_index=False,
                                            on_delete=django.db.models.deletion.CASCADE, related_name='+',
                                            to='ratings.ratingsystem'),
                ),
            ],
            database_operations=[migrations.RunPython(drop_indexes, create_indexes)],
        ),
    ]
