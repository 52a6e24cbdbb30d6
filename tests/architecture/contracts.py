"""Contract types for import-linter that the built-in ones lack: "these modules import
only the standard library and each other" (``stdlib_only``: the pure core, games.engine
and games.bots), "these modules never import these submodules of a third-party
package" (``forbidden_external_submodule``: no django.db at the edges), and "the
publisher of events imports none of its subscribers" (``publisher``: games and accounts,
games/events.py).

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


class PublisherContract(Contract):
    """The ``publisher`` package publishes events (games/events.py) and the
    ``subscribers`` hear them: no module of the publisher outside the subscribers (which
    may live inside it: games.tournaments in games) imports a module of a subscriber,
    directly or through any chain of imports, through other apps included. A subscriber
    named that is not in the project yet is skipped. (The built-in ``forbidden``
    contract keeps a package that holds its forbidden modules.)"""

    type_name = "publisher"

    publisher = fields.ModuleField()
    subscribers = fields.ListField(subfield=fields.ModuleExpressionField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        subscribers: set[str] = set()
        for module in module_expressions_to_modules(graph, self.subscribers):  # type: ignore[arg-type]
            if module.name in graph.modules:  # one named before it is built: nothing yet
                subscribers |= {module.name} | graph.find_descendants(module.name)
        publisher = self.publisher.name  # type: ignore[attr-defined]
        sources = ({publisher} | graph.find_descendants(publisher)) - subscribers
        paths: dict[str, list[str] | None] = {}

        def path_to_a_subscriber(start: str) -> list[str] | None:
            """The shortest chain of imports from ``start`` to a subscriber's module."""
            if start not in paths:
                came_from: dict[str, str | None] = {start: None}
                queue, found = [start], None
                while queue and found is None:
                    module = queue.pop(0)
                    if module in subscribers:
                        found = module
                        break
                    for imported in sorted(graph.find_modules_directly_imported_by(module)):
                        if imported not in came_from:
                            came_from[imported] = module
                            queue.append(imported)
                chain: list[str] | None = None
                if found is not None:
                    chain = [found]
                    while (previous := came_from[chain[0]]) is not None:
                        chain.insert(0, previous)
                paths[start] = chain
            return paths[start]

        broken: list[str] = []
        for importer in sorted(sources):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if imported in sources:
                    continue  # its own chains are reported from it
                chain = path_to_a_subscriber(imported)
                if chain is None:
                    continue
                details = graph.get_import_details(importer=importer, imported=imported)
                lines = ", ".join(f"l.{d['line_number']}" for d in details) or "?"
                broken.append(f"{' -> '.join([importer, *chain])} ({importer} {lines})")
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
        output.new_line()
