"""The exact test games' rules by name: ``"kuhn"`` and ``"leduc"`` with 2..N players (OpenSpiel's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.rules.kuhn import kuhn_config
from game.rules.leduc import LeducConfig, leduc_config

EXACT_GAMES = ("kuhn", "leduc")
"""Names of the exactly solvable games (`abstraction.exact.exact_games.build_game` builds their trees)."""


def rules_config(name: str, rules: Mapping[str, Any] | None = None) -> LeducConfig:
    """The rules of exact game ``name``; ``rules`` overrides fields of the standard rules.

    The standard rules for ``rules["players"] = N`` are OpenSpiel's ``kuhn_poker(players=N)`` /
    ``leduc_poker(players=N)`` (N + 1 ranks), so ``{"players": 3}`` alone gives the 3-player game.

    >>> rules_config("leduc", {"players": 3}).deck_text()
    'Jh Js Qh Qs Kh Ks Ah As'
    """
    if name not in EXACT_GAMES:
        raise ValueError(f"unknown exact game {name!r}: expected one of {list(EXACT_GAMES)}")
    overrides = dict(rules or {})
    players = overrides.get("players", 2)
    base = kuhn_config(players=players) if name == "kuhn" else leduc_config(players)
    return LeducConfig.from_dict({**base.to_dict(), **overrides})
