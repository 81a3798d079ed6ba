"""What every round state machine shares: the verify / can_apply / apply triad and the common state views.

``RoundBase`` is the base of ``game.rules.nolimit.NoLimitRound`` (heads-up no-limit, every Pokerbots
variant) and ``game.rules.limit.LimitRound`` (N-player limit). A subclass keeps its state in
``_street`` (board cards dealt), ``_to_act`` (seat or ``None``), ``_board`` (card ints) and
``_history`` (``game.rules.actions.Move`` records), and implements ``verify(action)``, which raises
``IllegalActionError`` (``TypeError`` for a non-``Action``) unless the action is legal now.

>>> from game.rules.actions import Action
>>> from game.rules.chance import RandomChance
>>> from game.rules.holdem import HoldemConfig, HoldemRound
>>> round_ = HoldemRound(HoldemConfig(), RandomChance(0))
>>> round_.can_apply(Action.call()), round_.can_apply(Action.check()), round_.can_apply("C")
(True, False, False)
"""

from __future__ import annotations

from game.rules.actions import Action, IllegalActionError, Move


class RoundBase:
    """The state views and the ``can_apply`` test every round has (see the module docstring)."""

    __slots__ = ()

    _street: int
    _to_act: int | None
    _board: list[int]
    _history: list[Move]

    @property
    def street(self) -> int:
        """Board cards dealt: 0 preflop, 3 flop, 4 turn, 5 river (also at the showdown); 6, 7, ... run streets."""
        return self._street

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` once the round is over."""
        return self._to_act

    @property
    def board(self) -> tuple[int, ...]:
        """The board cards, in deal order."""
        return tuple(self._board)

    @property
    def history(self) -> tuple[Move, ...]:
        """Every action in order, as ``Move(seat, street, action)``; forced antes and blinds are not actions."""
        return tuple(self._history)

    def verify(self, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal now (``TypeError`` if not an Action)."""
        raise NotImplementedError(f"{type(self).__name__} must implement verify")

    def can_apply(self, action: Action) -> bool:
        """Whether ``apply(action)`` would succeed."""
        try:
            self.verify(action)
        except (IllegalActionError, TypeError):
            return False
        return True

    @staticmethod
    def _check_is_action(action: object) -> None:
        """``TypeError`` naming ``action`` unless it is a ``game.rules.actions.Action``."""
        if not isinstance(action, Action):
            raise TypeError(f"expected an Action, got {action!r}")
