"""Export one of our bots as a ready folder for the official MIT Pokerbots engines.

Folder layout (what ``export_bot`` writes; the engine reads ``commands.json``, runs ``build`` in the
folder, then starts ``run + [PORT]`` there and waits 10 s for the connection):

- ``commands.json``: ``{"build": [], "run": [PYTHON, "player.py"]}``.
- ``player.py``: the launcher; puts the folder first on ``sys.path`` and calls ``launch``.
- ``bot.json``: ``{"format": 1, "variant", "bot", "strategy", "seed", "transcript", "cards", "lock_in", "adapt"}``,
  read by ``launch``; with ``transcript`` set, the match is recorded there (gzip ``<< line`` / ``>> answer``;
  the next match overwrites it). ``lock_in`` (default true; absent = true): the bot is wrapped in
  `game.play.lock_in.LockIn`, which checks or folds to the end of the match once the bankroll lead
  exceeds the most the rounds left can lose (``vcfr export-bot --no-lock-in`` writes false).
  ``adapt`` (absent = false; ``vcfr export-bot`` writes true for a bot with a policy, the
  re-solving bot included, unless ``--no-adapt``): the bot is wrapped in `game.play.adaptive.AdaptiveBot` (inside the lock-in), which models the opponent over
  the match (the engine's rounds reach it through ``round_over``) and exploits it within its safety
  bound; ``prior.json`` holds the model's prior, the bot's own frequencies measured at export (the
  re-solving bot's: its blueprint's lookup bot's, `game.play.adaptive.self_play_prior`).
- ``game/``, ``solver/``, ...: only the project modules the bot imports, found by playing the
  warm-up rounds below in a fresh interpreter and listing the modules it loaded.
- ``strategy.h5`` and ``cards.h5``: copies of ``--strategy`` and of its card abstraction, if a
  strategy is given; ``bots/<file>.py``: a bot given as a file.

A strategy is checked before anything is written: it must be a readable vcfr strategy file of an
abstract heads-up game of the engine's variant solved for the engine's stack and blinds (other
chips are refused; other rules, e.g. document rules, get the lookup bot's warning), and its card
abstraction must be found
(`solver.bots.lookup_bot.find_card_abstraction`: the stored path, else next to the strategy file) with
the sha256 the strategy stores (``card_hash``); the copy in the folder is checked against that
hash again. The bot gets both files from the folder (``strategy`` and ``card_abstraction``
arguments), so the folder is self-contained: moved elsewhere, it plays the same.

A bot is named by ``module:attribute`` (a project module, e.g. ``game.play.bots:CheckCallBot``), by
``path/to/file.py:attribute`` (a file of your own, copied into the folder), or by a short name
known to ``game.play.bots`` (its ``BOTS`` registry, when it defines one), ``lookup`` (the strategy
lookup bot, `solver.bots.lookup_bot.make_lookup_bot`) or ``resolve`` (the re-solving bot of the
strategy, `solver.bots.resolving_bot.make_resolving_bot`, which paces its re-solves by the engine's
game clock: the match's client session is attached to it). The attribute is a ``Bot`` class or factory; it
is called with those of ``variant``, ``config`` (the variant's config with ``rules="engine"``),
``strategy`` (path or ``None``), ``card_abstraction`` (path or ``None``) and ``seed`` that it accepts.

`export_bot` reports the folder's size zipped (what an upload weighs) and the peak memory (maximum
resident set size) of the fresh interpreter that played the warm-up round from the folder.

At run time the folder needs Python >= 3.11 with numpy and numba (the rules modules import the
numba hand evaluator), and h5py if the bot reads a strategy file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import importlib
import importlib.util
import inspect
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.numba_cache import PACKAGES as PROJECT_PACKAGES
from game.numba_cache import ROOT as PROJECT_ROOT
from game.numba_cache import record_hash

FORMAT_VERSION = 1
STRATEGY_FILE_NAME = "strategy.h5"
CARDS_FILE_NAME = "cards.h5"
BOT_ALIASES = {
    "lookup": "solver.bots.lookup_bot:make_lookup_bot",
    "resolve": "solver.bots.resolving_bot:make_resolving_bot",
}
"""Short bot names of this module (besides the ``game.play.bots`` registry)."""
TRANSCRIPT_FILE_NAME = "transcript.txt.gz"
PRIOR_FILE_NAME = "prior.json"
USER_BOT_DIRECTORY = "bots"

WARM_UP_ROUNDS: dict[str, tuple[str, ...]] = {
    # One recorded round per engine (tests/data/transcripts), seen from one seat, ending with its delta.
    "swap": (
        "T29.985 P0 H6c,Tc",
        "T29.984 C R125",
        "T29.984 C B8d,4s,Kc U6c,Qh K",
        "T29.984 K B8d,4s,Kc,9d U6c,Qh K",
        "T29.984 R2 R75",
        "T29.984 C B8d,4s,Kc,9d,Qd K",
        "T29.984 K O7c,7d D200",
    ),
    # River of Blood: the recorded round's run card made black (2c for 5d) and the round ended there,
    # so that the bot decides on a final street: a re-solving bot compiles its river kernels here.
    "river_of_blood": (
        "T29.965 P1 H6d,6c C",
        "T29.964 K B9c,8d,6h",
        "T29.964 K K B9c,8d,6h,Jd",
        "T29.964 K K B9c,8d,6h,Jd,Qd",
        "T29.964 R2 R4",
        "T29.963 C B9c,8d,6h,Jd,Qd,2c",
        "T29.963 K K O5s,9d D6",
    ),
    "auction": (
        "T29.965 P1 H5h,As C",
        "T29.965 K BKh,9h,3d",
        "T29.964 A12 A12 P1 N386,386_12,12_5h,As,3s BKh,9h,3d",
        "T29.964 K K BKh,9h,3d,Ks",
        "T29.964 K R2",
        "T29.964 R4 R6",
        "T29.964 C BKh,9h,3d,Ks,2c",
        "T29.963 K R236",
        "T29.963 C O3h,6s,8d D256",
    ),
    "bounty": (
        "T59.998 P1 HTd,Ac G3 C",
        "T59.998 R368 C B4s,Ks,2d",
        "T59.997 R2 R4",
        "T59.997 C B4s,Ks,2d,4h",
        "T59.997 K K B4s,Ks,2d,4h,Th",
        "T59.997 K R2",
        "T59.997 R28 C O4c,2h D-400 Y#0",
    ),
}

LAUNCHER = '''"""Pokerbot launcher written by `vcfr export-bot`. The engine runs: python player.py PORT."""
import os
import sys

if sys.version_info < (3, 11):
    sys.exit("this bot needs Python >= 3.11 with numpy and numba, found " + sys.version.split()[0])
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from solver.bots.export_bot import launch  # noqa: E402

sys.exit(launch(HERE, sys.argv[1:]))
'''

LOGGER = logging.getLogger("vcfr.export_bot")


@dataclass(frozen=True)
class BotSpec:
    """What ``bot.json`` holds: the engine variant, the bot name, a strategy file name, a seed,
    the file to record each match in, the card-abstraction file (names relative to the
    folder; ``None`` = none), whether the bot locks in a won match (`game.play.lock_in`) and whether
    it adapts to its opponent (`game.play.adaptive`)."""

    variant: str
    bot: str
    strategy: str | None = None
    seed: int = 0
    transcript: str | None = None
    cards: str | None = None
    lock_in: bool = True
    adapt: bool = False

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT_VERSION,
                "variant": self.variant,
                "bot": self.bot,
                "strategy": self.strategy,
                "seed": self.seed,
                "transcript": self.transcript,
                "cards": self.cards,
                "lock_in": self.lock_in,
                "adapt": self.adapt,
            },
            indent=2,
        )

    @classmethod
    def read(cls, folder: str | Path) -> BotSpec:
        data = json.loads((Path(folder) / "bot.json").read_text())
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(
                f"bot.json format {data.get('format')!r} in {str(folder)!r}; this code reads {FORMAT_VERSION}"
            )
        lock_in, adapt = data.get("lock_in", True), data.get("adapt", False)
        for key, value in (("lock_in", lock_in), ("adapt", adapt)):
            if not isinstance(value, bool):
                raise ValueError(f"bot.json {key} must be true or false, got {value!r} in {str(folder)!r}")
        return cls(
            data["variant"],
            data["bot"],
            data["strategy"],
            int(data["seed"]),
            data.get("transcript"),
            data.get("cards"),
            lock_in,
            adapt,
        )


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote: the folder, its files (relative paths), their total size in bytes, the
    project modules copied, the folder's size as a zip file (bytes), the peak memory (maximum
    resident set size, bytes; ``None`` where the platform does not report it) of its warm-up run
    and whether the bot adapts to its opponent (``bot.json`` ``adapt``)."""

    folder: Path
    files: tuple[str, ...]
    total_bytes: int
    modules: tuple[str, ...]
    zipped_bytes: int = 0
    peak_memory_bytes: int | None = None
    adapt: bool = False

    def as_json(self) -> dict[str, Any]:
        """The summary as JSON-ready values (``vcfr export-bot --json`` prints it; sizes in bytes)."""
        return {
            "folder": str(self.folder),
            "files": len(self.files),
            "bytes": self.total_bytes,
            "zipped_bytes": self.zipped_bytes,
            "peak_memory_bytes": self.peak_memory_bytes,
            "modules": list(self.modules),
            "adapt": self.adapt,
        }


