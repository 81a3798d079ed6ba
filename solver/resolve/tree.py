"""The betting tree of one street, built at run time from the real pot, stacks and pips.

Nodes are a flat arena in breadth-first order (a parent before its children), children contiguous:
node ``c`` is the action taken into it, so per-action tables have one row per node (the root's row
is unused). Sizes come from a :class:`~abstraction.bets.bet_abstraction.StreetBets` (pot fractions,
all-in, a cap on bets plus raises), applied as the bet abstraction does: a raise of fraction f
calls, then adds f times the pot after the call, clamped to the engines' raise bounds. On the last
street the betting ends at a showdown; on an earlier one (``final_street=False``, depth-limited
solving) it ends at a LEAF when both players have matched with chips behind (the next card comes and
the continuation values of :mod:`solver.resolve.leaves` take over), or at a RUNOUT when a call
leaves a player all-in (the remaining board cards are dealt and the hands shown down).

>>> tree = build_subgame_tree(SubgameConfig(pot_chips=(20, 20), stacks=(180, 180), bets=StreetBets.parse("1p,a cap=1")))
>>> [tree.describe(c) for c in tree.children(0)]
['check', 'bet to 40', 'bet to 180']
>>> tree.n_nodes, tree.n_decisions
(15, 6)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from abstraction.bets.bet_abstraction import StreetBets

DECISION, FOLD, SHOWDOWN, LEAF, RUNOUT = 0, 1, 2, 3, 4
"""Node kinds. A FOLD node's ``player`` is the player who folded. LEAF (street end, chips behind)
and RUNOUT (all-in before the last street) occur only in trees with ``final_street=False``."""
DEFAULT_BETS = StreetBets((0.33, 0.67, 1.0, 1.5), all_in=True, cap=3)
"""The re-solver's default sizes: 0.33p, 0.67p, 1p, 1.5p and all-in, at most 3 bets and raises."""


@dataclass(frozen=True)
class SubgameConfig:
    """Where a street's subgame starts and the actions it allows.

    ``pot_chips``: chips each player has put in the pot in the whole hand so far, this street's
    pips included. ``pips``: of those, chips put in on this street (they decide the cost to call and
    the raise bounds). ``stacks``: chips each player has left behind. ``first_player``: who acts
    first (0 or 1). ``bets``: sizes and cap; ``raises_made`` bets and raises already made on this
    street count against the cap. ``big_blind``: chips, the smallest raise increment.
    ``final_street``: the street ends at showdowns (True: the river) or at LEAF / RUNOUT nodes.
    """

    pot_chips: tuple[int, int]
    stacks: tuple[int, int]
    pips: tuple[int, int] = (0, 0)
    first_player: int = 0
    bets: StreetBets = field(default_factory=lambda: DEFAULT_BETS)
    raises_made: int = 0
    big_blind: int = 2
    final_street: bool = True

    def __post_init__(self) -> None:
        for name in ("pot_chips", "stacks", "pips"):
            value = getattr(self, name)
            if len(value) != 2 or any(
                isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 0 for v in value
            ):
                raise ValueError(f"{name} must be two ints >= 0 (chips), got {value!r}")
        if any(p > c for p, c in zip(self.pips, self.pot_chips, strict=True)):
            raise ValueError(f"pips {self.pips} cannot exceed pot_chips {self.pot_chips} (pips are part of them)")
        if self.first_player not in (0, 1):
            raise ValueError(f"first_player must be 0 or 1, got {self.first_player!r}")
        if not isinstance(self.bets, StreetBets):
            raise TypeError(f"bets must be a StreetBets (e.g. StreetBets.parse('0.5p,1p,a cap=2')), got {self.bets!r}")
        if self.raises_made < 0 or self.big_blind < 1:
            raise ValueError(f"raises_made must be >= 0 and big_blind >= 1, got {self.raises_made}, {self.big_blind}")
        if self.pips[self.first_player] > self.pips[1 - self.first_player]:
            raise ValueError(f"player {self.first_player} cannot act first with the higher pip: pips {self.pips}")
        cost = self.pips[1 - self.first_player] - self.pips[self.first_player]
        if cost > self.stacks[self.first_player]:
            raise ValueError(
                f"the cost to call ({cost} chips) exceeds player {self.first_player}'s stack {self.stacks}"
            )


