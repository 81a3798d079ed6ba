"""Fuzz the heads-up no-limit engines: N random rounds per variant and rule set, invariants checked.

Each round is played by random legal actions (a uniform kind, folds down-weighted so that most
rounds see later streets, a uniform raise-to or bid); before each action an attempted action of
a random kind and amount is also tried, and if illegal it must raise ``IllegalActionError``
and leave the round unchanged. Checked after every step: no negative stack, stack +
contribution = starting stack, terminal iff no legal action; at the end payoffs sum to zero,
and one round in 100 is replayed from its chance log to the same payoffs. Writes a JSON summary.

    .venv/bin/python experiments/engine_fuzz.py --rounds 100000 --out results/engine_fuzz.json
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import harness
import numpy as np

from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.chance import RandomChance
from game.rules.nolimit import NoLimitRound, sample_legal_action
from game.rules.variants import VARIANTS

FOLD_KEEP_PROBABILITY = 0.25
"""When fold is legal with alternatives, a sampled fold is kept with this probability."""
ATTEMPT_KINDS = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE, ActionKind.BID)


class FuzzFailure(AssertionError):
    """An invariant broke; the message names the variant, rules, round and state."""


def _light_state(round_: NoLimitRound) -> tuple:
    return (round_.street, round_.to_act, round_.pips, round_.stacks, round_.hole_cards, len(round_.history))


def _check(condition: bool, round_: NoLimitRound, what: str) -> None:
    if not condition:
        raise FuzzFailure(f"{what}: {round_!r}")


def _play_round(round_: NoLimitRound, rng: np.random.Generator) -> None:
    stack = round_.config.stack
    while True:
        stacks, contributions = round_.stacks, round_.contributions
        _check(min(stacks) >= 0, round_, "negative stack")
        _check(stacks[0] + contributions[0] == stack and stacks[1] + contributions[1] == stack, round_, "chips lost")
        legal = round_.legal_actions()
        _check(round_.is_terminal == (not legal), round_, "terminal iff no legal action")
        if not legal:
            return
        kind = ATTEMPT_KINDS[int(rng.integers(len(ATTEMPT_KINDS)))]
        attempt = Action(kind, int(rng.integers(0, 2 * stack + 1)) if kind in (ActionKind.RAISE, ActionKind.BID) else 0)
        if not round_.can_apply(attempt):
            before = _light_state(round_)
            try:
                round_.apply(attempt)
            except IllegalActionError:
                pass
            else:
                raise FuzzFailure(f"illegal {attempt} accepted: {round_!r}")
            _check(_light_state(round_) == before, round_, f"refused {attempt} changed the round")
        action = sample_legal_action(round_, rng)
        if action.kind is ActionKind.FOLD and len(legal) > 1 and rng.random() > FOLD_KEEP_PROBABILITY:
            action = sample_legal_action(round_, rng)
            while action.kind is ActionKind.FOLD:
                action = sample_legal_action(round_, rng)
        round_.apply(action)


def fuzz_variant(name: str, rules: str, rounds: int, seed: int) -> dict:
    """Play ``rounds`` random rounds of variant ``name`` under ``rules``; return summary statistics."""
    variant = VARIANTS[name]
    config = variant.config_class(rules=rules)
    rng = np.random.default_rng(seed)
    match_state = None
    actions = showdowns = replays = 0
    streets: Counter[int] = Counter()
    largest_win = 0
    total_abs = 0
    hole_card_counts: Counter[int] = Counter()
    start = time.perf_counter()
    for index in range(rounds):
        match_state = variant.round_class.next_match_state(config, index, match_state, rng)
        round_ = variant.round_class(config, RandomChance(rng), match_state=match_state)
        _play_round(round_, rng)
        payoffs = round_.payoffs().tolist()
        _check(payoffs[0] + payoffs[1] == 0, round_, f"payoffs {payoffs} do not sum to zero")
        if index % 100 == 0:
            replay = variant.round_class(config, round_.chance_log.replay(), match_state=match_state)
            for move in round_.history:
                replay.apply(move.action)
            _check(replay.payoffs().tolist() == payoffs, round_, "chance-log replay gave other payoffs")
            replays += 1
        actions += len(round_.history)
        showdowns += round_.observation(0).opponent_hole_cards != ()
        streets[round_.street] += 1
        hole_card_counts[len(round_.hole_cards[0]) + len(round_.hole_cards[1])] += 1
        largest_win = max(largest_win, abs(payoffs[0]))
        total_abs += abs(payoffs[0])
    seconds = time.perf_counter() - start
    return {
        "variant": name,
        "rules": rules,
        "rounds": rounds,
        "seed": seed,
        "actions": actions,
        "showdowns": showdowns,
        "replayed": replays,
        "final_street_counts": {str(street): count for street, count in sorted(streets.items())},
        "total_hole_cards_counts": {str(count): n for count, n in sorted(hole_card_counts.items())},
        "largest_win_chips": largest_win,
        "mean_abs_payoff_chips": total_abs / rounds,
        "seconds": round(seconds, 2),
        "rounds_per_second_with_checks": round(rounds / seconds, 1),
    }


def run_fuzz(rounds: int, seed: int) -> dict:
    """Fuzz every variant under both rule sets; ``FuzzFailure`` on the first broken invariant."""
    results = []
    for offset, name in enumerate(sorted(VARIANTS)):
        for rules_index, rules in enumerate(("document", "engine")):
            results.append(fuzz_variant(name, rules, rounds, seed + 2 * offset + rules_index))
    return {
        "machine": harness.machine(cores_used=1),
        "invariants": [
            "no negative stack",
            "stack + contribution == starting stack (chips conserved)",
            "terminal iff no legal action",
            "random illegal attempts raise IllegalActionError and change nothing",
            "payoffs sum to zero",
            "every 100th round replays from its chance log to the same payoffs",
        ],
        "all_passed": True,
        "results": results,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds per variant and rule set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results/engine_fuzz.json"))
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be >= 1, got {args.rounds}")
    command = harness.command_line(__file__, argv, python="python")
    summary = harness.write_results(args.out.with_suffix(""), run_fuzz(args.rounds, args.seed), None, command)
    for row in summary["results"]:
        print(
            f"{row['variant']:>15} {row['rules']:>8}: {row['rounds']} rounds, {row['showdowns']} showdowns, "
            f"{row['rounds_per_second_with_checks']:.0f} rounds/s with checks"
        )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
