"""The import graph of ``pipelines/``: no circle, and the generator is not the engine.

Every ``import`` and ``from ... import`` statement of every module is read with :mod:`ast`,
at any depth (an import inside a function closes a circle as surely as one at the top: it
only delays it), relative imports resolved. An edge ``a -> b`` means module ``a`` names
module ``b`` (``from pipelines.x import y`` is an edge to ``pipelines.x.y`` when that is a
module, else to ``pipelines.x``). A package's ``__init__`` is not counted as imported by its
submodules' imports, so a package that lists its modules does not make a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The modules that may import the generator (:mod:`pipelines.synth`): the command line and
#: the benchmarks, which generate their data; the engine never does.
SYNTH_IMPORTERS = {"pipelines.cli", "pipelines.bench", "pipelines.bench_e2e"}


def modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under ``package`` (its parent is the
    import root)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (see the module docstring)."""
    mods = modules(package)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    if f"{source}.{alias.name}" in mods:
                        graph[name].add(f"{source}.{alias.name}")
                    elif source in mods:
                        graph[name].add(source)
        graph[name].discard(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted:
    every module of one can reach every other, so each holds at least one circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # a top-level import one way, a function-level one back: a circle
        (
            {
                "pkg/__init__.py": "",
                "pkg/a.py": "from pkg.b import f\n",
                "pkg/b.py": "def f():\n    from pkg import a\n",
            },
            [["pkg.a", "pkg.b"]],
        ),
        # relative imports, three modules round
        (
            {
                "pkg/__init__.py": "",
                "pkg/sub/__init__.py": "",
                "pkg/sub/x.py": "from . import y\n",
                "pkg/sub/y.py": "from ..z import g\n",
                "pkg/z.py": "import pkg.sub.x\n",
            },
            [["pkg.sub.x", "pkg.sub.y", "pkg.z"]],
        ),
        # a package listing its modules, which import each other one way: no circle
        (
            {
                "pkg/__init__.py": "from pkg import a, b\n",
                "pkg/a.py": "from pkg.b import f\n",
                "pkg/b.py": "import json\n\ndef f():\n    return json\n",
            },
            [],
        ),
    ],
)
def test_the_detector_finds_circles(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    assert circles(import_graph(_write(tmp_path, files))) == expected


def test_pipelines_has_no_import_circle() -> None:
    graph = import_graph(ROOT / "pipelines")
    # the graph is read at all: the stages import the scoring modules
    assert "pipelines.scoring.day" in graph["pipelines.stages"]
    assert circles(graph) == []


def test_the_engine_does_not_import_the_generator() -> None:
    graph = import_graph(ROOT / "pipelines")
    synth = {m for m in graph if m == "pipelines.synth" or m.startswith("pipelines.synth.")}
    importers = {m for m, deps in graph.items() if m not in synth and deps & synth}
    assert importers <= SYNTH_IMPORTERS
    # the Dagster assets import the engine, never the generator
    for path in sorted((ROOT / "assets").rglob("*.py")):
        assert "pipelines.synth" not in path.read_text(encoding="utf-8"), path
