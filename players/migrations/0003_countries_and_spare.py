from django.db import migrations


def add_countries_and_spare(apps, schema_editor):
    from adlg_site.reference_data import ensure_players_reference

    ensure_players_reference(apps)


class Migration(migrations.Migration):
    dependencies = [("players", "0002_initial")]
    operations = [migrations.RunPython(add_countries_and_spare, migrations.RunPython.noop)]