def engine_config(variant: str) -> Any:
    """The rules an official engine plays ``variant`` under: its config with ``rules="engine"``."""
    from game.rules.variants import get_variant

    return get_variant(variant).config_class(rules="engine")


def make_bot(spec: BotSpec, folder: str | Path | None = None) -> Any:
    """Build the bot named by ``spec`` (see the module docstring); file paths are relative to ``folder``."""
    target, _, attribute = BOT_ALIASES.get(spec.bot, spec.bot).rpartition(":")
    if not target:
        factory = _registered_bot(spec.bot)
    elif target.endswith(".py"):
        path = Path(folder or ".") / target
        module_spec = importlib.util.spec_from_file_location(f"vcfr_user_bot_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load bot file {str(path)!r}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        factory = getattr(module, attribute)
    else:
        factory = getattr(importlib.import_module(target), attribute)
    strategy = None if spec.strategy is None else str(Path(folder or ".") / spec.strategy)
    cards = None if spec.cards is None else str(Path(folder or ".") / spec.cards)
    offered: dict[str, Any] = {
        "variant": spec.variant,
        "strategy": strategy,
        "card_abstraction": cards,
        "seed": spec.seed,
    }
    parameters = inspect.signature(factory).parameters
    if "config" in parameters:
        offered["config"] = engine_config(spec.variant)
    return factory(**{name: value for name, value in offered.items() if name in parameters})


def make_player(spec: BotSpec, folder: str | Path | None = None) -> Any:
    """The bot that plays the match: `make_bot`, wrapped in `game.play.adaptive.AdaptiveBot` (its
    prior read from ``prior.json`` in ``folder``) when ``spec.adapt``, then in
    `game.play.lock_in.LockIn` (the variant's config with ``rules="engine"``, 1000 rounds as in the
    engines) when ``spec.lock_in``; attach the match's `game.pokerbots.session.ClientSession` to it
    (`_attached`) before play."""
    bot = make_bot(spec, folder)
    if spec.adapt:
        from game.play.adaptive import AdaptiveBot
        from game.play.opponent_model import ModelPrior

        prior = ModelPrior.from_dict(json.loads((Path(folder or ".") / PRIOR_FILE_NAME).read_text()))
        bot = AdaptiveBot(
            bot, engine_config(spec.variant), prior=prior, seed=spec.seed, name=getattr(bot, "name", None)
        )
    if not spec.lock_in:
        return bot
    from game.play.lock_in import LockIn

    return LockIn(bot, engine_config(spec.variant))


def _attached(player: Any, session: Any) -> Any:
    """``session``, after attaching it to ``player`` if the player reads the match's progress or
    clock (`game.play.lock_in.LockIn`, `solver.bots.resolving_bot.ResolvingBot`: an ``attach``), and
    the player's ``round_over`` (if any) to the session's finished rounds."""
    attach = getattr(player, "attach", None)
    if callable(attach):
        attach(session)
    session.round_over = getattr(player, "round_over", None)
    return session


def _registered_bot(name: str) -> Any:
    try:
        registry = importlib.import_module("game.play.bots").BOTS
    except (ImportError, AttributeError):
        raise ValueError(f"unknown bot {name!r}: name it as module:attribute or file.py:attribute") from None
    if name not in registry:
        raise ValueError(f"unknown bot {name!r}: known are {', '.join(sorted([*registry, *BOT_ALIASES]))}")
    return registry[name]


def play_warm_up(spec: BotSpec, folder: str | Path | None = None) -> int:
    """Play the variant's warm-up round through a client session (imports, JIT); returns decisions made.

    Imports the TCP loop too (`game.pokerbots.client`): the exported folder copies the modules this
    loads, and `launch` plays through that loop. The session is not attached to the bot (no lock-in,
    no game clock), so a re-solving bot solves in full and every kernel it uses is compiled. A player
    with ``warm_up(observation)`` (the adaptive bot: its exploiter) is also shown every decision, and
    one with ``round_over`` the finished round (the adaptive bot's opponent model evaluates the shown
    hands), so the kernels it may need mid-match are compiled here and their cache is copied into
    the folder (an exported adaptive re-solving bot compiled the hand evaluator in its first
    ``round_over`` and ran out of the check's time in round 1)."""
    importlib.import_module("game.pokerbots.client")  # loaded so that the folder carries it
    from game.pokerbots.engines import engine_rules
    from game.pokerbots.session import ClientSession, bot_decider

    rules = engine_rules(spec.variant)
    player = make_player(spec, folder)
    decide = bot_decider(player)
    warm_up = getattr(player, "warm_up", None)
    decisions = 0

    def counting(view: Any) -> Any:
        nonlocal decisions
        decisions += 1
        if warm_up is not None:
            warm_up(view.observation())
        return decide(view)

    session = ClientSession(rules, counting, round_over=getattr(player, "round_over", None))
    for line in WARM_UP_ROUNDS[rules.variant]:
        session.answer(line)
    if session.errors:
        raise RuntimeError(f"bot {spec.bot!r} failed {session.errors} times in the warm-up round")
    return decisions


def launch(folder: str, arguments: list[str]) -> int:
    """Entry point of an exported folder: ``PORT`` plays a match, ``--warm-up`` plays one round."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    spec = BotSpec.read(folder)
    if arguments == ["--warm-up"]:
        play_warm_up(spec, folder)
        loaded = sorted(
            name
            for name, module in sys.modules.items()
            if name.split(".")[0] in PROJECT_PACKAGES and getattr(module, "__file__", None)
        )
        outside = [
            name
            for name in loaded
            if not Path(sys.modules[name].__file__).resolve().is_relative_to(Path(folder).resolve())
        ]
        print(json.dumps({"modules": loaded, "outside": outside, "peak_memory_bytes": peak_memory_bytes()}))
        return 0
    if len(arguments) != 1 or not arguments[0].isdigit():
        print(f"usage: python player.py PORT (or --warm-up), got {arguments!r}", file=sys.stderr)
        return 2
    from game.pokerbots.client import play_session
    from game.pokerbots.engines import engine_rules
    from game.pokerbots.session import ClientSession, bot_decider

    bot = make_player(spec, folder)
    session = _attached(bot, ClientSession(engine_rules(spec.variant), bot_decider(bot)))
    with contextlib.ExitStack() as stack:
        transcript = None
        if spec.transcript is not None:
            transcript = stack.enter_context(gzip.open(Path(folder) / spec.transcript, "wt"))
        try:
            play_session(session, int(arguments[0]), transcript=transcript)
        except OSError as error:
            LOGGER.error("could not connect to the engine on port %s: %s", arguments[0], error)
            return 1
    counters = {
        name: value
        for name in (
            "decisions",
            "off_tree",
            "deviations",
            "errors",
            "resolves",
            "fallbacks",
            "clock_fallbacks",
            "unmodelled",
        )
        if isinstance(value := getattr(bot, name, None), int)
    }  # the lookup bot keeps decisions, off-tree and errors, the adaptive bot its deviations, the re-solving bot its re-solves
    if isinstance(base_fallbacks := getattr(getattr(bot, "base", None), "fallbacks", None), int):
        counters["base_fallbacks"] = base_fallbacks  # the adaptive bot's fallbacks hide its re-solving base's
    shown = ", ".join(f"{value} {name.replace('_', '-')}" for name, value in counters.items())
    locked = (
        ""
        if getattr(bot, "locked_round", None) is None
        else (
            f", locked in at round {bot.locked_round + 1} (bankroll {bot.locked_bankroll:+d} > {bot.locked_threshold})"
        )
    )
    LOGGER.warning(
        "match over: %d rounds, bankroll %d, %d repairs, %d errors, game clock left %.3f s%s%s",
        session.rounds_played,
        session.bankroll,
        session.repairs,
        session.errors,
        session.clock_seconds,
        locked,
        f"; bot: {shown}" if shown else "",
    )
    return 0


def peak_memory_bytes() -> int | None:
    """Maximum resident set size of this process so far, in bytes (``None`` without ``resource``)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)  # bytes on macOS, KiB on Linux


