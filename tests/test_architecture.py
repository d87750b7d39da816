"""The layering shows in the imports: engine <- vision <- datasets <- training <- app, and no import
cycle anywhere in the project (function-local imports count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "vision", "datasets", "training", "app")  # each may import only the ones before it


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules that ``path`` imports, anywhere in it."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for t in targets:
            # the longest project module the name refers to (a submodule, or the module a name comes from)
            while t and t not in modules:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def project_graph() -> nx.DiGraph:
    files = [p for layer in LAYERS for p in (REPO / layer).rglob("*.py")]
    modules = {_module_name(p) for p in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for p in files:
        for target in _imports(p, modules):
            # a package's __init__ importing its own submodules is how packages work, not a cycle
            if not target.startswith(_module_name(p) + ".") or p.name != "__init__.py":
                graph.add_edge(_module_name(p), target)
    return graph


def test_no_import_cycle() -> None:
    cycles = list(nx.simple_cycles(project_graph()))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + [c[0]]) for c in cycles[:10])


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_the_layers_below(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    graph = project_graph()
    wrong = sorted(f"{a} imports {b}" for a, b in graph.edges if a.split(".")[0] == layer and b.split(".")[0] not in allowed)
    assert not wrong, wrong
