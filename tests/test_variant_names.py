"""No library code outside the rules, the tree hooks and the engine entries compares a variant's name.

Code in ``game``, ``abstraction`` and ``solver`` branches on what a variant adds (the feature flags of
its rules config, ``has_swaps`` ... ``board_card_cap``, its ``equity_parameters()``, what its hooks
carry) or on a game's family (`game.rules.families`), never on the name, so that a new variant is
played, abstracted, solved and measured without touching that code. Only `game.rules`,
`abstraction.hooks` and `game.pokerbots` (the official engines, one per named variant) may compare names.

The scan reads each file with `ast` and reports every comparison (``==``, ``!=``, ``in``, ``not in``,
``is``, and ``match``/``case`` values) that

- has a string constant naming a game (`game.rules.families.game_names`: the variants, ``kuhn``,
  ``leduc``, ``limit``) on either side, alone or in a tuple, list or set literal;
- compares something called ``variant`` (a name, an attribute or a ``["variant"]`` item) with any
  string constant; or
- involves a variant-code constant (a heads-up variant's name in capitals, such as ``AUCTION``, as
  the chance kernels number the variants).
"""

from __future__ import annotations

import ast
from pathlib import Path

from game.rules.families import game_names
from game.rules.variants import VARIANTS

REPOSITORY = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "abstraction", "solver")
ALLOWED = ("game/rules/", "abstraction/hooks/", "game/pokerbots/")
"""Where variant names may be compared: the rules, the tree hooks and the official engines' entries."""
NAMES = frozenset(game_names())
CODES = frozenset(name.upper() for name in VARIANTS)
"""The variant codes' names: the chance kernels number the heads-up variants (``HOLDEM`` ... ``BOUNTY``)."""


def _strings(node: ast.AST) -> list[str]:
    """The string constants ``node`` is or holds as a tuple, list or set literal."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]


def _is_variant(node: ast.AST) -> bool:
    """Whether ``node`` is called ``variant``: ``variant``, ``x.variant`` or ``x["variant"]``."""
    if isinstance(node, ast.Name):
        return node.id == "variant"
    if isinstance(node, ast.Attribute):
        return node.attr == "variant"
    return isinstance(node, ast.Subscript) and _strings(node.slice) == ["variant"]


def _is_code(node: ast.AST) -> bool:
    """Whether ``node`` is a variant-code constant (``AUCTION`` or ``module.AUCTION``)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name in CODES


def name_comparisons(source: str) -> list[int]:
    """The line of every comparison of a variant or game name in ``source`` (module docstring)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        else:
            continue
        strings = [text for operand in operands for text in _strings(operand)]
        if (
            NAMES.intersection(strings)
            or (strings and any(_is_variant(operand) for operand in operands))
            or any(_is_code(operand) for operand in operands)
        ):
            lines.append(node.lineno)
    return sorted(set(lines))


def _library_files() -> list[str]:
    paths = (
        path.relative_to(REPOSITORY).as_posix() for package in PACKAGES for path in (REPOSITORY / package).rglob("*.py")
    )
    return sorted(path for path in paths if not path.startswith(ALLOWED))


def test_no_variant_name_comparisons_in_the_library() -> None:
    offenders = [
        f"{path}:{line}" for path in _library_files() for line in name_comparisons((REPOSITORY / path).read_text())
    ]
    assert not offenders, (
        "variant names compared outside game/rules, abstraction/hooks and game/pokerbots (branch on the "
        "config's feature flags or the game family instead): " + ", ".join(offenders)
    )


def test_the_scan_finds_each_kind_of_comparison() -> None:
    source = """\
if config.variant == "nolimit":
    pass
if name in ("kuhn", "leduc"):
    pass
if report["variant"] != "x":
    pass
third = code == AUCTION
match game:
    case "limit":
        pass
if kind != "swap_file":
    pass
if config.has_swaps and variant == other:
    pass
"""
    assert name_comparisons(source) == [1, 3, 5, 7, 9]
