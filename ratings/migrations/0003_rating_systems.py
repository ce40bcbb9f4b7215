from django.db import migrations


def add_systems(apps, schema_editor):
    RatingSystem = apps.get_model("ratings", "RatingSystem")
    ReplayLock = apps.get_model("ratings", "ReplayLock")
    for position, (code, name, ruleset) in enumerate(
        [("adlg", "L'Art de la Guerre", "adlg-2018"), ("battle-empire", "Battle Empire", "battle-empire")]
    ):
        system, _ = RatingSystem.objects.get_or_create(
            code=code, defaults={"name": name, "ruleset": ruleset, "position": position}
        )
        ReplayLock.objects.get_or_create(system=system)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_initial")]
    operations = [migrations.RunPython(add_systems, migrations.RunPython.noop)]
