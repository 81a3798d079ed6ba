"""Card abstraction quality, measured: solve abstracted small-deck hold'em, score it in the unabstracted game.

Run: ``.venv/bin/python experiments/abstraction_quality.py`` (12 cards J Q K A x 3 suits, 400 CFR+
iterations; about six minutes on a loaded 2-core machine) and, for a deck with flushes and straights,
``... --ranks 9TJQKA --suits hs --iterations 300 --stem abstraction_quality_9TJQKA_hs`` (about
twenty minutes). ``--render-only`` rewrites the tables and verdicts from a run's JSON. The game
(`abstraction.exact.small_deck`) is fixed-limit hold'em on a small deck: two hole cards each, a three-card
flop, raises of 2 then 4 chips, at most 2 per street, ante 1. Its exact buckets are every real view
up to suit isomorphism (lossless). Each abstraction clusters every street's views
(`abstraction.exact.deal_features`): k-means on E[HS] (``ehs``), on (E[HS], E[HS²]) (``ehs2``), k-means
under the earth mover's distance on the distribution of final hand strength (``emd``,
distribution/potential-aware), k-means on opponent cluster hand strength (``ochs``: equity against
each preflop class of the opponent), or ``emd`` preflop with ``ochs`` on the flop (``emd+ochs``, the
pairing of Johanson et al. 2013). The abstract game (same betting tree, clustered buckets) is solved
with CFR+, the abstract strategy is lifted to the exact game (`abstraction.exact.lifting`) and its
exploitability is measured there exactly (`solver.evaluate.exploitability`), in mbb/hand with the 1-chip ante
as the big blind.

Series: ``reference`` (the exact game itself, and the no-card-information abstraction 1/1);
``joint`` (both streets clustered, every method, several bucket counts); ``preflop`` (only the
preflop clustered, the flop lossless: where ehs, ehs2 and emd differ, since on the last street
E[HS²] and the HS distribution carry nothing beyond E[HS]); ``flop`` (only the flop clustered, by
E[HS] or OCHS). ``asked`` is the bucket counts requested; fewer come out when a street has fewer
distinct feature values (the flop has few distinct E[HS] values on a small deck). Outputs:
``results/abstraction_quality.csv``, ``.md`` (table and verdicts) and ``.json`` (rows, command, settings).
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

import harness
import numpy as np

from abstraction.exact.deal_features import METHODS, bucket_features, build_abstraction
from abstraction.exact.lifting import CardAbstraction, abstract_game, lift_strategy
from abstraction.exact.small_deck import build_small_deck_game
from abstraction.tree import SolverGame
from game.cards.evaluator import CATEGORY_NAMES, category_index, evaluate_batch
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import Solver

RESULTS = harness.ROOT / "results"
JOINT_COUNTS = ((2, 8), (4, 32), (8, 128))
PREFLOP_COUNTS = (2, 4, 8)
FLOP_COUNTS = (8, 32, 128)


def measure(
    game: SolverGame, abstraction: CardAbstraction, series: str, method: str, asked: tuple[int, ...], iterations: int
) -> dict[str, Any]:
    """Solve the abstract game with CFR+ and score the lifted strategy in ``game`` at half and all ``iterations``."""
    clock = harness.Stopwatch()
    abstract = abstract_game(game, abstraction)
    solver = Solver(abstract, algorithm="cfr+").run(iterations // 2)
    half = exploitability(game, lift_strategy(game, abstraction, solver.average_strategy())).exploitability_mbb
    solver.run(iterations - iterations // 2)
    full = exploitability(game, lift_strategy(game, abstraction, solver.average_strategy())).exploitability_mbb
    counts = abstraction.n_buckets.tolist()
    return {
        "series": series,
        "method": method,
        "asked": "/".join(str(k) for k in asked),
        "buckets_preflop": counts[0],
        "buckets_flop": counts[1],
        "abstract_infosets": abstract.tree.n_infosets,
        "abstract_deals": abstract.deals.n_deals,
        "exploitability_mbb": round(full, 2),
        "at_half_iterations_mbb": round(half, 2),
        "seconds": round(clock.seconds, 1),
    }


JOINT_METHODS: tuple[str | tuple[str, str], ...] = (*METHODS, ("emd", "ochs"))


def method_label(method: str | tuple[str, str]) -> str:
    return method if isinstance(method, str) else "+".join(method)


def plans(exact_counts: list[int]) -> list[tuple[str, str | tuple[str, str], tuple[int, int]]]:
    """``(series, method, bucket counts)`` of every row after the exact reference."""
    rows: list[tuple[str, str | tuple[str, str], tuple[int, int]]] = [("reference", "none", (1, 1))]
    rows += [("joint", method, counts) for counts in JOINT_COUNTS for method in JOINT_METHODS]
    rows += [("preflop", method, (k, exact_counts[1])) for k in PREFLOP_COUNTS for method in METHODS]
    rows += [("flop", method, (exact_counts[0], k)) for k in FLOP_COUNTS for method in ("ehs", "ochs")]
    return rows


def finer_verdicts(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(answer, text)`` per series and method: does exploitability never rise as buckets grow?"""
    out = []
    for series in ("joint", "preflop", "flop"):
        for method in dict.fromkeys(r["method"] for r in rows if r["series"] == series):
            chain = sorted(
                (r for r in rows if r["series"] == series and r["method"] == method),
                key=lambda r: (r["buckets_preflop"], r["buckets_flop"]),
            )
            values = [r["exploitability_mbb"] for r in chain]
            sizes = [f"{r['buckets_preflop']}/{r['buckets_flop']}" for r in chain]
            answer = "yes" if all(b <= a for a, b in itertools.pairwise(values)) else "no"
            out.append(
                (
                    answer,
                    f"{series} series, {method} ({' -> '.join(f'{v:g}' for v in values)} mbb/hand "
                    f"with {' -> '.join(sizes)} preflop/flop buckets)",
                )
            )
    return out


