import gettext

from django.db import migrations


def add_countries_and_spare(apps, schema_editor):
    import pycountry

    french = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["fr"], fallback=True)
    Country = apps.get_model("players", "Country")
    Country.objects.bulk_create(
        [
            Country(code=c.alpha_2, name=getattr(c, "common_name", c.name), name_fr=french.gettext(c.name))
            for c in pycountry.countries
        ],
        ignore_conflicts=True,
    )
    Player = apps.get_model("players", "Player")
    Player.objects.get_or_create(id=99, defaults={"last_name": "Spare", "first_name": ""})
    apps.get_model("players", "IdAllocator").objects.get_or_create(pk=1, defaults={"last_given": 0})


class Migration(migrations.Migration):
    dependencies = [("players", "0002_initial")]
    operations = [migrations.RunPython(add_countries_and_spare, migrations.RunPython.noop)]