_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from solver.bots.export_bot import PROJECT_PACKAGES, BotSpec, play_warm_up
play_warm_up(BotSpec.read(sys.argv[2]), sys.argv[2])
modules = [m for name, m in list(sys.modules.items()) if name.split('.')[0] in PROJECT_PACKAGES
           and getattr(m, '__file__', None) and m.__file__.startswith(sys.argv[1])]
kernels = {m.__file__: sorted(f"{k.py_func.__qualname__}-{k.py_func.__code__.co_firstlineno}"
                              for k in vars(m).values() if hasattr(k, 'py_func') and getattr(k, 'signatures', None))
           for m in modules}
print(json.dumps(kernels))
"""


def export_bot(
    variant: str,
    bot: str,
    out: str | Path,
    *,
    strategy: str | Path | None = None,
    seed: int = 0,
    python: str = sys.executable,
    force: bool = False,
    transcript: bool = False,
    lock_in: bool = True,
    adapt: bool | None = None,
) -> ExportSummary:
    """Write a bot folder for the official engine of ``variant`` (see the module docstring).

    ``python`` is the interpreter the engine will start (it needs numpy and numba); with
    ``transcript`` the bot records each match in ``transcript.txt.gz`` in the folder; ``lock_in``
    (``bot.json``) wraps the bot in `game.play.lock_in.LockIn` when it plays a match; ``adapt``
    wraps it in `game.play.adaptive.AdaptiveBot` (the bot needs a ``policy``; ``None``: adapt if it
    has one; its prior, the bot against itself, is measured here and written to ``prior.json``). The folder
    is checked by running its warm-up round in a fresh interpreter with only the folder on the
    path for project code; that run also fills numba's cache inside the folder. A ``strategy``
    is checked (:func:`check_strategy`) and copied in with its card abstraction. Bad input
    raises ValueError before anything is written.
    """
    from game.pokerbots.engines import engine_rules

    rules = engine_rules(variant)
    folder = Path(out)
    cards = None if strategy is None else check_strategy(strategy, rules.variant, engine_config(rules.variant))
    target, _, _attribute = BOT_ALIASES.get(bot, bot).rpartition(":")
    if target.endswith(".py") and not Path(target).is_file():
        raise ValueError(f"bot file {target!r} does not exist")
    if folder.exists() and any(folder.iterdir()) and not (force and (folder / "bot.json").exists()):
        raise ValueError(f"output folder {str(folder)!r} is not empty (use --force to replace an earlier export)")
    try:
        built = make_bot(
            BotSpec(
                rules.variant,
                bot,
                None if strategy is None else str(strategy),
                seed,
                cards=None if cards is None else str(cards[0]),
            )
        )
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot build bot {bot!r}: {error}") from None
    has_policy = callable(getattr(built, "policy", None))
    if adapt and not has_policy:
        raise ValueError(f"bot {bot!r} has no policy(observation), so it cannot adapt: export it with --no-adapt")
    adapt = has_policy if adapt is None else adapt
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    try:
        spec = BotSpec(
            rules.variant,
            bot,
            None if strategy is None else STRATEGY_FILE_NAME,
            seed,
            TRANSCRIPT_FILE_NAME if transcript else None,
            None if cards is None else CARDS_FILE_NAME,
            bool(lock_in),
            bool(adapt),
        )
        modules, report = _write_folder(spec, folder, strategy, cards, python)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    files = tuple(sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()))
    total = sum((folder / name).stat().st_size for name in files)
    return ExportSummary(
        folder,
        files,
        total,
        tuple(str(p.relative_to(PROJECT_ROOT)) for p in modules),
        zipped_size(folder),
        report.get("peak_memory_bytes"),
        spec.adapt,
    )


def check_strategy(strategy: str | Path, variant: str, config: Any = None) -> tuple[Path, str]:
    """Check that ``strategy`` is a vcfr strategy file of an abstract heads-up game of ``variant``
    with its card abstraction at hand and, when the rules ``config`` it will play are given, solved
    for the same chips (stack and blinds, `solver.bots.lookup_bot.check_played_chips`); returns
    ``(card file, its sha256)``. :class:`~solver.solve.strategy_file.StrategyFileError` (a
    ValueError; one line, naming the file and the problem) otherwise: a runtime error of the
    commands, not a usage error."""
    from solver.bots.lookup_bot import check_played_chips, find_card_abstraction
    from solver.games.abstract_games import GAME_KIND, AbstractGameConfig, card_file_hash
    from solver.solve.strategy_file import StrategyFileError, read_strategy_file

    path = Path(strategy)
    if not path.is_file():
        raise StrategyFileError(f"strategy file {str(path)!r} does not exist")
    record = read_strategy_file(path)  # StrategyFileError: not HDF5, not ours, corrupt, truncated
    kind = record.game_config.get("kind")
    if kind != GAME_KIND:
        name = kind or record.game_config.get("name")
        raise StrategyFileError(
            f"{path} is a strategy of {name!r}; the bots play strategies of the heads-up variants "
            f"(vcfr solve --variant {variant} --cards ...)"
        )
    try:
        game_config = AbstractGameConfig.from_dict(dict(record.game_config))
    except (TypeError, ValueError) as error:
        raise StrategyFileError(f"{path}: bad abstract game config ({' '.join(str(error).split())})") from None
    if game_config.variant != variant:
        raise StrategyFileError(f"{path} is a strategy of {game_config.variant!r}, not of {variant!r}")
    try:
        if config is not None:
            check_played_chips(path, game_config.variant_config(), config)
        cards = find_card_abstraction(game_config, path)  # hash checked; ValueError naming both hashes
    except ValueError as error:
        raise StrategyFileError(str(error)) from None
    return cards, game_config.card_hash or card_file_hash(cards)


def zipped_size(folder: str | Path) -> int:
    """Bytes of ``folder`` zipped (deflate), written to a temporary file that is then removed."""
    root = Path(folder)
    with tempfile.TemporaryDirectory() as scratch:
        archive = Path(scratch) / "bot.zip"
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as writer:
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    writer.write(path, path.relative_to(root))
        return archive.stat().st_size


def _write_folder(
    spec: BotSpec, folder: Path, strategy: str | Path | None, cards: tuple[Path, str] | None, python: str
) -> tuple[list[Path], dict[str, Any]]:
    """Write the folder's files, copy the modules the bot needs, check it; returns the modules
    and the warm-up report."""
    from solver.games.abstract_games import check_card_hash

    target, _, attribute = BOT_ALIASES.get(spec.bot, spec.bot).rpartition(":")
    if target.endswith(".py"):
        source = Path(target)
        (folder / USER_BOT_DIRECTORY).mkdir()
        shutil.copy2(source, folder / USER_BOT_DIRECTORY / source.name)
        spec = dataclasses.replace(spec, bot=f"{USER_BOT_DIRECTORY}/{source.name}:{attribute}")
    if strategy is not None:
        shutil.copy2(strategy, folder / STRATEGY_FILE_NAME)
    if cards is not None:
        shutil.copy2(cards[0], folder / CARDS_FILE_NAME)
        check_card_hash(folder / CARDS_FILE_NAME, cards[1], f"the strategy {str(strategy)!r}")
    if spec.adapt:
        _write_prior(spec, folder)
    (folder / "bot.json").write_text(spec.to_json() + "\n")
    (folder / "player.py").write_text(LAUNCHER)
    (folder / "commands.json").write_text(json.dumps({"build": [], "run": [python, "player.py"]}) + "\n")
    modules = _modules_needed(python, folder)
    for path, kernels in modules.items():
        _copy_module(path, folder / path.relative_to(PROJECT_ROOT), kernels)
    record_hash(folder)  # the copied cache is the project's, fresh: the bot's own check keeps it
    report = warm_up(folder)
    return list(modules), report


def _write_prior(spec: BotSpec, folder: Path) -> None:
    """Measure the adaptive bot's prior (the bot against itself, `game.play.adaptive.self_play_prior`
    at `game.play.adaptive.ExploitConfig`'s rounds and weight) and write it to ``prior.json``."""
    from game.play.adaptive import ExploitConfig, self_play_prior

    def build(seed: int) -> Any:
        return make_bot(dataclasses.replace(spec, seed=seed), folder)

    prior = self_play_prior(build(spec.seed), build, engine_config(spec.variant), ExploitConfig())
    (folder / PRIOR_FILE_NAME).write_text(json.dumps(prior.to_dict()) + "\n")


