"""Hand histories in PHH (the Poker Hand History format PokerKit reads and writes), both ways.

A PHH hand is a TOML document. Every heads-up variant is written as PHH's no-limit Texas hold'em
(``variant = 'NT'``); what NT cannot express goes into user-defined fields, whose keys start
with ``_vcfr_``. A file of many hands is PHH's multi-hand ``.phhs`` form: one TOML table per
hand, ``[1]``, ``[2]``, ... (PokerKit's ``HandHistory.loads_all``); a one-round history written
to a ``.phh`` path is a single hand without a table header (``HandHistory.loads``).

Field mapping (PHH's players are in blind order: PokerKit's heads-up ``p1`` posts the big blind
and is our seat 1, ``p2`` is the dealer, our seat 0):

- ``antes = [0, 0]``, ``blinds_or_straddles = [small_blind, big_blind]``, ``min_bet = big_blind``,
  ``starting_stacks = [stack, stack]`` (chips), ``hand`` = round index + 1,
  ``players = [seat 1's player, seat 0's player]``,
  ``finishing_stacks = [stack + payoff of seat 1, stack + payoff of seat 0]``.
- ``actions``: ``d dh p1 <cards>``, ``d dh p2 <cards>`` (the hole cards as dealt), then every
  move PHH can express in order: ``pK f`` (fold), ``pK cc`` (check or call), ``pK cbr N`` (bet or
  raise to N chips this street, as our ``R<N>``), with ``d db <cards>`` dealing the flop, turn and
  river before that street's first move (or at the end when the round runs out the board
  without decisions), and ``pK sm <hole cards as dealt>`` for both players at a showdown.
- ``_vcfr_moves``: the moves PHH cannot express, each ``"<index> <seat>:<action>"`` with its
  0-based index in the round's full move sequence: Auction's bids (``A<chips>``), River of
  Blood's run-street moves, and the checks (or the 2025 Bounty engine's fold) the engine rules
  ask for once a stack is empty. Absent when there are none.
- ``_vcfr_deck``: every card dealt in our deal order (``game.rules.nolimit``), written only when
  the round dealt cards besides the hole cards and the first five board cards (Swap's
  replacement cards, Auction's third card, River of Blood's run cards); the ``d dh``/``d db``
  cards must agree with it.
  ``_vcfr_events``: named chance events (Swap: ``{swap = [true, false, ...]}``).
- ``_vcfr_variant``, ``_vcfr_config`` (every field of the variant's config), ``_vcfr_match``
  (``{players, rounds, duplicate, seed}``: the JSON-lines header), ``_vcfr_round``, ``_vcfr_deal``,
  ``_vcfr_match_state`` (Bounty: the bounty ranks by seat, 0..12), ``_vcfr_faults`` (as in the
  JSON lines).

So a Hold'em round replays in PokerKit to our finishing stacks. PokerKit loads every file and
plays the ``actions`` of Bounty (without its bonus), Swap (with the hole cards as first dealt)
and River of Blood (without run streets), to finishing stacks that need not be ours; it cannot
play an Auction round's, whose bids move chips NT has no action for, nor a 2025 Bounty engine
round that ends in a fold after an all-in.
A PHH file without ``_vcfr_`` fields (heads-up NT from elsewhere) is read as a Hold'em round with
``stack``, blinds from its fields and ``rules = "document"``.

>>> from game.rules.chance import ChanceLog
>>> from game.rules.actions import Action, Move
>>> from game.rules.holdem import HoldemConfig
>>> from game.play.history import HistoryHeader, RoundRecord
>>> header = HistoryHeader("holdem", HoldemConfig(), None, ("a", "b"), 1, False)
>>> deck = tuple(int(c) for c in parse_cards("Ah Ad Kc Qc"))
>>> record = RoundRecord(0, 0, ("a", "b"), None, ChanceLog(deck), (Move(0, 0, Action.fold()),), (-1, 1))
>>> hand = round_to_phh(header, record)
>>> hand["actions"], hand["finishing_stacks"]
(['d dh p1 KcQc', 'd dh p2 AhAd', 'p2 f'], [401, 399])
>>> read_phh_text(dumps_hands([hand], sections=False))[1][0][1] == record
True
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from game.cards.deck import format_cards, parse_cards
from game.play.history import Fault, HistoryHeader, RoundRecord, TextSink
from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.chance import ScriptedChance
from game.rules.nolimit import RIVER, NoLimitConfig

PHH_SUFFIXES = (".phh", ".phhs")
"""File suffixes read and written as PHH (anything else is JSON lines)."""


def is_phh_path(path: str | Path) -> bool:
    """Whether ``path`` names a PHH file (``.phh`` or ``.phhs``)."""
    return Path(path).suffix.lower() in PHH_SUFFIXES


def _player(seat: int) -> str:
    """PHH player label of our seat: ``p1`` is the big blind (seat 1), ``p2`` the dealer (seat 0)."""
    return f"p{2 - seat}"


def _cards(cards: Iterable[int]) -> str:
    return format_cards(cards, sep="")


def round_to_phh(header: HistoryHeader, record: RoundRecord) -> dict[str, Any]:
    """The PHH fields of one round (see the module docstring), in writing order."""
    from game.rules.variants import start_round

    config = header.config
    deck = record.chance.deck
    round_ = start_round(config, record.chance.replay(), match_state=record.match_state)
    actions = [f"d dh p1 {_cards(deck[2:4])}", f"d dh p2 {_cards(deck[0:2])}"]
    extra: list[str] = []
    board_streets = (3, 4, 5)  # flop, turn, river: PHH deals board cards 3, 1 and 1 of them
    board_cut = (0, 3, 4, 5)
    dealt_streets = 0

    def deal_board_through(street: int) -> None:
        nonlocal dealt_streets
        while (
            dealt_streets < 3
            and board_streets[dealt_streets] <= street
            and len(round_.board) >= board_cut[dealt_streets + 1]
        ):
            cards = round_.board[board_cut[dealt_streets] : board_cut[dealt_streets + 1]]
            actions.append(f"d db {_cards(cards)}")
            dealt_streets += 1

    for index, move in enumerate(record.moves):
        deal_board_through(round_.street)
        kind = move.action.kind
        betting_over = min(round_.stacks) == 0 and round_.pips[0] == round_.pips[1]
        if move.street > RIVER or kind is ActionKind.BID or betting_over:
            extra.append(f"{index} {move}")
        else:
            word = {ActionKind.FOLD: "f", ActionKind.CHECK: "cc", ActionKind.CALL: "cc"}.get(kind)
            actions.append(f"{_player(move.seat)} {word or f'cbr {move.action.amount}'}")
        round_.apply(move.action)
    deal_board_through(RIVER)
    if record.moves and record.moves[-1].action.kind is not ActionKind.FOLD:
        actions += [f"p1 sm {_cards(deck[2:4])}", f"p2 sm {_cards(deck[0:2])}"]
    stack = config.stack
    hand: dict[str, Any] = {
        "variant": "NT",
        "antes": [0, 0],
        "blinds_or_straddles": [config.small_blind, config.big_blind],
        "min_bet": config.big_blind,
        "starting_stacks": [stack, stack],
        "actions": actions,
        "hand": record.round_index + 1,
        "players": [record.seats[1], record.seats[0]],
        "finishing_stacks": [stack + record.payoffs[1], stack + record.payoffs[0]],
        "_vcfr_variant": header.variant,
        "_vcfr_config": asdict(config),
        "_vcfr_match": {
            "players": list(header.players),
            "rounds": header.rounds,
            "duplicate": header.duplicate,
            **({} if header.seed is None else {"seed": header.seed}),
        },
        "_vcfr_round": record.round_index,
        "_vcfr_deal": record.deal_index,
    }
    if record.match_state is not None:
        hand["_vcfr_match_state"] = list(record.match_state)
    if extra:
        hand["_vcfr_moves"] = extra
    if tuple(deck) != tuple(deck[:4]) + tuple(round_.board[:5]):
        hand["_vcfr_deck"] = format_cards(deck)
    if record.chance.events:
        hand["_vcfr_events"] = {name: list(outcomes) for name, outcomes in record.chance.events.items()}
    if record.faults:
        hand["_vcfr_faults"] = [
            {"seat": f.seat, "street": f.street, "problem": f.problem, "replacement": str(f.replacement)}
            for f in record.faults
        ]
    return hand


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_value(value: object) -> str:
    """TOML text of the values a PHH hand holds (str, bool, int, float, list, dict)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(key)} = {_toml_value(item)}" for key, item in value.items()) + "}"
    raise TypeError(f"no PHH (TOML) form for {value!r}")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def dumps_hand(hand: Mapping[str, Any]) -> str:
    """One hand's PHH text (TOML ``key = value`` lines, newline-terminated)."""
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in hand.items())


