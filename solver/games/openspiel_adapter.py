"""OpenSpiel adapter: our solver games as OpenSpiel Python games, and OpenSpiel games as our solver games.

OpenSpiel (``pyspiel``, the optional ``openspiel`` extra) is imported lazily: without it, the
functions that need it raise :class:`OpenSpielUnavailableError` saying how to install it.

**vcfr -> OpenSpiel.** :func:`openspiel_game` wraps any :class:`~abstraction.tree.SolverGame`
with a deal table (every exact game: Kuhn and Leduc with 2..6 players, the small exact variants
under both rule sets; an abstract game built with ``chance="fixed"``) as a ``pyspiel.Game``. A
hand is one chance node choosing a deal (row ``d`` of the `DealTable`, probability
``probability[d]``), then the walk of the flat tree: a decision's actions are its children in
order (action ``k`` is child ``child_start + k``, named by :meth:`FlatTree.action_label`), a
chance node inside the betting takes the deal's child (``chance[d, slot]``), a terminal returns
the deal's outcome weights of its context times its payoff rows (net chips). The information
state of the player to act is our information set, ``(group, bucket)``: its string is
:func:`info_state_string` and its tensor a one-hot of the group followed by a one-hot of the
bucket, so two states share a string (or tensor) exactly when they share an information set of
ours (and so a row of our tables). Observations are the same as information states. Players who
are not to act get ``"player p waits at node n"`` (no information set of ours).
:func:`register_games` registers ``python_vcfr`` with the parameters ``game`` (``kuhn``,
``leduc``, ``small_<variant>``), ``players`` (Kuhn, Leduc) and ``rules`` (the small variants'
rule set, ``document`` or ``engine``), so ``pyspiel.load_game("python_vcfr", {...})`` builds them.

**OpenSpiel -> vcfr.** :func:`solver_game_from_openspiel` walks a ``pyspiel`` game's whole tree
and builds a `SolverGame` of it when the tree fits our form: who acts and which actions are legal
depend only on the players' actions (not on chance), every sequence of chance outcomes is
possible whatever the players do, and every information state lies at one betting node (players'
actions are public). A deal is a full sequence of chance outcomes; street ``s`` is "``s`` chance
outcomes seen", a player's bucket on it the class of what their information states tell apart.

:func:`tabular_policy` turns a flat strategy of ours into a ``pyspiel.TabularPolicy`` for either
direction, so OpenSpiel's ``nash_conv`` and best responses measure our strategies.

**Limit against universal_poker.** :func:`universal_poker_parameters` is the ACPC game definition
(OpenSpiel's ``universal_poker``) of our N-player limit game on a small deck, the limit system's
independent check; its docstring is the mapping between the two rule sets.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from abstraction.bets.limit_tree import check_no_tap_out
from abstraction.tree import CHANCE, DECISION, FOLD, SHOWDOWN, DealTable, FlatTree, SolverGame
from game.cards.deck import format_cards, make_card, parse_cards, rank_of, suit_of
from game.rules.limit import LimitConfig

REGISTERED_NAME = "python_vcfr"
"""Short name of the registered game (:func:`register_games`)."""
SMALL_PREFIX = "small_"
DEFAULT_PARAMETERS = {"game": "kuhn", "players": 2, "rules": "document"}
"""Parameters of ``python_vcfr`` and their defaults."""


class OpenSpielUnavailableError(ImportError):
    """OpenSpiel is not installed."""


def load_pyspiel() -> ModuleType:
    """Import ``pyspiel`` or raise :class:`OpenSpielUnavailableError` with the install command."""
    try:
        import pyspiel
    except ImportError:
        raise OpenSpielUnavailableError(
            "OpenSpiel (pyspiel) is not installed; install the openspiel extra: pip install -e '.[openspiel]'"
        ) from None
    return pyspiel


# ---------------------------------------------------------------------- vcfr -> OpenSpiel
def info_state_string(tree: FlatTree, group: int, bucket: int) -> str:
    """The OpenSpiel information state string of our information set ``(group, bucket)``.

    >>> from abstraction.exact.exact_games import build_game
    >>> info_state_string(build_game("kuhn").tree, 0, 2)
    'player 0 group 0 bucket 2'
    """
    return f"player {int(tree.group_player[group])} group {group} bucket {bucket}"


class _Shared:
    """The solver game a state reads; OpenSpiel's ``Clone`` deep-copies a Python state's attributes,
    and this one is shared, not copied."""

    def __init__(self, game: SolverGame) -> None:
        if game.deals is None:
            raise ValueError(
                f"game {game.name!r} draws fresh chance: an OpenSpiel game needs its deals listed "
                "(build it with a deal table, e.g. chance='fixed')"
            )
        self.game = game
        self.tree = game.tree
        self.deals = game.deals
        self.context_offset = game.tree.context_offset
        self.outcomes = [(d, float(p)) for d, p in enumerate(game.deals.probability) if p > 0]
        self.tensor_size = game.tree.n_groups + int(game.tree.n_buckets.max(initial=1))

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def advance(self, node: int, deal: int) -> int:
        """``node``, or below it the node the deal's chance children lead to (chance nodes are the deal's)."""
        tree = self.tree
        while tree.kind[node] == CHANCE:
            node = int(tree.child_start[node]) + int(self.deals.chance[deal, int(tree.context[node])])
        return node

    def bucket(self, node: int, deal: int) -> tuple[int, int]:
        """``(group, bucket)`` of the actor at decision ``node`` on ``deal``."""
        group = int(self.tree.infoset_group[node])
        slot = int(self.tree.group_slot[group])
        return group, int(self.deals.bucket[deal, int(self.tree.player[node]), slot])

    def terminal_values(self, node: int, deal: int) -> list[float]:
        """Net chips of each player at terminal ``node`` on ``deal``."""
        tree = self.tree
        row, context = int(tree.value_row[node]), int(tree.context[node])
        if context < 0:
            return tree.terminal_values[row].tolist()
        first = int(self.context_offset[context])
        weights = self.deals.weight[deal, first : first + int(tree.context_size[context])]
        return (weights @ tree.terminal_values[row : row + len(weights)]).tolist()


def _game_type(pyspiel: ModuleType, zero_sum: bool = True) -> Any:
    return pyspiel.GameType(
        short_name=REGISTERED_NAME,
        long_name="vcfr solver game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMETERS),
    )


@functools.cache
def _classes(pyspiel: ModuleType) -> tuple[type, type, type]:
    """The Game, State and observer classes (they subclass ``pyspiel``'s, so they are made on first use)."""

    class VcfrState(pyspiel.State):
        """A hand of a solver game: ``deal`` (-1 before chance deals) and ``node`` of the flat tree."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.shared = game.shared
            self.deal = -1
            self.node = 0

        def current_player(self) -> int:
            if self.deal < 0:
                return int(pyspiel.PlayerId.CHANCE)
            if self.shared.tree.kind[self.node] == DECISION:
                return int(self.shared.tree.player[self.node])
            return int(pyspiel.PlayerId.TERMINAL)

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(int(self.shared.tree.n_children[self.node])))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.shared.outcomes

        def _apply_action(self, action: int) -> None:
            if self.deal < 0:
                self.deal = int(action)
            else:
                self.node = int(self.shared.tree.child_start[self.node]) + int(action)
            self.node = self.shared.advance(self.node, self.deal)

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {action}"
            return self.shared.tree.action_label(int(self.shared.tree.child_start[self.node]) + int(action))

        def is_terminal(self) -> bool:
            return self.deal >= 0 and self.shared.tree.kind[self.node] in (FOLD, SHOWDOWN)

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0] * self.shared.tree.n_players
            return self.shared.terminal_values(self.node, self.deal)

        def __str__(self) -> str:
            return f"deal {self.deal} node {self.node} {self.shared.tree.history(self.node)}"

    class VcfrObserver:
        """Information state (and observation): our information set of the player to act."""

        def __init__(self, shared: _Shared) -> None:
            self.shared = shared
            self.tensor = np.zeros(shared.tensor_size, np.float32)
            self.dict = {"infoset": self.tensor}

        def _infoset(self, state: Any, player: int) -> tuple[int, int] | None:
            if state.deal < 0 or state.current_player() != player:
                return None
            return self.shared.bucket(state.node, state.deal)

        def set_from(self, state: Any, player: int) -> None:
            self.tensor.fill(0)
            infoset = self._infoset(state, player)
            if infoset is not None:
                self.tensor[infoset[0]] = 1
                self.tensor[self.shared.tree.n_groups + infoset[1]] = 1

        def string_from(self, state: Any, player: int) -> str:
            infoset = self._infoset(state, player)
            if infoset is None:
                return f"player {player} waits at node {state.node}"
            return info_state_string(self.shared.tree, *infoset)

    class VcfrGame(pyspiel.Game):
        """A solver game as an OpenSpiel game: ``VcfrGame(params)`` builds a registered one
        (:func:`registered_solver_game`), ``VcfrGame(params, game)`` wraps ``game``."""

        def __init__(self, params: Mapping[str, Any] | None = None, game: SolverGame | None = None) -> None:
            params = {**DEFAULT_PARAMETERS, **dict(params or {})}
            if game is not None:
                params.update(game=game.name, players=game.tree.n_players)
            self.shared = _Shared(game if game is not None else registered_solver_game(**params))
            tree = self.shared.tree
            zero_sum = bool(np.abs(tree.terminal_values.sum(axis=1)).max(initial=0.0) < 1e-9)
            depth = np.zeros(tree.n_nodes, dtype=np.int64)
            for node in range(tree.n_nodes):
                start = int(tree.child_start[node])
                depth[start : start + int(tree.n_children[node])] = depth[node] + (tree.kind[node] == DECISION)
            info = pyspiel.GameInfo(
                num_distinct_actions=tree.max_actions,
                max_chance_outcomes=len(self.shared.outcomes),
                num_players=tree.n_players,
                min_utility=float(tree.terminal_values.min()),
                max_utility=float(tree.terminal_values.max()),
                utility_sum=0.0 if zero_sum else None,
                max_game_length=int(depth.max()) + 1,
            )
            super().__init__(_game_type(pyspiel, zero_sum), info, params)

        def new_initial_state(self) -> Any:
            return VcfrState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> VcfrObserver:
            if params:
                raise ValueError(f"observation parameters are not supported, got {params}")
            return VcfrObserver(self.shared)

    return VcfrGame, VcfrState, VcfrObserver


def openspiel_game(game: SolverGame) -> Any:
    """``game`` (with a deal table) as a ``pyspiel.Game`` (see the module docstring).

    The wrapped game is not in OpenSpiel's registry under its own rules: algorithms that reload a
    game from its name and parameters (serialisation) rebuild the registered default instead.
    """
    pyspiel = load_pyspiel()
    return _classes(pyspiel)[0](game=game)


def register_games() -> None:
    """Register ``python_vcfr`` with OpenSpiel (idempotent): ``pyspiel.load_game("python_vcfr",
    {"game": "leduc", "players": 3})``, ``{"game": "small_bounty", "rules": "engine"}``..."""
    pyspiel = load_pyspiel()
    if REGISTERED_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(pyspiel), _classes(pyspiel)[0])


@functools.lru_cache(maxsize=8)
def registered_solver_game(game: str, players: int = 2, rules: str = "document") -> SolverGame:
    """The solver game named by ``python_vcfr``'s parameters: ``kuhn``/``leduc`` with ``players``
    seats, or ``small_<variant>`` (heads-up) under the rule set ``rules``.

    >>> registered_solver_game("small_poker")
    Traceback (most recent call last):
    ...
    ValueError: unknown small variant 'poker': expected one of ['auction', 'bounty', 'holdem', 'river_of_blood', 'swap']
    """
    from abstraction.exact.exact_games import build_game
    from abstraction.exact.small_variants import build_small_variant
    from abstraction.hooks import hooked_variants

    if game.startswith(SMALL_PREFIX):
        variant = game.removeprefix(SMALL_PREFIX)
        if variant not in hooked_variants():
            raise ValueError(f"unknown small variant {variant!r}: expected one of {sorted(hooked_variants())}")
        if players != 2:
            raise ValueError(f"the small variants are heads-up, got players={players}")
        return build_small_variant(variant, rules=rules).game
    return build_game(game, {"players": players})


# ---------------------------------------------------------------------- universal_poker
def universal_poker_parameters(rules: LimitConfig, deck: str | Sequence[int]) -> dict[str, Any]:
    """OpenSpiel's ``universal_poker`` parameters (an ACPC game definition) of our limit game
    ``rules`` dealt from ``deck``: the same game, chip for chip, when ``rules`` fit ACPC's form.

    The mapping (seats: our button, seat 0, is ACPC's player 1; cards: :func:`acpc_card`):

    - antes are ACPC blinds, equal for every player (``blind``); ACPC has no voluntary straddle,
      so ``rules.blinds`` must be off (every round then opens with the button, who may check);
    - ``firstPlayer`` is 1 in every round (our first position is the button);
    - ``raiseSize`` is each round's limit; ``maxRaises`` is ``max_raises + 1``: ACPC counts the
      opening bet of a round, we do not;
    - ``numHoleCards``, ``numBoardCards`` are ``hole_cards``, ``board_cards``; the deck is the
      lowest ``numRanks`` ranks in the first ``numSuits`` suits (ACPC's deck), in any order;
    - cards speak and nobody taps out (``stack`` is the buy-in, which covers any game); ACPC's hand
      is the best five of all a player's cards (every card when fewer), so ``must_use_hole_card``
      must be off once the board alone makes a hand;
    - ACPC splits a tied pot in fractions of a chip, we in whole chips (odd chips from the button):
      the ante and both limits must be multiples of every tie size (2..n_players), so no odd chip arises.

    Raises ValueError naming the first rule ACPC cannot express.

    >>> rules = LimitConfig(n_players=3, low_limit=6, high_limit=12, ante=6, max_raises=1, cards_speak=True,
    ...                     blinds=False, hole_cards=1, board_cards=(0, 1))
    >>> universal_poker_parameters(rules, "2c 2d 3c 3d 4c 4d")["maxRaises"]
    '2 2'
    >>> universal_poker_parameters(LimitConfig(), "2c 2d 3c 3d")
    Traceback (most recent call last):
    ...
    ValueError: universal_poker cannot express the straddle (a player's choice; ACPC's blinds are forced): use blinds=False
    """
    cards = parse_cards(deck).tolist()
    n_ranks, n_suits = len({rank_of(card) for card in cards}), len({suit_of(card) for card in cards})
    expected = {make_card(rank, suit) for rank in range(n_ranks) for suit in range(n_suits)}
    if set(cards) != expected or len(cards) != len(expected):
        raise ValueError(
            f"ACPC's deck is the lowest ranks in the first suits (c d h s): {format_cards(sorted(expected))!r}, "
            f"got {format_cards(cards)!r}"
        )
    problem = None
    ties = range(2, rules.n_players + 1)
    if rules.blinds:
        problem = "the straddle (a player's choice; ACPC's blinds are forced): use blinds=False"
    elif not rules.cards_speak:
        problem = "announced hands: use cards_speak=True"
    elif not rules.check_raise:
        problem = "a ban on check-raising: use check_raise=True"
    elif rules.must_use_hole_card and sum(rules.board_cards) >= 5:
        problem = "a hand that must use a hole card (ACPC's is the best of all cards): use must_use_hole_card=False"
    elif any(chips % size for chips in (rules.ante, rules.low_limit, rules.high_limit) for size in ties):
        problem = (
            f"odd chips of a tie (ACPC splits pots in fractions): ante and limits must be multiples of "
            f"{list(ties)}, got {rules.ante}, {rules.low_limit}, {rules.high_limit}"
        )
    if problem is not None:
        raise ValueError(f"universal_poker cannot express {problem}")
    check_no_tap_out(rules)
    rounds = len(rules.board_cards)

    def each(values: Sequence[int]) -> str:
        return " ".join(str(int(value)) for value in values)

    return {
        "betting": "limit",
        "numPlayers": rules.n_players,
        "numRounds": rounds,
        "blind": each([rules.ante] * rules.n_players),
        "raiseSize": each([rules.limit(street) for street in rules.streets]),
        "firstPlayer": each([1] * rounds),
        "maxRaises": each([rules.max_raises + 1] * rounds),
        "numSuits": n_suits,
        "numRanks": n_ranks,
        "numHoleCards": rules.hole_cards,
        "numBoardCards": each(rules.board_cards),
        "stack": each([rules.buy_in] * rules.n_players),
    }


def acpc_card(card: int, n_suits: int) -> int:
    """ACPC's (``universal_poker``'s chance outcome) index of our card int in a deck of ``n_suits``
    suits: ``rank * n_suits + suit``, ranks from the deuce, suits c d h s.

    >>> from game.cards.deck import parse_cards
    >>> [acpc_card(card, 2) for card in parse_cards("2c 2d 3c 5d").tolist()]
    [0, 1, 2, 7]
    """
    return rank_of(card) * n_suits + suit_of(card)


# ---------------------------------------------------------------------- policies
@dataclass(frozen=True)
class InfosetRows:
    """Where each OpenSpiel information state of a game lives in our tables: ``rows[key]`` is
    ``(row, action_ids)``, the first table entry of the information set and the OpenSpiel action id
    of each of its ``len(action_ids)`` entries."""

    rows: Mapping[str, tuple[int, tuple[int, ...]]]


def infoset_rows(game: SolverGame) -> InfosetRows:
    """The information states of ``openspiel_game(game)``: every ``(group, bucket)``, actions ``0..n-1``."""
    tree = game.tree
    rows = {}
    for group in range(tree.n_groups):
        count = int(tree.n_actions[group])
        for bucket in range(int(tree.n_buckets[group])):
            row = int(tree.row_offset[group]) + bucket * count
            rows[info_state_string(tree, group, bucket)] = (row, tuple(range(count)))
    return InfosetRows(rows)


def tabular_policy(rows: InfosetRows, strategy: np.ndarray) -> Any:
    """Our flat ``strategy`` (table entries, rows summing to 1) as a ``pyspiel.TabularPolicy``."""
    pyspiel = load_pyspiel()
    strategy = np.asarray(strategy, dtype=np.float64)
    return pyspiel.TabularPolicy(
        {
            key: [(action, float(strategy[row + k])) for k, action in enumerate(actions)]
            for key, (row, actions) in rows.rows.items()
        }
    )


def strategy_from_policy(game: SolverGame, rows: InfosetRows, policy: Any) -> np.ndarray:
    """An OpenSpiel policy as our flat strategy table: a python ``TabularPolicy`` (``policy_for_key``)
    or a ``pyspiel.Policy`` (e.g. a C++ solver's ``average_policy()``, asked by information state
    string). An information set the policy does not know (a sampling solver never met it) plays
    uniformly."""
    pyspiel = load_pyspiel()
    table = np.zeros(game.tree.table_size)
    for key, (row, actions) in rows.rows.items():
        if hasattr(policy, "policy_for_key"):
            known = dict(enumerate(np.asarray(policy.policy_for_key(key), dtype=np.float64).tolist()))
        else:
            try:
                known = policy.action_probabilities(key)
            except pyspiel.SpielError:
                known = {action: 1.0 / len(actions) for action in actions}
        table[row : row + len(actions)] = [known.get(action, 0.0) for action in actions]
    return table


# ---------------------------------------------------------------------- OpenSpiel -> vcfr
@dataclass(frozen=True)
class ImportedGame:
    """An OpenSpiel game as our solver game: ``game`` and where its information states are, ``rows``."""

    game: SolverGame
    rows: InfosetRows


class _Walk:
    """What a walk of an OpenSpiel tree records, keyed by the players' actions so far (a betting node)."""

    def __init__(self, max_states: int) -> None:
        self.max_states = max_states
        self.states = 0
        self.chance: dict[tuple[int, ...], list[tuple[int, float]]] = {}  # chance prefix -> outcomes
        self.street: dict[tuple[int, ...], int] = {}
        self.actor: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}  # decision -> (player, legal)
        self.info: dict[tuple[int, ...], dict[tuple[int, ...], str]] = {}  # decision -> chance prefix -> key
        self.returns: dict[tuple[int, ...], dict[tuple[int, ...], tuple[float, ...]]] = {}

    def visit(self, state: Any, actions: tuple[int, ...], prefix: tuple[int, ...]) -> None:
        self.states += 1
        if self.states > self.max_states:
            raise ValueError(f"the game has more than max_states={self.max_states} states")
        if state.is_chance_node():
            outcomes = [(int(a), float(p)) for a, p in state.chance_outcomes()]
            if self.chance.setdefault(prefix, outcomes) != outcomes:
                raise ValueError(f"chance after {prefix} depends on the players' actions (at {actions})")
            for outcome, _ in outcomes:
                self.visit(state.child(outcome), actions, (*prefix, outcome))
            return
        if self.street.setdefault(actions, len(prefix)) != len(prefix):
            raise ValueError(f"the chance seen before actions {actions} depends on the cards")
        if state.is_terminal():
            self.returns.setdefault(actions, {})[prefix] = tuple(float(r) for r in state.returns())
            return
        if state.is_simultaneous_node():
            raise ValueError("simultaneous moves do not fit a solver game")
        player, legal = int(state.current_player()), tuple(int(a) for a in state.legal_actions())
        if self.actor.setdefault(actions, (player, legal)) != (player, legal):
            raise ValueError(f"who acts after {actions} and with which actions depends on chance")
        self.info.setdefault(actions, {})[prefix] = state.information_state_string(player)
        for action in legal:
            self.visit(state.child(action), (*actions, action), prefix)


def _deals(walk: _Walk) -> tuple[list[tuple[int, ...]], np.ndarray, dict[int, list[tuple[int, ...]]]]:
    """Every full chance sequence with its probability, and the chance prefixes of each length."""
    prefixes: dict[int, list[tuple[int, ...]]] = {0: [()]}
    deals, probability = [], []
    stack: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while stack:
        prefix, p = stack.pop()
        if prefix not in walk.chance:
            deals.append(prefix)
            probability.append(p)
            continue
        for outcome, q in walk.chance[prefix]:
            stack.append(((*prefix, outcome), p * q))
            prefixes.setdefault(len(prefix) + 1, []).append((*prefix, outcome))
    if len({len(d) for d in deals}) != 1:
        raise ValueError("the chance sequences have different lengths: how long a hand lasts depends on chance")
    order = sorted(range(len(deals)), key=deals.__getitem__)
    return [deals[i] for i in order], np.array(probability)[order], prefixes


def solver_game_from_openspiel(spiel_game: Any, name: str | None = None, max_states: int = 2_000_000) -> ImportedGame:
    """Build our solver game of a ``pyspiel`` game by walking its tree (see the module docstring).

    Raises ValueError naming what does not fit (betting that depends on chance, hidden actions,
    information that a player forgets) or when the tree has more than ``max_states`` states.
    Node fields without an OpenSpiel meaning are neutral: ``committed`` 0, ``action_kind`` -1 with
    the OpenSpiel action id in ``action_amount``.
    """
    walk = _Walk(max_states)
    walk.visit(spiel_game.new_initial_state(), (), ())
    deals, probability, prefixes = _deals(walk)
    n_players = int(spiel_game.num_players())
    for actions, street in walk.street.items():
        reached = walk.info.get(actions) or walk.returns[actions]
        if len(reached) != len(prefixes[street]):
            raise ValueError(f"actions {actions} are reached by {len(reached)} of the {len(prefixes[street])} deals")
    # buckets: per (player, street), the classes of chance prefixes the player's information states tell apart
    owner: dict[str, tuple[int, ...]] = {}
    view: dict[tuple[int, int], dict[tuple[int, ...], tuple[str, ...]]] = {}
    for actions, keys in walk.info.items():
        player = walk.actor[actions][0]
        for prefix, key in keys.items():
            if owner.setdefault(key, actions) != actions:
                raise ValueError(f"information state {key!r} spans actions {owner[key]} and {actions} (hidden actions)")
            cell = view.setdefault((player, walk.street[actions]), {})
            cell[prefix] = (*cell.get(prefix, ()), key)
    bucket_of: dict[tuple[int, int], dict[tuple[int, ...], int]] = {}
    for cell_key, cell in view.items():
        classes = {v: i for i, v in enumerate(sorted(set(cell.values())))}
        bucket_of[cell_key] = {prefix: classes[v] for prefix, v in cell.items()}
    for actions, keys in walk.info.items():
        cell = bucket_of[(walk.actor[actions][0], walk.street[actions])]
        if len(set(keys.values())) != len({cell[p] for p in keys}):
            raise ValueError(f"at actions {actions} the player forgets what they told apart elsewhere on the street")
    n_streets = max(walk.street.values()) + 1
    n_buckets = np.ones(n_streets, dtype=np.int32)
    for (_, street), cell in bucket_of.items():
        n_buckets[street] = max(n_buckets[street], max(cell.values()) + 1)
    bucket = np.zeros((len(deals), n_players, n_streets), dtype=np.int32)
    for (player, street), cell in bucket_of.items():
        bucket[:, player, street] = [cell[deal[:street]] for deal in deals]
    tree, contexts = _imported_tree(walk, n_players, n_buckets)
    weight = np.zeros((len(deals), tree.weight_columns))
    for offset, outcome_of in contexts:
        street = len(next(iter(outcome_of)))
        for d, deal in enumerate(deals):
            weight[d, offset + outcome_of[deal[:street]]] = 1.0
    deal_table = DealTable(
        probability=probability / probability.sum(),
        bucket=bucket,
        weight=weight,
        chance=np.zeros((len(deals), 0), dtype=np.int8),
        n_buckets=n_buckets,
    )
    game_name = name or str(spiel_game)
    game = SolverGame(name=game_name, tree=tree, deals=deal_table, config={"name": game_name, "openspiel": True})
    rows = {}
    for node, actions in enumerate(_bfs_order(walk)):
        if actions not in walk.info:
            continue
        group = int(tree.infoset_group[node])
        player, legal = walk.actor[actions]
        cell = bucket_of[(player, walk.street[actions])]
        for prefix, key in walk.info[actions].items():
            rows[key] = (int(tree.row_offset[group]) + cell[prefix] * len(legal), legal)
    return ImportedGame(game, InfosetRows(rows))


def _bfs_order(walk: _Walk) -> list[tuple[int, ...]]:
    """The betting nodes (players' action tuples) breadth first, children in legal-action order."""
    order, queue = [], deque([()])
    while queue:
        actions = queue.popleft()
        order.append(actions)
        if actions in walk.actor:
            queue.extend((*actions, a) for a in walk.actor[actions][1])
    return order


def _imported_tree(
    walk: _Walk, n_players: int, n_buckets: np.ndarray
) -> tuple[FlatTree, list[tuple[int, dict[tuple[int, ...], int]]]]:
    """The flat tree of a walk, and per outcome context its first weight column and outcome per chance prefix."""
    order = _bfs_order(walk)
    index = {actions: i for i, actions in enumerate(order)}
    n = len(order)
    kind, player = np.zeros(n, dtype=np.int8), np.full(n, -1, dtype=np.int8)
    child_start, n_children = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)
    context, value_row = np.full(n, -1), np.full(n, -1, dtype=np.int64)
    action_amount = np.array([actions[-1] if actions else -1 for actions in order])
    rows: list[tuple[float, ...]] = []
    contexts: list[tuple[int, dict[tuple[int, ...], int]]] = []
    columns = 0
    for i, actions in enumerate(order):
        if actions in walk.actor:
            who, legal = walk.actor[actions]
            kind[i], player[i], n_children[i] = DECISION, who, len(legal)
            child_start[i] = index[(*actions, legal[0])]
            continue
        payoffs = walk.returns[actions]
        values = sorted(set(payoffs.values()))
        value_row[i] = len(rows)
        rows += values
        if len(values) == 1:
            kind[i] = FOLD
            continue
        kind[i], context[i] = SHOWDOWN, len(contexts)
        outcome = {v: k for k, v in enumerate(values)}
        contexts.append((columns, {prefix: outcome[v] for prefix, v in payoffs.items()}))
        columns += len(values)
    tree = FlatTree.without_chance(
        kind=kind,
        player=player,
        street=[walk.street[actions] for actions in order],
        child_start=child_start,
        n_children=n_children,
        committed=np.zeros((n, n_players)),
        action_kind=np.full(n, -1),
        action_amount=action_amount,
        context=context,
        value_row=value_row,
        terminal_values=rows,
        context_size=[len(set(outcome.values())) for _, outcome in contexts],
        buckets_per_street=n_buckets,
    )
    return tree, contexts


__all__ = [
    "REGISTERED_NAME",
    "ImportedGame",
    "InfosetRows",
    "OpenSpielUnavailableError",
    "acpc_card",
    "info_state_string",
    "infoset_rows",
    "load_pyspiel",
    "openspiel_game",
    "register_games",
    "registered_solver_game",
    "solver_game_from_openspiel",
    "strategy_from_policy",
    "tabular_policy",
    "universal_poker_parameters",
]
