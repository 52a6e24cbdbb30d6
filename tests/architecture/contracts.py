"""A contract type for import-linter that the built-in ones lack: "these modules import
only the standard library and each other" (the pure core: games.engine, games.bots).

pyproject.toml's ``[tool.importlinter]`` names it as ``stdlib_only``; lint-imports loads
it from here (tests/test_architecture.py runs lint-imports).
"""

from __future__ import annotations

import sys

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output
from importlinter.domain.helpers import module_expressions_to_modules


class StdlibOnlyContract(Contract):
    """The source modules (as packages) may import the standard library and the
    ``allowed_modules`` (as packages), nothing else: no third-party package and no
    other module of the project."""

    type_name = "stdlib_only"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.ListField(subfield=fields.ModuleExpressionField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        def packages(expressions: object) -> set[str]:
            names: set[str] = set()
            for module in module_expressions_to_modules(graph, expressions):  # type: ignore[arg-type]
                names.add(module.name)
                names |= graph.find_descendants(module.name)
            return names

        sources = packages(self.source_modules)
        allowed = packages(self.allowed_modules) | sources
        broken: list[str] = []
        for importer in sorted(sources):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                top = imported.split(".")[0]
                if imported in allowed or top in sys.stdlib_module_names:
                    continue
                details = graph.get_import_details(importer=importer, imported=imported)
                lines = ", ".join(f"l.{d['line_number']}" for d in details) or "?"
                broken.append(f"{importer} -> {imported} ({lines})")
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
        output.new_line()


class ForbiddenExternalSubmoduleContract(Contract):
    """The source modules (as packages) never import the named submodules of a
    third-party package (``django.db``): import-linter's own forbidden contract only
    knows third-party packages whole, and views do need ``django.http``."""

    type_name = "forbidden_external_submodule"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    forbidden_modules = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        sources: set[str] = set()
        for module in module_expressions_to_modules(graph, self.source_modules):  # type: ignore[arg-type]
            sources |= {module.name} | graph.find_descendants(module.name)
        forbidden = [str(name) for name in self.forbidden_modules]  # type: ignore[attr-defined]
        broken: list[str] = []
        for importer in sorted(sources):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if imported.split(".")[0] not in {name.split(".")[0] for name in forbidden}:
                    continue
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    words = detail["line_contents"].replace(",", " ").split()
                    named = {w for w in words if "." in w or w in forbidden}
                    if words[:1] == ["from"] and len(words) > 3:
                        named |= {f"{words[1]}.{w}" for w in words[3:]}
                    hit = [n for n in named for f in forbidden if n == f or n.startswith(f + ".")]
                    if hit:
                        broken.append(
                            f"{importer} -> {hit[0]} (l.{detail['line_number']}: "
                            f"{detail['line_contents']})"
                        )
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
        output.new_line()
