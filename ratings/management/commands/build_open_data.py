from django.core.management.base import BaseCommand

from ratings.open_data import open_data_rebuild


class Command(BaseCommand):
    help = ("Build the open-data downloads now (the worker does after each replay and each official list); prints "
            "the release's SHA-256 and counts, or that nothing changed.")

    def handle(self, *args, **options):
        release = open_data_rebuild()
        if release is None:
            self.stdout.write("unchanged: the last release holds the same record")
            return
        self.stdout.write(f"built {release.built_at.isoformat()}: zip {release.archive_sha256}, "
                          f"json {release.document_sha256}")
        for table, count in release.counts.items():
            self.stdout.write(f"{table}: {count}")