def dumps_hands(hands: Iterable[Mapping[str, Any]], *, sections: bool = True) -> str:
    """PHH text of several hands: ``.phhs`` tables ``[1]``, ``[2]``... or, ``sections=False``, one bare hand."""
    hands = list(hands)
    if not sections:
        if len(hands) != 1:
            raise ValueError(f"a single-hand PHH file holds exactly one hand, got {len(hands)}")
        return dumps_hand(hands[0])
    return "\n".join(f"[{number}]\n{dumps_hand(hand)}" for number, hand in enumerate(hands, start=1))


class PhhWriter(TextSink):
    """Writes rounds as PHH hands to a path or open text file, like ``HistoryWriter`` for JSON lines.

    Each round becomes a ``.phhs`` table ``[n]``; a one-round history to a ``.phh`` path is one bare hand.
    """

    def __init__(self, destination: str | Path | IO[str], header: HistoryHeader) -> None:
        self._sections = not (
            isinstance(destination, (str, Path)) and Path(destination).suffix.lower() == ".phh" and header.rounds == 1
        )
        super().__init__(destination)
        self._header = header
        self._written = 0

    def write(self, record: RoundRecord) -> None:
        hand = round_to_phh(self._header, record)
        self._written += 1
        if self._sections:
            self._file.write(("\n" if self._written > 1 else "") + f"[{self._written}]\n")
        self._file.write(dumps_hand(hand))


