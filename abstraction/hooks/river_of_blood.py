"""Tree hooks of River of Blood Hold'em: chance nodes on the colour of the river and run cards.

The abstract game caps the run at R streets (``max_runs``, default :data:`DEFAULT_MAX_RUNS`): the
tree is built on the rules config with ``max_board_cards = min(config.max_board_cards, 5 + R)``,
and R is what that leaves, ``max_board_cards - 5`` (`runs`).

- Slots: 0..3 as Hold'em, then 3 + k for run street k = 1..R (the board of 5 + k cards).
- Chance slots j = 0..R-1: the colour of board card 4 + j (j = 0: the river), child 0 black (no
  run follows), child 1 red (run street j + 1 follows). The chance node sits where that card is
  dealt: after the action that closes the previous street (several in a row when no more
  betting is possible and the document deals the rest at once). The last card the cap allows
  decides nothing: no chance node there.
- Contexts c = 0..R: the showdown on the board of 5 + c cards (c run cards), 3 outcomes each.

The walk drives the real round with a `ColourChance`, whose chance cards have the colour the
walk asks for; `ColourWalk.apply` reports a chance card it was not told the colour of, and the
builder makes a chance node there and applies the action again once per colour.

>>> from game.rules.actions import Action
>>> from game.rules.river_of_blood import RiverOfBloodConfig
>>> config = HOOKS.walk_config(RiverOfBloodConfig(), max_runs=2)
>>> config.max_board_cards, HOOKS.slot_names(config)[4:], HOOKS.context_size(config), HOOKS.chance_size(config)
(7, ('run 1', 'run 2'), (3, 3, 3), (2, 2))
>>> walk = HOOKS.start(config)
>>> round_, _ = walk.apply(walk.root, Action.raise_to(400), ())
>>> walk.apply(round_, Action.call(), ())[1]                # the all-in call deals the river: slot 0
0
>>> black, _ = walk.apply(round_, Action.call(), (BLACK,))
>>> len(black.board), HOOKS.terminal_context(black)
(5, 0)
>>> walk.apply(round_, Action.call(), (RED,))[1]             # a red river deals run card 1: slot 1
1
>>> red_red, _ = walk.apply(round_, Action.call(), (RED, RED))
>>> len(red_red.board), HOOKS.terminal_context(red_red)      # the cap: its colour decides nothing
(7, 2)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from abstraction.chance.kernels_chance import DEAL_RUN_CARDS
from abstraction.hooks.holdem import NO_CHANCE, SHOWDOWN_OUTCOMES, HoldemHooks, Walk
from game.cards.deck import N_CARDS
from game.rules.actions import Action
from game.rules.nolimit import NoLimitConfig, NoLimitRound
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.variants import start_round

DEFAULT_MAX_RUNS = 2
"""Run streets of the abstract game when ``max_runs`` is not given."""
BLACK, RED = 0, 1
"""Children of a chance node: the card is black (no run follows) or red (a run street follows)."""
MAX_RUNS = 26
"""Most run streets a tree can have: the deck's red cards (every chance card before a red child is red)."""
RIVER_STREET = 3
"""The card-abstraction street run slots read (the river's: exact strength on the board)."""
_HOLE_CARDS = 4
_FIRST_CHANCE_BOARD_CARD = 4
"""Board index of chance slot 0's card (the river)."""
_RED_SUITS = (1, 2)  # diamonds, hearts (suits c d h s = 0 1 2 3)


def _colour(card: int) -> int:
    return RED if (card & 3) in _RED_SUITS else BLACK


class _ColourPlan:
    """What one walk tells its chance sources: the colours of the chance cards on the current path,
    and (out) the first chance slot dealt without a colour given."""

    __slots__ = ("colours", "n_slots", "unknown")

    def __init__(self, n_slots: int) -> None:
        self.n_slots = n_slots
        self.colours: tuple[int, ...] = ()
        self.unknown = NO_CHANCE


