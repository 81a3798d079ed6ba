"""The import graph of the library packages has no cycle and points one way.

The graph is built with `ast` from the source files of `game`, `abstraction` and `solver`: an edge
runs from a module to every project module it imports, at module level or inside a function (an
import inside a function hides a circle from the interpreter but not from the reader). The layering
is `game` <- `abstraction` <- `solver`: game imports neither, abstraction does not import solver.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "abstraction", "solver")
LAYER = {"game": 0, "abstraction": 1, "solver": 2}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str, modules: set[str]) -> str | None:
    """The longest prefix of the dotted `name` that is a project module, or None."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def import_graph() -> dict[str, set[str]]:
    """Map each project module (dotted name; a package is its ``__init__``) to the project modules
    its import statements name anywhere in the file, at module level, inside functions or under
    ``TYPE_CHECKING``. ``from a.b import c`` points at ``a.b.c`` when that is a module, else at ``a.b``."""
    files = {_module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    modules = set(files)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    drop = node.level - 1 if is_package else node.level
                    base = base[: len(base) - drop] if drop else base
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                targets = [f"{prefix}.{alias.name}" for alias in node.names]
            for target in targets:
                resolved = _resolve(target, modules)
                if resolved is not None and resolved != name:
                    graph[name].add(resolved)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative Tarjan: each frame is (node, iterator over its successors).
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def test_find_cycles_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_import_graph_sees_imports_inside_functions():
    graph = import_graph()
    # `_worker_game` imports game_kinds inside its body; `training` imports it at module level.
    assert "solver.solve.game_kinds" in graph["solver.solve.parallel"]
    assert "solver.solve.game_kinds" in graph["solver.solve.training"]
    assert "solver.solve.training" not in graph["solver.solve.parallel"]
    assert all(target in graph for targets in graph.values() for target in targets)


def test_no_import_cycles():
    cycles = find_cycles(import_graph())
    for cycle in cycles:
        print("import cycle:", " <-> ".join(cycle))
    assert cycles == []


def test_layering_game_abstraction_solver():
    graph = import_graph()
    wrong = sorted(
        (source, target)
        for source, targets in graph.items()
        for target in targets
        if LAYER[target.split(".")[0]] > LAYER[source.split(".")[0]]
    )
    for source, target in wrong:
        print(f"{source} imports {target}, a higher layer")
    assert wrong == []


def private_imports_across_packages(source: str, package: str) -> list[str]:
    """``module.name`` of each ``_private`` name that ``source``, a module of the dotted ``package``,
    imports from a project module of another (sub)package: a helper shared that way is API and
    takes a public name in its module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] in PACKAGES
            and node.module.rpartition(".")[0] != package
        ):
            found += [f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
    return found


def _package_of(path: Path) -> str:
    name = _module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def test_private_import_scan_finds_a_planted_one():
    source = "from game.cards.kernels_rng import _secret, public\nfrom solver.solve.cfr import _own\n"
    assert private_imports_across_packages(source, "solver.solve") == ["game.cards.kernels_rng._secret"]


def test_no_private_names_imported_across_packages():
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in private_imports_across_packages(path.read_text(), _package_of(path))
    ]
    assert not offenders, "give these shared helpers public names: " + ", ".join(offenders)
