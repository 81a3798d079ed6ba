"""Game kinds: what rebuilds a solver game from its JSON config (``SolverGame.config``, stored as a
strategy file's ``game_config``). The config's ``kind`` entry names the kind; :data:`GAME_KINDS` maps
it to the :class:`GameKind` that checks, builds and measures it:

- ``"exact"`` (configs without a ``kind`` entry): Kuhn and Leduc of :mod:`abstraction.exact.exact_games`.
- ``"sampled-nolimit"``: the heads-up abstract games of :mod:`solver.games.abstract_games` (Hold'em, Swap,
  River of Blood, Auction, Bounty), rebuilt from their config and their card-abstraction file.
- ``"limit"``: the N-player limit hold'em abstract games of :mod:`solver.games.limit_games` (fresh
  chance only), rebuilt from their config and their card-abstraction file.
- more kinds plug in with :func:`register_game_kind`.

The solve loop (:mod:`solver.solve.training`) and its workers (:mod:`solver.solve.parallel`) both
rebuild games through this module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from abstraction.exact.exact_games import build_game
from abstraction.tree import SolverGame
from game.rules.exact import EXACT_GAMES
from game.rules.holdem import HoldemConfig
from game.rules.variants import get_variant

EXACT_KIND = "exact"
"""Kind of the configs of :mod:`abstraction.exact.exact_games` (they carry no ``kind`` entry)."""
ABSTRACT_KIND = "sampled-nolimit"
"""Kind of the heads-up abstract games (:data:`solver.games.abstract_games.GAME_KIND`)."""
LIMIT_KIND = "limit"
"""Kind of the N-player limit abstract games (:data:`solver.games.limit_games.GAME_KIND`)."""


@dataclass(frozen=True)
class GameKind:
    """How the loop handles one kind of game config.

    ``normalize(config)``: the config checked and in canonical JSON form (ValueError naming a bad
    field); ``build(config, on_progress=None, table_itemsize=4)``: the :class:`SolverGame` (a kind
    that measures its tree first refuses one whose solver tables of ``table_itemsize`` bytes per
    entry do not fit, and reports its building to ``on_progress``); ``big_blind(config)``: chips per big blind
    for mbb/hand; ``exact``: the game has an exact exploitability after every block (the loop then
    keeps the historical exact-game schedule, see the module docstring).
    """

    name: str
    normalize: Callable[[Mapping[str, Any]], dict[str, Any]]
    build: Callable[..., SolverGame]
    big_blind: Callable[[Mapping[str, Any]], float]
    exact: bool = False


GAME_KINDS: dict[str, GameKind] = {}
"""Registered game kinds by the ``kind`` entry of their configs (:data:`EXACT_KIND` when absent)."""


def register_game_kind(kind: GameKind) -> GameKind:
    """Add (or replace) a game kind; returns it."""
    GAME_KINDS[kind.name] = kind
    return kind


def as_json(value: Any) -> Any:
    """``value`` through a JSON round trip with sorted keys: the canonical form configs are compared in."""
    return json.loads(json.dumps(value, sort_keys=True))


def game_kind(config: Mapping[str, Any]) -> GameKind:
    """The :class:`GameKind` of a game config (ValueError for an unknown kind).

    >>> game_kind({"name": "kuhn"}).name, game_kind({"kind": "sampled-nolimit"}).name
    ('exact', 'sampled-nolimit')
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"a game config must be a mapping, got {config!r}")
    name = config.get("kind", EXACT_KIND)
    if name not in GAME_KINDS:
        raise ValueError(f"unknown game kind {name!r}: known kinds are {sorted(GAME_KINDS)}")
    return GAME_KINDS[name]


def _normalize_exact(config: Mapping[str, Any]) -> dict[str, Any]:
    values = dict(config)
    values.pop("kind", None)
    unknown = sorted(set(values) - {"name", "rules"})
    if unknown:
        raise ValueError(f"unknown exact game config fields {unknown}: known are ['name', 'rules']")
    name = values.get("name")
    if name not in EXACT_GAMES:
        raise ValueError(f"unknown game {name!r}: expected one of {list(EXACT_GAMES)}")
    rules = values.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise ValueError(f"rules must be a mapping of rules fields, got {rules!r}")
    return as_json({"name": name, "rules": dict(rules)}) if rules else {"name": name}


def _build_exact(config: Mapping[str, Any], on_progress: Any = None, table_itemsize: int = 8) -> SolverGame:
    """Exact games are small (built in milliseconds): no size check, no progress events."""
    return build_game(config["name"], config.get("rules"))


def _exact_big_blind(config: Mapping[str, Any]) -> float:
    from game.rules.exact import rules_config

    rules = rules_config(config["name"], config.get("rules")).to_dict()
    return float(rules.get("big_blind", rules.get("ante", 1.0)) or 1.0)


