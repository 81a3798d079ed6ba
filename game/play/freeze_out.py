"""N-player limit freeze-out: games of `game.rules.limit.LimitRound` until one player holds every chip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.cards.rng import SeedLike, as_generator
from game.rules.actions import Bot, Move
from game.rules.chance import RandomChance
from game.rules.limit import LimitConfig, LimitRound


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a freeze-out. ``players`` maps seat -> player index."""

    game_index: int
    players: tuple[int, ...]
    button: int
    """Seat of the button (index into ``players``)."""
    starting_stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    """Chips won per seat."""
    hole_cards: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    history: tuple[Move, ...]


class FreezeOut:
    """Play games until one player holds every chip, the button moving clockwise each game.

    ``bots[i]`` plays player ``i``; players sit in that order and start with ``config.buy_in``
    (``config.n_players`` must equal ``len(bots)``). A player with no chips left is eliminated;
    the button passes to the next surviving player clockwise. ``seed`` drives all the cards. A bot
    returning an illegal action raises ``IllegalActionError`` (that game is abandoned, stacks kept).

    >>> from game.rules.actions import Action
    >>> class Caller:
    ...     name = "caller"
    ...     def act(self, observation):
    ...         moves = observation.legal_moves
    ...         return next((m for m in moves if m.kind.name in ("CHECK", "CALL", "ANNOUNCE")), moves[-1])
    >>> match = FreezeOut(LimitConfig(n_players=3, buy_in=60), [Caller(), Caller(), Caller()], seed=3)
    >>> result = match.run()
    >>> sorted(match.stacks), match.winner is not None
    ([0, 0, 180], True)
    """

    def __init__(self, config: LimitConfig, bots: Sequence[Bot], *, seed: SeedLike = None, button: int = 0) -> None:
        if len(bots) != config.n_players:
            raise ValueError(f"config.n_players is {config.n_players} but {len(bots)} bots were given")
        if not 0 <= button < len(bots):
            raise ValueError(f"button must be a player 0..{len(bots) - 1}, got {button!r}")
        self.config = config
        self.bots = list(bots)
        self.stacks = [config.buy_in] * len(bots)
        """Chips per player (0 once eliminated)."""
        self.button_player = button
        self.records: list[GameRecord] = []
        self._rng = as_generator(seed)

    @property
    def survivors(self) -> list[int]:
        """Players with chips, in seat order."""
        return [player for player, chips in enumerate(self.stacks) if chips > 0]

    @property
    def winner(self) -> int | None:
        """The player holding every chip, once the freeze-out is over."""
        survivors = self.survivors
        return survivors[0] if len(survivors) == 1 else None

    def play_game(self) -> GameRecord:
        """Play one game among the surviving players and move the button."""
        players = self.survivors
        if len(players) < 2:
            raise ValueError(f"the freeze-out is over: player {self.winner} holds every chip")
        game = LimitRound(
            self.config,
            [self.stacks[player] for player in players],
            players.index(self.button_player),
            chance=RandomChance(self._rng),
        )
        while (seat := game.to_act) is not None:
            game.apply(self.bots[players[seat]].act(game.observation(seat)))
        for seat, player in enumerate(players):
            self.stacks[player] = game.stacks[seat]
        record = GameRecord(
            game_index=len(self.records),
            players=tuple(players),
            button=game.button,
            starting_stacks=game.starting_stacks,
            payoffs=tuple(int(chips) for chips in game.payoffs()),
            hole_cards=tuple(game.hole_cards),
            board=tuple(game.board),
            history=tuple(game.history),
        )
        self.records.append(record)
        if self.winner is None:
            clockwise = [(self.button_player + offset) % len(self.stacks) for offset in range(1, len(self.stacks))]
            self.button_player = next(player for player in clockwise if self.stacks[player] > 0)
        return record

    def run(self, max_games: int = 100_000) -> list[GameRecord]:
        """Play until one player has every chip (or ``max_games`` games); returns the records."""
        if max_games < 1:
            raise ValueError(f"max_games must be >= 1, got {max_games}")
        while self.winner is None and len(self.records) < max_games:
            self.play_game()
        return self.records
