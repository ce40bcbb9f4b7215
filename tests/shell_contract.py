"""An import-linter contract type (pyproject.toml, `contract_types`): the domain never imports the shell, the shell
named by pattern. import-linter's own wildcards stand for whole parts of a dotted name (``**.views``), so they
cannot say "every module whose name ends in _views"; this contract can, and a new module of either kind is covered
the day it is written, without editing the contract.

A module is the shell when one part of its dotted name fully matches one of `shell` (regular expressions):
``tournaments.live.referee_views`` by ``.+_views``, ``players.management.commands.import_players`` by
``management``. Every other module of `packages` is the domain, and imports no shell module directly (an indirect
chain from the domain to the shell passes through such an import, so direct imports are all there is to check)."""

from __future__ import annotations

import re

from importlinter import Contract, ContractCheck, fields, output


class ShellContract(Contract):
    packages = fields.ListField(subfield=fields.StringField())
    shell = fields.ListField(subfield=fields.StringField())

    def validate(self) -> None:
        self.patterns = [re.compile(pattern) for pattern in self.shell]

    def is_shell(self, module: str) -> bool:
        return any(pattern.fullmatch(part) for part in module.split(".") for pattern in self.patterns)

    def check(self, graph, verbose: bool) -> ContractCheck:
        modules = {m for package in self.packages for m in {package, *graph.find_descendants(package)}}
        shell = {m for m in modules if self.is_shell(m)}
        broken = []
        for importer in sorted(modules - shell):
            for imported in sorted(graph.find_modules_directly_imported_by(importer) & shell):
                lines = sorted(d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported))
                broken.append((importer, imported, lines))
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("A module of the domain imports the shell:", bold=False)
        output.new_line()
        for importer, imported, lines in check.metadata["broken"]:
            output.print_error(f"- {importer} -> {imported} (l.{', '.join(map(str, lines))})", bold=False)
        output.new_line()