@dataclass(frozen=True, eq=False)
class SubgameTree:
    """Flat node arrays (``n_nodes`` entries each), breadth-first, children contiguous.

    ``kind``: int8 DECISION / FOLD / SHOWDOWN / LEAF / RUNOUT. ``player``: int8, the player to act
    (DECISION), who folded (FOLD), -1 at the other terminals. ``child_start``, ``n_children``: int64, the children of a node are
    ``child_start .. child_start + n_children - 1``. ``pot_chips``: (n_nodes, 2) float64, chips each
    player has put in the whole hand at the node. ``reach_source``: (n_nodes, 2) int64, the node at
    or above each node where each player last acted (the node itself if that player's action led
    there; 0 at the root): a player's reach is the same there. ``action``: text of the action into
    each node.
    """

    config: SubgameConfig
    kind: np.ndarray
    player: np.ndarray
    child_start: np.ndarray
    n_children: np.ndarray
    pot_chips: np.ndarray
    reach_source: np.ndarray
    action: tuple[str, ...]

    @property
    def n_nodes(self) -> int:
        return len(self.kind)

    @property
    def n_decisions(self) -> int:
        return int(np.count_nonzero(self.kind == DECISION))

    def children(self, node: int) -> range:
        return range(int(self.child_start[node]), int(self.child_start[node] + self.n_children[node]))

    def describe(self, node: int) -> str:
        return self.action[node]

    @property
    def leaves(self) -> np.ndarray:
        """int64 node indices of the LEAF nodes, ascending (leaf ``i`` of :mod:`solver.resolve.leaves`)."""
        return np.flatnonzero(self.kind == LEAF)

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the kernels take, in order: kind, player, child_start, n_children, pot_chips,
        reach_source."""
        return (self.kind, self.player, self.child_start, self.n_children, self.pot_chips, self.reach_source)


@dataclass(frozen=True)
class _State:
    pot_chips: tuple[int, int]
    stacks: tuple[int, int]
    pips: tuple[int, int]
    to_act: int
    raises: int
    checked: bool  # the other player checked on this street


def _actions(state: _State, bets: StreetBets, big_blind: int, final: bool) -> list[tuple[str, int, _State | None]]:
    """``(text, kind, next state)`` of each action at a decision (None: the street ends there)."""
    me, other = state.to_act, 1 - state.to_act
    cost = state.pips[other] - state.pips[me]
    out: list[tuple[str, int, _State | None]] = []
    if cost > 0:
        all_in = state.stacks[me] == cost or state.stacks[other] == 0
        out.append(("fold", FOLD, None))
        out.append(("call", SHOWDOWN if final else (RUNOUT if all_in else LEAF), None))
    elif state.checked:
        out.append(("check", SHOWDOWN if final else LEAF, None))
    else:
        out.append(("check", DECISION, _State(state.pot_chips, state.stacks, state.pips, other, state.raises, True)))
    most = min(state.stacks[me], state.stacks[other] + cost)
    capped = bets.cap is not None and state.raises >= bets.cap
    if most > cost and not capped:
        least = min(most, cost + max(cost, big_blind))
        own_pip = state.pips[me]
        pot = sum(state.pot_chips)
        for raise_to in bets.raise_to_amounts(own_pip, state.pips[other], pot, (own_pip + least, own_pip + most)):
            added = raise_to - own_pip
            pips = (raise_to, state.pips[1]) if me == 0 else (state.pips[0], raise_to)
            pot_chips = tuple(c + (added if p == me else 0) for p, c in enumerate(state.pot_chips))
            stacks = tuple(s - (added if p == me else 0) for p, s in enumerate(state.stacks))
            verb = "raise" if state.pips[other] > 0 else "bet"
            out.append(
                (f"{verb} to {raise_to}", DECISION, _State(pot_chips, stacks, pips, other, state.raises + 1, False))
            )
    return out


def build_subgame_tree(config: SubgameConfig, max_nodes: int = 100_000) -> SubgameTree:
    """The street's betting tree from ``config`` (see :class:`SubgameConfig`); ``ValueError`` past ``max_nodes``."""
    if not isinstance(config, SubgameConfig):
        raise TypeError(f"config must be a SubgameConfig, got {config!r}")
    first = config.first_player
    root = _State(config.pot_chips, config.stacks, config.pips, first, config.raises_made, False)
    kinds, players, pots, actions = [DECISION], [first], [config.pot_chips], ["root"]
    states: list[_State | None] = [root]
    child_start, n_children = [0], [0]
    node = 0
    while node < len(kinds):
        state = states[node]
        if kinds[node] == DECISION and state is not None:
            choices = _actions(state, config.bets, config.big_blind, config.final_street)
            child_start[node], n_children[node] = len(kinds), len(choices)
            for text, kind, child in choices:
                if len(kinds) >= max_nodes:
                    raise ValueError(f"the subgame tree passes max_nodes={max_nodes:,}: use fewer sizes or a lower cap")
                me = state.to_act
                if text == "call":
                    cost = state.pips[1 - me] - state.pips[me]
                    pot_chips = tuple(c + (cost if p == me else 0) for p, c in enumerate(state.pot_chips))
                else:
                    pot_chips = child.pot_chips if child is not None else state.pot_chips
                kinds.append(kind)
                players.append(child.to_act if kind == DECISION else (me if kind == FOLD else -1))
                pots.append(pot_chips)
                actions.append(text)
                states.append(child)
                child_start.append(0)
                n_children.append(0)
        node += 1
    return subgame_tree_from_nodes(config, kinds, players, child_start, n_children, pots, actions)


def subgame_tree_from_nodes(
    config: SubgameConfig,
    kinds: list[int],
    players: list[int],
    child_start: list[int],
    n_children: list[int],
    pot_chips: list,
    actions: list[str],
) -> SubgameTree:
    """A :class:`SubgameTree` from its node lists (breadth-first, children contiguous; the meanings of
    the tree's arrays), its ``reach_source`` derived. ``config``: where the subgame starts."""
    reach_source = np.zeros((len(kinds), 2), dtype=np.int64)
    for node in range(len(kinds)):
        for child in range(child_start[node], child_start[node] + n_children[node]):
            reach_source[child] = reach_source[node]
            reach_source[child, players[node]] = child
    return SubgameTree(
        config=config,
        kind=np.array(kinds, dtype=np.int8),
        player=np.array(players, dtype=np.int8),
        child_start=np.array(child_start, dtype=np.int64),
        n_children=np.array(n_children, dtype=np.int64),
        pot_chips=np.array(pot_chips, dtype=np.float64).reshape(len(kinds), 2),
        reach_source=reach_source,
        action=tuple(actions),
    )