def _copy_module(source: Path, target: Path, kernels: list[str]) -> None:
    """Copy a module and numba's cache of its current kernels (valid while the copy keeps the
    source's size and modification time, which ``copy2`` preserves), so the bot need not compile."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    for kernel in kernels:
        for cached in (source.parent / "__pycache__").glob(f"{source.stem}.{kernel}.py*.nb[ic]"):
            (target.parent / "__pycache__").mkdir(exist_ok=True)
            shutil.copy2(cached, target.parent / "__pycache__" / cached.name)


def _modules_needed(python: str, folder: Path) -> dict[Path, list[str]]:
    """Project module files the bot loads in its warm-up round (with their packages' ``__init__``),
    each with the numba kernels the round compiled or loaded, as ``qualname-line`` (the stem of
    numba's cache file names)."""
    probe = [python, "-c", _PROBE, str(PROJECT_ROOT), str(folder.resolve())]
    report = _json_report(probe, folder, "the bot failed its warm-up round in the project")
    kernels = {Path(name): names for name, names in report.items()}
    for path in list(kernels):
        for parent in path.relative_to(PROJECT_ROOT).parents:
            if str(parent) != ".":
                kernels.setdefault(PROJECT_ROOT / parent / "__init__.py", [])
    return dict(sorted(kernels.items()))


def _json_report(command: list[str], folder: Path, failure: str) -> dict[str, Any]:
    """Run ``command`` in ``folder`` with a clean environment; the JSON of its last stdout line.
    RuntimeError with ``failure`` and the end of its stderr if it exits non-zero."""
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder, env=_clean_environment())
    if result.returncode != 0:
        raise RuntimeError(f"{failure}:\n{result.stderr[-3000:]}")
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise RuntimeError(f"{failure}: its last output line is not a JSON report: {result.stdout[-300:]!r}") from None


def warm_up(folder: str | Path) -> dict[str, Any]:
    """Run ``player.py --warm-up`` in an exported folder as the engine starts the bot (the run
    command of its ``commands.json``, no ``PYTHONPATH``): the variant's recorded round
    (`WARM_UP_ROUNDS`) through the client, in a fresh interpreter. Returns its report: ``modules`` (project
    modules loaded), ``outside`` (those loaded from outside the folder) and ``peak_memory_bytes``.
    RuntimeError (with the end of its stderr) if it fails or loads project code from outside."""
    from game.pokerbots.local_engine import read_commands

    run = read_commands(folder)["run"]
    report = _json_report([*run, "--warm-up"], Path(folder), "the exported folder failed its warm-up round")
    if report["outside"]:
        raise RuntimeError(f"the exported folder still imports project modules from outside it: {report['outside']}")
    return report


def _clean_environment() -> dict[str, str]:
    """The environment without ``PYTHONPATH``, so project code can only come from the folder."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
