"""Every game chosen by name, by family: the heads-up no-limit variants (`game.rules.variants`), the
exact games (`game.rules.exact`) and N-player limit hold'em (`game.rules.limit`).

Code that takes any of them by name (``vcfr gauntlet --variant``, ``vcfr variants``) asks for the
name's family here instead of comparing the name with a literal, so the names live in the rules.

>>> game_family("swap").name, game_family("kuhn").name, game_family(LIMIT_GAME).name
('HEADS_UP', 'EXACT', 'LIMIT')
>>> game_family("blotto") is None
True
>>> game_names()[-3:]
('kuhn', 'leduc', 'limit')
"""

from __future__ import annotations

from enum import Enum

from game.rules.exact import EXACT_GAMES
from game.rules.variants import VARIANTS

LIMIT_GAME = "limit"
"""The name of N-player limit hold'em (`game.rules.limit`) wherever games are chosen by name."""


class GameFamily(Enum):
    """How a family's games are played and measured."""

    HEADS_UP = "heads-up no-limit"
    """The heads-up no-limit variants of `game.rules.variants.VARIANTS`: duplicate matches, mbb/hand."""
    EXACT = "exact"
    """Kuhn and Leduc (`game.rules.exact.EXACT_GAMES`): small enough to solve exactly."""
    LIMIT = "N-player limit"
    """N-player limit hold'em: freeze-outs, won by the player left holding every chip."""


def game_family(name: str) -> GameFamily | None:
    """The family of the game called ``name``; ``None`` for a name no game has."""
    if name in VARIANTS:
        return GameFamily.HEADS_UP
    if name in EXACT_GAMES:
        return GameFamily.EXACT
    if name == LIMIT_GAME:
        return GameFamily.LIMIT
    return None


def game_names() -> tuple[str, ...]:
    """Every game's name: the heads-up variants, the exact games, then the limit game."""
    return (*VARIANTS, *EXACT_GAMES, LIMIT_GAME)
