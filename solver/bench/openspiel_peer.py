"""OpenSpiel's C++ solvers behind the same small interface as ours, for benchmarks.

OpenSpiel (``pyspiel``, the optional ``openspiel`` or ``bench`` extra) is imported lazily: without
it, building a peer raises :class:`PeerUnavailableError` saying how to install it. The peer solves OpenSpiel's own
``kuhn_poker`` / ``leduc_poker`` (the rules our Kuhn and Leduc follow), and measures
exploitability with ``pyspiel.exploitability`` (NashConv / 2, in chips), the same unit as
``solver.evaluate.exploitability``.
"""

from __future__ import annotations

from typing import Any

from solver.games.openspiel_adapter import OpenSpielUnavailableError, load_pyspiel

OPENSPIEL_GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
PEER_ALGORITHMS = ("cfr", "cfr+", "es-mccfr", "os-mccfr")
PeerUnavailableError = OpenSpielUnavailableError
"""OpenSpiel is not installed (the adapter's error: one lazy import for the peer and the adapter)."""


class OpenSpielSolver:
    """One OpenSpiel C++ solver on Kuhn or Leduc, driven like ``solver.solve.cfr.Solver``.

    ``algorithm`` is one of ``cfr``, ``cfr+`` (full traversals), ``es-mccfr``, ``os-mccfr``
    (sampling; ``seed`` seeds OpenSpiel's own generator).

    >>> OpenSpielSolver("holdem", "cfr+")
    Traceback (most recent call last):
    ...
    ValueError: game must be one of ['kuhn', 'leduc'], got 'holdem'
    """

    def __init__(self, game: str, algorithm: str, seed: int = 0) -> None:
        if game not in OPENSPIEL_GAMES:
            raise ValueError(f"game must be one of {sorted(OPENSPIEL_GAMES)}, got {game!r}")
        if algorithm not in PEER_ALGORITHMS:
            raise ValueError(f"algorithm must be one of {PEER_ALGORITHMS}, got {algorithm!r}")
        pyspiel = load_pyspiel()
        self.game_name = game
        self.algorithm = algorithm
        self.iteration = 0
        self._pyspiel = pyspiel
        self._game = pyspiel.load_game(OPENSPIEL_GAMES[game])
        self._solver: Any
        if algorithm == "cfr":
            self._solver = pyspiel.CFRSolver(self._game)
        elif algorithm == "cfr+":
            self._solver = pyspiel.CFRPlusSolver(self._game)
        elif algorithm == "es-mccfr":
            self._solver = pyspiel.ExternalSamplingMCCFRSolver(self._game, seed=seed)
        else:
            self._solver = pyspiel.OutcomeSamplingMCCFRSolver(self._game, seed=seed)

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more iterations."""
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        step = (
            self._solver.evaluate_and_update_policy if self.algorithm in ("cfr", "cfr+") else self._solver.run_iteration
        )
        for _ in range(iterations):
            step()
        self.iteration += iterations

    def exploitability(self) -> float:
        """Exploitability of the average strategy in chips (OpenSpiel's NashConv / 2)."""
        return float(self._pyspiel.exploitability(self._game, self._solver.average_policy()))
