"""The package's layers hold (issue 16, "One core, in layers"): no import cycle anywhere, metric
families import nothing above them, and the import-linter contracts in pyproject.toml are kept.

    cli -> jobs | compat -> engine -> output -> profiles -> metrics -> text
        -> tokenizers, stemmers, resources -> core

The import graph is grimp's (what import-linter reads): every ``import`` statement counts,
including function-local ones and those under ``if TYPE_CHECKING:``. Jobs read what they need to
know about a tool from its profile's data; they never name a profile in code.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import assay
from assay.core.family import METRIC_NAMES
from assay.profiles.registry import profiles_of

ROOT = Path(__file__).resolve().parents[3]          # the checkout: pyproject.toml holds the contracts
ABOVE_METRICS = ("assay.cli", "assay.jobs", "assay.compat", "assay.engine", "assay.output", "assay.profiles")
JOBS = Path(assay.__file__).parent / "jobs"
# strings in jobs/ that equal a profile name but name something else
NOT_PROFILES = {
    ("audit/claims.py", "sacrebleu"): "a claim's metric name ('sacreBLEU 28.4')",
    ("audit/signatures.py", "multi-bleu"): "the tokenizer of that name in a signature's tok: field",
    ("conform/shapes.py", "sacrebleu"): "a call shape of the implementation under test",
    ("conform/shapes.py", "nltk"): "a call shape of the implementation under test",
    ("conform/shapes.py", "rouge-score"): "a call shape of the implementation under test",
    ("conform/shapes.py", "torchmetrics"): "a call shape of the implementation under test",
}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("assay", cache_dir=None)


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def one_cycle(graph: grimp.ImportGraph, component: list[str]) -> list[str]:
    """A concrete cycle through the first module of a strongly connected component."""
    start = component[0]
    for nxt in sorted(graph.find_modules_directly_imported_by(start)):
        if nxt in component:
            chain = graph.find_shortest_chain(importer=nxt, imported=start)
            if chain:
                return [start, *chain]
    return component   # pragma: no cover (a component always holds a cycle through each member)


def _lines(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    """`` (l.12, l.40)``: where ``importer`` imports ``imported``."""
    details = graph.get_import_details(importer=importer, imported=imported)
    return f" (l.{', l.'.join(str(d['line_number']) for d in details)})" if details else ""


def _where(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    return f"{importer} -> {imported}{_lines(graph, importer, imported)}"


def test_strongly_connected_finds_a_planted_cycle() -> None:
    g = grimp.ImportGraph()
    for m in ("p.a", "p.b", "p.c", "p.d"):
        g.add_module(m)
    g.add_import(importer="p.a", imported="p.b")
    g.add_import(importer="p.b", imported="p.c")
    g.add_import(importer="p.c", imported="p.a")
    g.add_import(importer="p.c", imported="p.d")
    components = strongly_connected(g)
    assert components == [["p.a", "p.b", "p.c"]]
    assert one_cycle(g, components[0]) == ["p.a", "p.b", "p.c", "p.a"]


def test_no_import_cycles(graph: grimp.ImportGraph) -> None:
    cycles = [one_cycle(graph, c) for c in strongly_connected(graph)]
    report = "\n".join("  " + cycle[0] + "".join(f"\n    -> {b}{_lines(graph, a, b)}" for a, b in zip(cycle, cycle[1:]))
                       for cycle in cycles)
    assert not cycles, f"{len(cycles)} import cycle(s):\n{report}"


def test_metric_families_import_nothing_above_them(graph: grimp.ImportGraph) -> None:
    modules = {"assay.metrics", *graph.find_descendants("assay.metrics")}
    bad = sorted(_where(graph, m, imported) for m in modules
                 for imported in graph.find_modules_directly_imported_by(m)
                 if any(imported == layer or imported.startswith(layer + ".") for layer in ABOVE_METRICS))
    assert not bad, "assay.metrics imports from a layer above it:\n  " + "\n  ".join(bad)


def test_import_linter_contracts_are_kept() -> None:
    pyproject = ROOT / "pyproject.toml"
    assert pyproject.is_file(), f"no pyproject.toml at {ROOT}"
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filename={str(pyproject)!r}, no_cache=True))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"lint-imports failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"


def _code_strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants of a module that are not docstrings."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_jobs_name_no_profile() -> None:
    names = {p.name for p in profiles_of()} - set(METRIC_NAMES)
    found = []
    for path in sorted(JOBS.rglob("*.py")):
        rel = path.relative_to(JOBS).as_posix()
        for node in _code_strings(ast.parse(path.read_text(encoding="utf-8"))):
            if node.value in names and (rel, node.value) not in NOT_PROFILES:
                found.append(f"jobs/{rel}:{node.lineno}: {node.value!r}")
    assert not found, "jobs name profiles in code (read Profile data instead):\n  " + "\n  ".join(found)