def abstract_config(config: Mapping[str, Any]) -> Any:
    """The :class:`~solver.games.abstract_games.AbstractGameConfig` of a JSON config (ValueError on bad fields)."""
    from solver.games.abstract_games import AbstractGameConfig

    try:
        return AbstractGameConfig.from_dict(dict(config))
    except TypeError as error:
        raise ValueError(f"bad abstract game config: {error}") from None


def _normalize_abstract(config: Mapping[str, Any]) -> dict[str, Any]:
    return as_json(abstract_config(config).to_dict())


def check_card_file(path: str | os.PathLike[str], variant: str) -> dict[str, Any]:
    """Check that ``path`` is a card-abstraction file usable by ``variant``; return its config.

    Usable: a Bounty game needs a file built for ``bounty`` (its buckets carry the hit bit); the
    other variants take a file built for their own variant or for ``holdem`` (the tables are the
    same). Raises ValueError naming the file and the problem. Reads the attributes only.
    """
    import h5py

    from abstraction.cards.buckets import FILE_FORMAT, FILE_VERSION, card_file_variant

    source = Path(path)
    if not source.is_file():
        raise ValueError(
            f"card abstraction file {str(source)!r} does not exist "
            f"(build it with: vcfr abstract --variant {card_file_variant(variant)} --out {source})"
        )
    try:
        with h5py.File(source, "r") as handle:
            found_format = str(handle.attrs.get("format", ""))
            found_version = int(handle.attrs.get("format_version", -1))
            raw = handle.attrs.get("config")
            card_config = json.loads(raw) if raw is not None else {}
    except (OSError, ValueError, TypeError) as error:
        raise ValueError(
            f"card abstraction file {str(source)!r} is unreadable ({' '.join(str(error).split())})"
        ) from None
    if found_format != FILE_FORMAT or found_version != FILE_VERSION:
        raise ValueError(
            f"{str(source)!r} is not a {FILE_FORMAT} file of version {FILE_VERSION} "
            f"(format {found_format!r}, version {found_version})"
        )
    plain = HoldemConfig.variant  # a Hold'em file serves every game whose buckets have no bounty hit bit
    built_for = card_config.get("variant", plain)
    hit_bit = get_variant(variant).config_class.has_bounty
    if not (built_for == variant or (built_for == plain and not hit_bit)):
        needed = repr(variant) if hit_bit else f"{variant!r} or {plain!r}"
        raise ValueError(
            f"card abstraction file {str(source)!r} was built for variant {built_for!r}; "
            f"a {variant} game needs one built for {needed} (vcfr abstract --variant {variant})"
        )
    return card_config


def _build_abstract(config: Mapping[str, Any], on_progress: Any = None, table_itemsize: int = 4) -> SolverGame:
    from solver.games.abstract_games import build_abstract_game

    game_config = abstract_config(config)
    check_card_file(game_config.card_abstraction, game_config.variant)
    return build_abstract_game(game_config, on_progress=on_progress, table_itemsize=table_itemsize)


def _abstract_big_blind(config: Mapping[str, Any]) -> float:
    # The stored rules hold only the fields that differ from the defaults: read the big blind
    # from the rebuilt variant config, never from the rules dict.
    return float(abstract_config(config).variant_config().big_blind)


def limit_config(config: Mapping[str, Any]) -> Any:
    """The :class:`~solver.games.limit_games.LimitGameConfig` of a JSON config (ValueError on bad fields)."""
    from solver.games.limit_games import LimitGameConfig

    return LimitGameConfig.from_dict(dict(config))


def _normalize_limit(config: Mapping[str, Any]) -> dict[str, Any]:
    return as_json(limit_config(config).to_dict())


def _build_limit(config: Mapping[str, Any], on_progress: Any = None, table_itemsize: int = 4) -> SolverGame:
    """The limit tree is measured and refused before it is built; it reports no progress."""
    from solver.games.limit_games import build_limit_game

    game_config = limit_config(config)
    check_card_file(game_config.card_abstraction, "holdem")
    return build_limit_game(game_config, table_itemsize=table_itemsize)


def _limit_big_blind(config: Mapping[str, Any]) -> float:
    from solver.games.limit_games import limit_big_blind

    return limit_big_blind(limit_config(config))


register_game_kind(GameKind(EXACT_KIND, _normalize_exact, _build_exact, _exact_big_blind, exact=True))
register_game_kind(GameKind(ABSTRACT_KIND, _normalize_abstract, _build_abstract, _abstract_big_blind))
register_game_kind(GameKind(LIMIT_KIND, _normalize_limit, _build_limit, _limit_big_blind))


def game_config_of(game: str | Mapping[str, Any]) -> dict[str, Any]:
    """A game name (``"kuhn"``, ``"leduc"``) or a JSON game config, checked, in canonical form."""
    config = {"name": game} if isinstance(game, str) else game
    return game_kind(config).normalize(config)


def build_game_from_config(config: Mapping[str, Any]) -> SolverGame:
    """The :class:`SolverGame` of a JSON game config of any registered kind (what workers and
    ``vcfr exploit`` rebuild from a strategy file)."""
    kind = game_kind(config)
    return kind.build(kind.normalize(config))
