"""The official engines' game logs (2022-2025) read back as our round records, so as hand histories.

An engine writes ``gamelog.txt``: per round ``Round #N, A (bankroll), B (bankroll)``, the blinds
(the small blind is the dealer, our seat 0), both players' hole cards, every action (``folds``,
``checks``, ``calls``, ``bets N``, ``raises to N``; 2024 ``bids N``), each street's whole board
(``Flop [..]``, ``Turn``, ``River``; 2023 ``Run``), and ``awarded`` chips. What a year adds:
2022 both hands after the flop's and turn's swaps (``A's hand: [..]``), 2024 the auction's third
cards (``A won the auction and was dealt [..]``), 2025 the bounty ranks when they are drawn
(``Bounties reset to R for player A and R for player B``). Other lines (shows, bounty hits, run
summaries, bids, illegal actions and timeouts, whose replacement action the log records after
them) carry nothing a round needs.

:func:`read_game_log` rebuilds each round in our rules module under the year's engine rules
(``game.rules.variants``, ``rules="engine"``): the cards go into a scripted deck in our deal order
(``game.rules.nolimit``: Swap's events and replacements are read off the hands before and after
each swap), the logged actions are applied, and the engine's ``awarded`` chips must equal our
payoffs, else a ValueError names the round and its line. The records then write as JSON lines or
PHH like a match of ours (``vcfr convert-history gamelog.txt out.phhs --engine 2025``).

>>> text = '''6.9630 MIT Pokerbots - A vs B
...
... Round #1, A (0), B (0)
... Bounties reset to 3 for player A and 7 for player B
... A posts the blind of 1
... B posts the blind of 2
... A dealt [Ah Kd]
... B dealt [2c 7d]
... A raises to 6
... B folds
... A awarded 2
... B awarded -2
... '''
>>> header, records = read_game_log(text, "bounty")
>>> header.variant, records[0].match_state, [str(move) for move in records[0].moves], records[0].payoffs
('bounty', (1, 5), ['0:R6', '1:F'], (2, -2))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.cards.deck import RANKS, parse_cards
from game.play.history import HistoryHeader, RoundRecord
from game.pokerbots.engines import EngineRules, engine_rules
from game.rules.actions import Action, IllegalActionError
from game.rules.chance import ScriptedChance

GAME_LOG_TITLE = re.compile(r"^\S+ MIT Pokerbots - (\S+) vs (\S+)\s*$")
"""The first line of an engine game log (version, then the two players' names)."""
ROUND_LINE = re.compile(r"^Round #(\d+), (\S+) \((-?\d+)\), (\S+) \((-?\d+)\)")
BLIND_LINE = re.compile(r"^(\S+) posts the blind of (\d+)$")
DEALT_LINE = re.compile(r"^(\S+) dealt \[([^\]]*)\]$")
STREET_LINE = re.compile(r"^(Flop|Turn|River|Run) \[([^\]]*)\]")
HAND_LINE = re.compile(r"^(\S+)'s hand: \[([^\]]*)\]$")
AUCTION_LINE = re.compile(r"^(\S+) won the auction and was dealt \[([^\]]*)\]$")
BOUNTIES_LINE = re.compile(r"^Bounties reset to (\S+) for player (\S+) and (\S+) for player (\S+)$")
ACTION_LINE = re.compile(r"^(\S+) (folds|checks|calls|bets \d+|raises to \d+|bids \d+)$")
AWARDED_LINE = re.compile(r"^(\S+) (?:\(swapped\) )?awarded (-?\d+)$")
"""The engines' game-log lines, one pattern each (all four years write them alike; the round and
street patterns match the line's start only: a street line goes on with each player's chips)."""


def is_game_log(text: str) -> bool:
    """Whether ``text`` starts like an engine game log (``... MIT Pokerbots - A vs B``)."""
    return bool(GAME_LOG_TITLE.match(text.split("\n", 1)[0]))


@dataclass
class _LoggedRound:
    """One round's lines, as read (cards as ints; actions by player name)."""

    number: int
    line: int
    seats: list[str] = field(default_factory=list)
    holes: dict[str, list[int]] = field(default_factory=dict)
    board: list[int] = field(default_factory=list)
    swaps: list[tuple[list[bool], list[int]]] = field(default_factory=list)
    """Per swap street (flop, turn): each hole card's swap event in our order, the replacement cards."""
    hands_seen: dict[str, list[int]] = field(default_factory=dict)
    """Each player's hand before the next swap street."""
    hands_after: dict[str, list[int]] = field(default_factory=dict)
    """The ``X's hand`` lines of the swap street being read."""
    thirds: dict[str, int] = field(default_factory=dict)
    actions: list[tuple[str, Action, int]] = field(default_factory=list)
    awarded: dict[str, int] = field(default_factory=dict)
    bounties: tuple[int, int] | None = None


def _parse(text: str) -> tuple[tuple[str, str], list[_LoggedRound]]:
    lines = text.splitlines()
    title = GAME_LOG_TITLE.match(lines[0]) if lines else None
    if title is None:
        raise ValueError("not an engine game log: the first line is not '<version> MIT Pokerbots - <A> vs <B>'")
    players = (title[1], title[2])
    rounds: list[_LoggedRound] = []
    bounty_of: dict[str, int] = {}
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        current = rounds[-1] if rounds else None
        if match := ROUND_LINE.match(line):
            rounds.append(_LoggedRound(int(match[1]), number))
        elif current is None:
            continue
        elif match := BOUNTIES_LINE.match(line):
            bounty_of = {match[2]: RANKS.index(match[1]), match[4]: RANKS.index(match[3])}
        elif match := BLIND_LINE.match(line):
            current.seats.append(match[1])
            if len(current.seats) == 2 and bounty_of:
                current.bounties = (bounty_of[current.seats[0]], bounty_of[current.seats[1]])
        elif match := DEALT_LINE.match(line):
            current.holes[match[1]] = parse_cards(match[2]).tolist()
            current.hands_seen[match[1]] = list(current.holes[match[1]])
        elif match := STREET_LINE.match(line):
            current.board = parse_cards(match[2]).tolist()
        elif match := HAND_LINE.match(line):
            _swap(current, match[1], parse_cards(match[2]).tolist())
        elif match := AUCTION_LINE.match(line):
            current.thirds[match[1]] = int(parse_cards(match[2])[0])
        elif match := ACTION_LINE.match(line):
            current.actions.append((match[1], _action(match[2]), number))
        elif match := AWARDED_LINE.match(line):
            current.awarded[match[1]] = int(match[2])
    return players, rounds


def _swap(current: _LoggedRound, name: str, hand: list[int]) -> None:
    """A 2022 ``X's hand`` line: once both hands of a street are in, one swap street (events, cards)."""
    pending = current.hands_after
    pending[name] = hand
    if len(pending) < 2:
        return
    events, replacements = [], []
    for seat_name in current.seats:
        old, new = current.hands_seen[seat_name], pending[seat_name]
        for before, after in zip(old, new, strict=True):
            events.append(before != after)
            if before != after:
                replacements.append(after)
        current.hands_seen[seat_name] = list(new)
    current.swaps.append((events, replacements))
    current.hands_after = {}


def _action(text: str) -> Action:
    word, _, amount = text.rpartition(" ")
    if text == "folds":
        return Action.fold()
    if text == "checks":
        return Action.check()
    if text == "calls":
        return Action.call()
    if word == "bids":
        return Action.parse(f"A{amount}")
    return Action.parse(f"R{amount}")


def _deck(logged: _LoggedRound) -> tuple[list[int], dict[str, list[bool]]]:
    """Every card of the round in our deal order (`game.rules.nolimit`), and Swap's events."""
    seat0, seat1 = logged.seats
    deck = logged.holes[seat0] + logged.holes[seat1] + logged.board[:3]
    events: list[bool] = []
    if logged.swaps:
        events += logged.swaps[0][0]
        deck += logged.swaps[0][1]
    deck += [logged.thirds[name] for name in (seat0, seat1) if name in logged.thirds]
    deck += logged.board[3:4]
    if len(logged.swaps) > 1:
        events += logged.swaps[1][0]
        deck += logged.swaps[1][1]
    deck += logged.board[4:]
    return deck, ({"swap": events} if events else {})


def read_game_log(text: str, engine: str | int | EngineRules) -> tuple[HistoryHeader, list[RoundRecord]]:
    """The rounds of an engine game log as a history (header and records); ``engine`` is the year or
    variant (``engine_rules``). ValueError naming the round and line where the log is not one of
    that engine's or a round does not replay to the logged ``awarded`` chips."""
    from game.rules.variants import get_variant, start_round

    rules = engine if isinstance(engine, EngineRules) else engine_rules(engine)
    players, logged_rounds = _parse(text)
    variant = get_variant(rules.variant)
    config = variant.config_class(rules="engine")
    records = []
    for index, logged in enumerate(logged_rounds):
        where = f"round #{logged.number} (line {logged.line})"
        if len(logged.seats) != 2 or set(logged.holes) != set(logged.seats):
            raise ValueError(f"{where}: expected both blinds and both players' hole cards")
        if rules.variant == "bounty" and logged.bounties is None:
            raise ValueError(f"{where}: no 'Bounties reset' line before it: the bounty ranks are unknown")
        if rules.variant != "bounty" and logged.bounties is not None:
            raise ValueError(f"{where}: bounty ranks in a {rules.year} ({rules.variant}) game log")
        deck, events = _deck(logged)
        round_ = start_round(config, ScriptedChance(deck, events or None), match_state=logged.bounties)
        for name, action, number in logged.actions:
            seat = logged.seats.index(name) if name in logged.seats else -1
            if seat != round_.to_act:
                raise ValueError(f"{where}, line {number}: {name} acts, but it is seat {round_.to_act}'s turn")
            try:
                round_.apply(action)
            except (IllegalActionError, ValueError) as error:  # illegal, or the log lacks a card or swap
                raise ValueError(f"{where}, line {number}: {error}") from None
        if not round_.is_terminal:
            raise ValueError(f"{where}: the logged actions end before the round does")
        payoffs = tuple(int(chips) for chips in round_.payoffs())
        awarded = tuple(logged.awarded.get(name) for name in logged.seats)
        if awarded != payoffs:
            raise ValueError(f"{where}: the engine awarded {awarded} (dealer first), our rules pay {payoffs}")
        records.append(
            RoundRecord(
                round_index=index,
                deal_index=index,
                seats=(logged.seats[0], logged.seats[1]),
                match_state=logged.bounties,
                chance=round_.chance_log,
                moves=tuple(round_.history),
                payoffs=(payoffs[0], payoffs[1]),
            )
        )
    header = HistoryHeader(rules.variant, config, None, players, len(records), False)
    return header, records


__all__ = ["GAME_LOG_TITLE", "is_game_log", "read_game_log"]
