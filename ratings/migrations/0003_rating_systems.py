from django.db import migrations


def add_systems(apps, schema_editor):
    from adlg_site.reference_data import ensure_ratings_reference

    ensure_ratings_reference(apps)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_initial")]
    operations = [migrations.RunPython(add_systems, migrations.RunPython.noop)]
