"""Inside the engine every arrow runs one way: its parts (each top-level module or package of
pbem.engine) import one another without a cycle.

tests/test_layers.py finds no cycle of modules; this asks it of the parts, where a cycle is
an arrow that runs back up (an Agenda module importing the cards while a card imports the
Agendas, say), even when no two modules import each other. The tables the parts below the
catalogs read come from the one catalog step (`pbem.engine.catalog`), not from imports.
"""

from __future__ import annotations

import grimp

from tests.test_layers import closing_path, strongly_connected

ENGINE = "pbem.engine"


def part(module: str) -> str:
    """pbem.engine.agendas.facts -> pbem.engine.agendas; pbem.engine stays itself."""
    return ".".join(module.split(".")[:3])


def parts_graph() -> grimp.ImportGraph:
    modules = grimp.build_graph("pbem")
    graph = grimp.ImportGraph()
    for module in modules.modules:
        if module.startswith(ENGINE):
            graph.add_module(part(module))
    for module in modules.modules:
        if not module.startswith(ENGINE):
            continue
        for imported in modules.find_modules_directly_imported_by(module):
            if imported.startswith(ENGINE) and part(imported) != part(module):
                graph.add_import(importer=part(module), imported=part(imported))
    return graph


def test_the_engine_parts_import_one_another_without_a_cycle() -> None:
    graph = parts_graph()
    assert {"pbem.engine.agendas", "pbem.engine.alien_tech", "pbem.engine.bots"} <= graph.modules
    cycles = [closing_path(graph, component) for component in strongly_connected(graph)]
    assert cycles == [], "arrows back up inside the engine:\n" + "\n".join(cycles)


def test_the_players_sit_on_top_no_rule_imports_a_bot() -> None:
    """The bots (`pbem.engine.bots`) play by the rules' public functions; no other part of
    the engine imports them."""
    graph = parts_graph()
    assert graph.find_modules_that_directly_import("pbem.engine.bots") == set()
