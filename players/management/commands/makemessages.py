"""Django's makemessages, also collecting the rules' plural sentences (rules.words.ngettext_noop), and by default
leaving out what is not the site's own (the virtualenv, the tests, the benchmarks)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), ".venv", "tests", "bench", "staticfiles"]
        return super().handle(*args, **options)