class ColourChance:
    """A `game.rules.chance.ChanceSource` for walking River of Blood's tree: distinct known cards, where board
    card 4 + j for chance slot j < ``plan.n_slots`` has the colour ``plan.colours[j]`` (black, and
    recorded in ``plan.unknown``, when not given) and every other card is black while blacks are left.

    Its clones share the plan (one per walk, set before each action by `ColourWalk.apply`) and
    copy the cards dealt. No yes/no events (River of Blood has none).
    """

    __slots__ = ("_dealt", "_plan")

    def __init__(self, plan: _ColourPlan, dealt: list[int] | None = None) -> None:
        self._plan = plan
        self._dealt = [] if dealt is None else dealt

    def deal(self, count: int) -> list[int]:
        return [self._deal_one() for _ in range(count)]

    def _deal_one(self) -> int:
        plan = self._plan
        slot = len(self._dealt) - _HOLE_CARDS - _FIRST_CHANCE_BOARD_CARD
        colour = BLACK
        if 0 <= slot < plan.n_slots:
            if slot < len(plan.colours):
                colour = plan.colours[slot]
            elif plan.unknown == NO_CHANCE:
                plan.unknown = slot
        free = [card for card in range(N_CARDS) if card not in self._dealt]
        wanted = [card for card in free if _colour(card) == colour]
        if not wanted and colour == RED:
            raise ValueError(f"no red card left for chance slot {slot}: at most {MAX_RUNS} run streets")
        card = (wanted or free)[0]
        self._dealt.append(card)
        return card

    def flip(self, name: str, probability: float) -> bool:
        raise ValueError(f"River of Blood has no yes/no chance events, asked for {name!r}")

    def clone(self) -> ColourChance:
        return ColourChance(self._plan, self._dealt[:])


class ColourWalk(Walk):
    """A walk of River of Blood: ``apply(round_, action, outcomes)`` deals chance card j in the colour
    ``outcomes[j]``, and returns the first chance slot it had no colour for (dealt black), or
    :data:`~abstraction.hooks.holdem.NO_CHANCE`. Only for rounds of this walk."""

    def __init__(self, config: NoLimitConfig, n_slots: int) -> None:
        self._plan = _ColourPlan(n_slots)
        super().__init__(start_round(config, ColourChance(self._plan)))

    def apply(self, round_: NoLimitRound, action: Action, outcomes: tuple[int, ...]) -> tuple[NoLimitRound, int]:
        plan = self._plan
        plan.colours = outcomes
        plan.unknown = NO_CHANCE
        child = round_.clone()
        child.apply(action)
        return child, plan.unknown


def runs(config: NoLimitConfig) -> int:
    """R, the run streets of the tree's config (`RiverOfBloodHooks.walk_config`): ``max_board_cards - 5``."""
    return config.max_board_cards - 5  # type: ignore[attr-defined]


@dataclass(frozen=True)
class RiverOfBloodHooks(HoldemHooks):
    """River of Blood: run-street slots, colour chance nodes, a showdown context per run length."""

    variant: str = "river_of_blood"
    deal_flags: int = DEAL_RUN_CARDS
    small_deck: str = "Kc Kd Kh Ks Ac Ad Ah As Qd Qs"

    def walk_config(self, config: NoLimitConfig, max_runs: int | None = None) -> NoLimitConfig:
        """``config`` with the board capped at 5 + ``max_runs`` cards (None: :data:`DEFAULT_MAX_RUNS`)."""
        if not isinstance(config, RiverOfBloodConfig):
            raise ValueError(f"the river_of_blood tree hooks got a {config.variant!r} config: {config!r}")
        max_runs = DEFAULT_MAX_RUNS if max_runs is None else max_runs
        if isinstance(max_runs, bool) or not isinstance(max_runs, int) or max_runs < 0:
            raise ValueError(f"max_runs must be an int >= 0 (run streets of the abstract game), got {max_runs!r}")
        capped = dataclasses.replace(config, max_board_cards=min(config.max_board_cards, 5 + max_runs))
        if runs(capped) > MAX_RUNS:
            raise ValueError(f"max_runs must be <= {MAX_RUNS} (the deck's red cards), got {max_runs!r}")
        return capped

    def start(self, config: NoLimitConfig) -> Walk:
        return ColourWalk(config, runs(config))

    def slot_names(self, config: NoLimitConfig) -> tuple[str, ...]:
        return super().slot_names(config) + tuple(f"run {k}" for k in range(1, runs(config) + 1))

    def slot_streets(self, config: NoLimitConfig) -> tuple[int, ...]:
        """Run streets bucket like the river (their exact strength on the longer board)."""
        return super().slot_streets(config) + (RIVER_STREET,) * runs(config)

    def sampler_arguments(self, config: NoLimitConfig) -> tuple[int, float, float, int]:
        """The run cap R of the tree config."""
        return (self.deal_flags, 0.0, 0.0, runs(config))

    def small_rules(self, max_runs: int) -> dict[str, Any]:
        """The board capped at 5 + ``max_runs`` cards in the real rules too."""
        return {"max_board_cards": 5 + max_runs}

    def context_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        """A showdown on 5 + c board cards for c = 0..R."""
        return (SHOWDOWN_OUTCOMES,) * (runs(config) + 1)

    def chance_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        """R chance slots of two children (black, red)."""
        return (2,) * runs(config)

    def showdown_context(self, round_: NoLimitRound) -> int:
        """The run cards dealt: board cards beyond five."""
        return len(round_.board) - 5


HOOKS = RiverOfBloodHooks()
"""The River of Blood tree hooks."""