def potential_verdicts(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(answer, text)`` per series and preflop bucket count: does emd beat both ehs and ehs2?"""
    out = []
    for series in ("preflop", "joint"):
        groups: dict[int, dict[str, float]] = {}
        for r in rows:
            if r["series"] == series:
                groups.setdefault(r["buckets_preflop"], {})[r["method"]] = r["exploitability_mbb"]
        for count, scores in sorted(groups.items()):
            if not {"ehs", "ehs2", "emd"} <= set(scores):
                continue
            if scores["emd"] == scores["ehs"] == scores["ehs2"]:
                answer = "tie"
            else:
                answer = "yes" if scores["emd"] <= min(scores["ehs"], scores["ehs2"]) else "no"
            ranking = " ≤ ".join(f"{m} {scores[m]:g}" for m in sorted(scores, key=lambda m: scores[m]))
            out.append((answer, f"{series} series, {count} preflop buckets ({ranking})"))
    return out


def ochs_verdicts(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(answer, text)`` per flop bucket count asked: does OCHS beat E[HS] on the flop?"""
    flop: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        if r["series"] == "flop":
            flop.setdefault(r["asked"], {})[r["method"]] = r
    out = []
    for asked, pair in flop.items():
        if set(pair) == {"ehs", "ochs"}:
            ochs, ehs = pair["ochs"], pair["ehs"]
            answer = "yes" if ochs["exploitability_mbb"] <= ehs["exploitability_mbb"] else "no"
            out.append(
                (
                    answer,
                    f"asking for {asked} buckets (ochs {ochs['exploitability_mbb']:g} with "
                    f"{ochs['buckets_flop']} flop buckets, ehs {ehs['exploitability_mbb']:g} with "
                    f"{ehs['buckets_flop']})",
                )
            )
    return out


def verdicts(rows: list[dict[str, Any]]) -> list[str]:
    """Plain statements, with a tally per question, of whether finer, potential-aware and OCHS did better."""
    questions = [
        ("Finer is better (exploitability never rises as the clustered streets get more buckets)", finer_verdicts),
        (
            "Potential-aware is better (emd, on the distribution of final strength, beats ehs and ehs2; the preflop "
            "series varies only the street where they differ)",
            potential_verdicts,
        ),
        (
            "OCHS is better than E[HS] on the flop (the last street, where E[HS] is all ehs, ehs2 and emd see)",
            ochs_verdicts,
        ),
    ]
    lines = []
    for title, judge in questions:
        answers = judge(rows)
        tally = ", ".join(
            f"{sum(a == kind for a, _ in answers)} {kind}"
            for kind in ("yes", "no", "tie")
            if any(a == kind for a, _ in answers)
        )
        lines += [f"{title}: {tally}.", ""]
        lines += [f"- **{answer}**: {text}." for answer, text in answers]
        lines.append("")
    return lines[:-1]


def hand_categories(deck: tuple[int, ...]) -> str:
    """The poker hand categories some five cards of ``deck`` make (e.g. no flush without five of a suit)."""
    hands = np.array(list(itertools.combinations(deck, 5)), dtype=np.int8)
    found = {category_index(int(v)) for v in evaluate_batch(hands)}
    return ", ".join(CATEGORY_NAMES[i] for i in sorted(found))


def markdown(summary: dict[str, Any]) -> str:
    """The report (summary, ``rows``, ``verdicts``, ``coverage``) as Markdown."""
    game, rows = summary["game"], summary["rows"]
    header = list(rows[0])
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    table += ["| " + " | ".join(str(r[h]) for h in header) + " |" for r in rows]
    text = [
        "# Card abstraction quality on small-deck hold'em",
        "",
        f"Command: `{summary['command']}` ({harness.machine_line(summary['machine'])}; {summary['total_seconds']} s).",
        "",
        f"Game: deck {game['deck']} ({game['deck_size']} cards), 2 hole cards each, a 3-card flop, fixed-limit "
        f"betting (raises {game['rules']['raise_sizes']} chips, at most {game['rules']['max_raises']} per street, "
        f"ante {game['rules']['ante']}); {game['raw_deals']:,} deals, {game['deals']:,} after merging suit-isomorphic "
        f"ones; exact buckets per street {game['exact_buckets']} (views up to suit isomorphism, lossless); "
        f"{game['infosets']:,} information sets. Five-card hands possible on this deck: {game['categories']}.",
        f"Every strategy is an average CFR+ strategy after {summary['iterations']} iterations. "
        "`exploitability_mbb` is the lifted strategy's exact exploitability in the unabstracted game "
        "(mbb/hand, big blind = the 1-chip ante; the exact reference shows what the iterations alone leave); "
        "`at_half_iterations_mbb` is the same after half the iterations (how far the solve itself had converged). "
        "`asked` is the bucket counts requested per street; a street yields fewer when it has fewer distinct "
        "feature values (E[HS] takes few distinct values on a small deck's flop). "
        "Differences smaller than a row's change from half to all iterations are within solver noise. "
        "The abstractions have imperfect recall (each street clustered on its own), as in practice, so a finer "
        "abstraction is not guaranteed to do better (Waugh et al. 2009, abstraction pathologies).",
        "",
        *table,
        "",
        "## Verdicts",
        "",
        *summary["verdicts"],
        "",
        "## Coverage",
        "",
        *summary["coverage"],
        "",
    ]
    return "\n".join(text)


COVERAGE = [
    "- Covered: plain hold'em on a small deck (two streets: preflop and flop). On the flop, the last street, "
    "E[HS²] and the HS distribution add nothing to E[HS], so ehs, ehs2 and emd differ on the preflop only, "
    "which the `preflop` series isolates; OCHS differs on both streets.",
    "- Not covered, Swap: a swap replaces hole cards by undealt cards with a probability, so a deal becomes "
    "(cards, which hole cards were swapped, their replacements) and a view includes the replacements; that "
    "needs a larger deal enumeration and rules engine support in `game.rules.small_holdem`, not built in this round.",
    "- Not covered, Bounty, River of Blood and Auction: the solver model carries them now (payoff rows per "
    "outcome context, chance and bid nodes; `abstraction.tree`), but `game.rules.small_holdem` deals a flop-only "
    "small deck without bounties, run cards or a third card, so their exact small games are not in this table.",
]


def solve_all(arguments: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Build the game, measure every abstraction; returns the run's summary and the rows."""
    clock = harness.Stopwatch()
    small = build_small_deck_game(
        {"ranks": arguments.ranks, "suits": arguments.suits, "max_raises": arguments.max_raises}
    )
    game = small.game
    features = bucket_features(game)
    exact_counts = game.deals.n_buckets.tolist()
    rows = [
        measure(game, CardAbstraction.identity(game), "reference", "exact", tuple(exact_counts), arguments.iterations)
    ]
    print(rows[-1], flush=True)
    for series, method, counts in plans(exact_counts):
        if method == "none":
            abstraction = CardAbstraction("no cards", tuple(np.zeros(n, dtype=np.int32) for n in exact_counts))
        else:
            abstraction = build_abstraction(game, method, counts, seed=arguments.seed, features=features)
        rows.append(measure(game, abstraction, series, method_label(method), counts, arguments.iterations))
        print(rows[-1], flush=True)
    summary = {
        "game": {
            "name": game.name,
            "rules": small.rules.to_dict(),
            "deck": small.rules.deck_text(),
            "deck_size": small.rules.deck_size,
            "raw_deals": small.raw_deals,
            "deals": game.deals.n_deals,
            "exact_buckets": exact_counts,
            "infosets": game.tree.n_infosets,
            "categories": hand_categories(small.rules.deck()),
        },
        "iterations": arguments.iterations,
        "seed": arguments.seed,
        "machine": harness.machine(cores_used=1),
        "total_seconds": round(clock.seconds, 1),
    }
    return summary, rows


def write_outputs(out: Path, stem: str, summary: dict[str, Any], rows: list[dict[str, Any]], command: str) -> list[str]:
    """Write ``stem``.csv, .json and .md under ``out`` (verdicts and coverage from this code); returns the verdicts."""
    lines = verdicts(rows)
    report = {**summary, "coverage": COVERAGE, "verdicts": lines, "rows": rows}
    harness.write_rows_and_results(out / stem, rows, report, markdown, command)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ranks", default="JQKA", help="ranks of the deck, e.g. JQKA")
    parser.add_argument("--suits", default="hsd", help="suits of the deck, e.g. hsd")
    parser.add_argument("--max-raises", type=int, default=2, help="raises allowed per street")
    parser.add_argument("--iterations", type=int, default=400, help="CFR+ iterations per solve")
    parser.add_argument("--seed", type=int, default=0, help="k-means seed (street s uses seed + s)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="directory for the outputs")
    parser.add_argument("--stem", default="abstraction_quality", help="output file name without extension")
    parser.add_argument(
        "--render-only",
        action="store_true",
        help="solve nothing: rewrite the .csv/.md from the rows of an existing <stem>.json",
    )
    arguments = parser.parse_args()
    if arguments.render_only:  # the stored run's command, not this one's
        stored = json.loads((arguments.results / f"{arguments.stem}.json").read_text())
        rows = stored.pop("rows")
        command = stored["command"]
        summary = {key: value for key, value in stored.items() if key not in ("verdicts", "coverage", "commit")}
    else:
        summary, rows = solve_all(arguments)
        command = harness.command_line(__file__, None, python="python")
    print("\n".join(write_outputs(arguments.results, arguments.stem, summary, rows, command)))


if __name__ == "__main__":
    main()