class PhhError(ValueError):
    """A PHH hand that cannot be read; the message names the hand, its line and the field."""


def _section_lines(text: str) -> dict[str, int]:
    """Line number of each ``[name]`` table header in ``text``."""
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$", line)
        if match:
            found[match[1].strip("\"'")] = number
    return found


def read_phh_text(text: str, source: str = "<phh>") -> tuple[HistoryHeader, list[tuple[str, RoundRecord]]]:
    """The history header and rounds (``(where, record)``, ``where`` naming the hand and line) of PHH text.

    The header comes from the first hand's ``_vcfr_variant``/``_vcfr_config``/``_vcfr_match``
    (or a Hold'em config from its NT fields). Raises ``PhhError`` naming the hand, line and field
    of the first problem; the payoffs are the recorded ``finishing_stacks`` (verified by ``replay``).
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"{source}: not PHH (TOML): {error}") from None
    if "variant" in document or "actions" in document:
        hands = [(f"{source} (line 1)", document)]
    else:
        lines = _section_lines(text)
        hands = []
        for name, hand in document.items():
            where = f"{source} hand [{name}] (line {lines.get(name, '?')})"
            if not isinstance(hand, dict):
                raise PhhError(f"{where}: expected a table of hand fields, got {hand!r}")
            hands.append((where, hand))
    if not hands:
        raise PhhError(f"{source}: no hands (expected PHH fields or [1], [2], ... tables)")
    header = _header(*hands[0])
    rounds = [(where, _record(where, header, hand)) for where, hand in hands]
    if "_vcfr_match" not in hands[0][1]:
        header = HistoryHeader(header.variant, header.config, None, header.players, len(rounds), False)
    return header, rounds


def read_phh(path: str | Path) -> tuple[HistoryHeader, list[tuple[str, RoundRecord]]]:
    """``read_phh_text`` of the file at ``path``."""
    return read_phh_text(Path(path).read_text(encoding="utf-8"), str(path))


def _field(where: str, hand: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in hand:
        if default is ...:
            raise PhhError(f"{where}: field {name!r} is missing")
        return default
    value = hand[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise PhhError(f"{where}: field {name!r} = {value!r} is not {getattr(kind, '__name__', kind)}")
    return value


def _int_pair(where: str, hand: Mapping[str, Any], name: str) -> tuple[int, int]:
    value = _field(where, hand, name, list)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise PhhError(f"{where}: field {name!r} = {value!r} is not two chip counts (heads-up)")
    return value[0], value[1]


def _players(
    where: str, table: Mapping[str, Any], name: str = "players", default: Iterable[str] = ("p1", "p2")
) -> tuple[str, str]:
    """Two player names from ``table[name]`` (PHH's ``players``: ``p1`` first, our seat 1)."""
    players = _field(where, table, name, list, list(default))
    if len(players) != 2 or not all(isinstance(player, str) for player in players):
        raise PhhError(f"{where}: field {name!r} = {players!r} is not two player names (heads-up)")
    return players[0], players[1]


def _header(where: str, hand: Mapping[str, Any]) -> HistoryHeader:
    from game.rules.variants import get_variant

    if _field(where, hand, "variant", str) != "NT":
        raise PhhError(f"{where}: field 'variant' = {hand['variant']!r}: only 'NT' (no-limit Texas hold'em) is read")
    try:
        if "_vcfr_variant" in hand:
            variant = get_variant(_field(where, hand, "_vcfr_variant", str))
            config: NoLimitConfig = variant.config_class(**_field(where, hand, "_vcfr_config", dict))
        else:
            small, big = _int_pair(where, hand, "blinds_or_straddles")
            stacks = _int_pair(where, hand, "starting_stacks")
            if stacks[0] != stacks[1] or _int_pair(where, hand, "antes") != (0, 0):
                raise PhhError(f"{where}: fields 'starting_stacks' and 'antes': read only equal stacks and no antes")
            variant = get_variant("holdem")
            config = variant.config_class(stack=stacks[0], small_blind=small, big_blind=big)
    except (TypeError, ValueError) as error:
        if isinstance(error, PhhError):
            raise
        raise PhhError(f"{where}: field '_vcfr_config' (or the blinds and stacks): {error}") from None
    players = _players(where, hand)[::-1]
    match = _field(where, hand, "_vcfr_match", dict, {})
    match_players = _players(where, {"_vcfr_match.players": match.get("players", list(players))}, "_vcfr_match.players")
    seed, rounds, duplicate = match.get("seed"), match.get("rounds", 1), match.get("duplicate", False)
    if not ((seed is None or type(seed) is int) and type(rounds) is int and rounds >= 1 and type(duplicate) is bool):
        raise PhhError(f"{where}: field '_vcfr_match' = {match!r}: expected players, rounds >= 1, duplicate, seed")
    return HistoryHeader(variant.name, config, seed, match_players, rounds, duplicate)


def _record(where: str, header: HistoryHeader, hand: Mapping[str, Any]) -> RoundRecord:
    """One hand as our round record: its PHH moves merged with ``_vcfr_moves``, replayed in the rules
    to tell a check from a call."""
    from game.rules.variants import start_round

    config = header.config
    if _int_pair(where, hand, "blinds_or_straddles") != (config.small_blind, config.big_blind) or _int_pair(
        where, hand, "starting_stacks"
    ) != (config.stack, config.stack):
        raise PhhError(
            f"{where}: fields 'blinds_or_straddles'/'starting_stacks' do not match the variant's "
            f"blinds {config.small_blind}/{config.big_blind} and stack {config.stack}"
        )
    holes: dict[int, list[int]] = {}
    board: list[int] = []
    betting: list[tuple[int, str, str]] = []  # (action number, player, PHH action)
    for number, text in enumerate(_field(where, hand, "actions", list), start=1):
        words = str(text).split("#")[0].split()
        try:
            match words:
                case ["d", "dh", ("p1" | "p2") as player, cards]:
                    holes[2 - int(player[1])] = [int(c) for c in parse_cards(cards)]
                case ["d", "db", cards]:
                    board += [int(c) for c in parse_cards(cards)]
                case [("p1" | "p2"), ("f" | "cc")] | [("p1" | "p2"), "cbr", _]:
                    betting.append((number, words[0], " ".join(words[1:])))
                case [("p1" | "p2"), "sm", *_] | []:
                    pass
                case _:
                    raise ValueError("not a heads-up NT action (d dh, d db, pK f/cc/cbr N/sm)")
        except ValueError as error:
            raise PhhError(f"{where}: field 'actions' item {number} {text!r}: {error}") from None
    if sorted(holes) != [0, 1] or any(len(cards) != 2 for cards in holes.values()):
        raise PhhError(f"{where}: field 'actions': expected 'd dh p1 <2 cards>' and 'd dh p2 <2 cards>'")
    deck_text = _field(where, hand, "_vcfr_deck", str, None)
    try:
        deck = [int(c) for c in parse_cards(deck_text)] if deck_text else holes[0] + holes[1] + board
        events = {name: list(o) for name, o in _field(where, hand, "_vcfr_events", dict, {}).items()}
        match_state = _field(where, hand, "_vcfr_match_state", list, None)
        round_ = start_round(
            config, ScriptedChance(deck, events), match_state=None if match_state is None else tuple(match_state)
        )
    except (TypeError, ValueError) as error:
        raise PhhError(f"{where}: fields '_vcfr_deck'/'_vcfr_events'/'_vcfr_match_state': {error}") from None
    extra: dict[int, tuple[str, str]] = {}
    for text in _field(where, hand, "_vcfr_moves", list, []):
        index, _, move = str(text).partition(" ")
        seat, _, action = move.partition(":")
        if not index.isdigit() or seat not in ("0", "1"):
            raise PhhError(f"{where}: field '_vcfr_moves' item {text!r} is not '<index> <seat>:<action>'")
        extra[int(index)] = (seat, action)
    pending = list(betting)
    while pending or extra:
        index = len(round_.history)
        if index in extra:
            seat, text = extra.pop(index)
            label = f"field '_vcfr_moves' item '{index} {seat}:{text}'"
        elif pending:
            number, player, text = pending.pop(0)
            seat = str(2 - int(player[1]))
            label = f"field 'actions' item {number} '{player} {text}'"
        else:
            raise PhhError(f"{where}: field '_vcfr_moves': no move {index} (items {sorted(extra)} are left)")
        if round_.is_terminal or seat != str(round_.to_act):
            actor = "nobody" if round_.is_terminal else _player(round_.to_act)  # type: ignore[arg-type]
            raise PhhError(f"{where}: {label}: {actor} is to act")
        try:
            if text == "cc":
                action = Action.call() if ActionKind.CALL in round_.legal_actions() else Action.check()
            elif text == "f":
                action = Action.fold()
            elif text.startswith("cbr "):
                action = Action.raise_to(int(text[4:]))
            else:
                action = Action.parse(text)
            round_.apply(action)
        except (IllegalActionError, ValueError) as error:
            raise PhhError(f"{where}: {label}: {error}") from None
    if not round_.is_terminal:
        raise PhhError(f"{where}: field 'actions': the round is not over after its moves: {round_!r}")
    if deck_text and (deck[0:4] != holes[0] + holes[1] or list(round_.board[: len(board)]) != board):
        raise PhhError(f"{where}: field 'actions': its 'd dh'/'d db' cards disagree with '_vcfr_deck'")
    stacks = _field(where, hand, "finishing_stacks", list, None)
    if stacks is None:
        payoffs = tuple(int(p) for p in round_.payoffs())
    else:
        if len(stacks) != 2 or not all(isinstance(s, int) for s in stacks):
            raise PhhError(f"{where}: field 'finishing_stacks' = {stacks!r} is not two chip counts")
        payoffs = (stacks[1] - config.stack, stacks[0] - config.stack)
    round_index = _field(where, hand, "_vcfr_round", int, _field(where, hand, "hand", int, 1) - 1)
    players = _players(where, hand)
    try:
        faults = tuple(
            Fault(
                round_index,
                seat,
                players[1 - seat],
                int(f["street"]),
                str(f["problem"]),
                Action.parse(f["replacement"]),
            )
            for f in _field(where, hand, "_vcfr_faults", list, [])
            for seat in [(0, 1).index(f["seat"])]
        )
    except (KeyError, TypeError, ValueError) as error:
        raise PhhError(f"{where}: field '_vcfr_faults': {error!r}") from None
    return RoundRecord(
        round_index=round_index,
        deal_index=_field(where, hand, "_vcfr_deal", int, round_index),
        seats=(players[1], players[0]),
        match_state=None if match_state is None else (int(match_state[0]), int(match_state[1])),
        chance=round_.chance_log,
        moves=round_.history,
        payoffs=(int(payoffs[0]), int(payoffs[1])),
        faults=faults,
    )
