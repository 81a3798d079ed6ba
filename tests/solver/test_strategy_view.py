"""The strategy browser's data (`solver.view.browser`), its server's JSON, `vcfr view`'s errors,
and (slow suite) the page in a real headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction
from abstraction.tree import CHANCE, DECISION, FlatTree
from game.cards.deck import RANKS
from solver.evaluate.charts import class_cards, hand_class
from solver.solve.cfr import Solver
from solver.solve.strategy_file import StrategyFileError, read_strategy_file
from solver.view.browser import StrategyView, check_same_tree
from solver.view.server import bind
from tests.solver.cli_support import invoke, one_line_error
from tests.solver.tiny_bounty import bounty_cards, solve_tiny


@pytest.fixture(scope="module")
def bounty(tmp_path_factory) -> tuple[Path, StrategyView]:
    path, _ = solve_tiny(tmp_path_factory.mktemp("view"), bounty_cards(), iterations=300)
    return path, StrategyView.open(path, deals=4000)


@pytest.fixture(scope="module")
def exact_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("exact")
    files = {}
    for name in ("kuhn", "leduc"):
        files[name] = folder / f"{name}.h5"
        solved = invoke("solve", "--variant", name, "--iterations", "30", "--out", files[name], "--quiet")
        assert solved.exit_code == 0, solved.output
    return files


def _decisions(tree: FlatTree, street: int) -> list[int]:
    return np.flatnonzero((tree.kind == DECISION) & (tree.street == street)).tolist()


def _file_row(path: Path, cards, node: int, row: int, column: int, held: bool) -> list[float]:
    """The strategy file's row at preflop ``node`` for grid cell ``(row, column)``'s class, the
    bounty rank held or not: read from the file and the card abstraction, not through the browser."""
    record = read_strategy_file(path)
    tree = FlatTree.from_arrays(dict(record.tree_arrays))
    hole = class_cards(row, column)
    ranks = [RANKS.index(hole[0]), RANKS.index(hole[2])]
    bucket = cards.bucket(hole, bounty_rank=ranks[0] if held else next(r for r in range(13) if r not in ranks))
    assert bucket % 2 == held
    group = int(tree.infoset_group[node])
    offset = int(tree.row_offset[group]) + bucket * int(tree.n_actions[group])
    return np.asarray(record.average_strategy)[offset : offset + int(tree.n_actions[group])].tolist()


def test_reach_is_one_at_the_root_and_children_split_their_parents_reach(bounty) -> None:
    """Every deal takes exactly one child at a decision (frequencies sum to 1) and at a chance node,
    so the children's reach adds up to the node's on the same deals, at every depth; and a bucket's
    share of the hands at a node is a probability."""
    _, view = bounty
    tree = view.tree
    assert view.node(0)["reach"] == pytest.approx(1.0, abs=1e-12)
    inner = np.flatnonzero((tree.kind == DECISION) | (tree.kind == CHANCE))
    for node in inner[:: max(1, len(inner) // 40)].tolist():
        answer = view.node(node)
        assert 0.0 <= answer["reach"] <= 1.0 + 1e-12
        # the file's rows sum to 1 to float32 rounding (the solver's tables)
        assert sum(child["reach"] for child in answer["children"]) == pytest.approx(answer["reach"], abs=1e-8)
        if answer["reach"] > 0:
            assert sum(answer["strategy"]["bucket_share"]) == pytest.approx(1.0)
    assert view.node(0)["reach_error"] == 0.0 and view.node(int(tree.child_start[0]) + 1)["reach_error"] > 0


def test_pot_stacks_and_path_follow_the_tree(bounty) -> None:
    _, view = bounty
    tree = view.tree
    node = _decisions(tree, 1)[0]
    answer = view.node(node)
    committed = tree.committed[node]
    assert answer["pot"] == committed.sum() and answer["stacks"] == [400.0 - chips for chips in committed]
    assert answer["street_name"] == "flop" and answer["strategy"]["slot_name"] == "flop"
    assert answer["path"][0]["node"] == 0 and answer["path"][-1]["node"] == node
    assert "".join(step["label"] for step in answer["path"]) == answer["history"].replace("/", "")
    with pytest.raises(ValueError, match=re.escape(f"node must be an int in 0..{tree.n_nodes - 1}")):
        view.node(tree.n_nodes)


def test_preflop_grids_are_the_files_strategy_with_and_without_the_bounty(bounty) -> None:
    """Each class's cell is the strategy row of the class's bucket (the hit bit from a bounty rank
    held or not), read from the file independently of the chart code."""
    path, view = bounty
    record = read_strategy_file(path)
    tree = FlatTree.from_arrays(dict(record.tree_arrays))
    strategy = np.asarray(record.average_strategy)
    for node in _decisions(tree, 0)[:3]:
        group = int(tree.infoset_group[node])
        answer = view.node(node)["strategy"]
        assert [grid["title"] for grid in answer["grids"]] == ["bounty rank not held", "bounty rank held"]
        for grid, held in zip(answer["grids"], (False, True), strict=True):
            for row, column in ((0, 0), (0, 1), (1, 0), (12, 12), (5, 9)):
                assert grid["frequencies"][row][column] == _file_row(path, view.cards, node, row, column, held)
        rows = np.asarray(answer["buckets"])
        start = int(tree.row_offset[group])
        assert np.array_equal(rows.ravel(), strategy[start : start + rows.size])
        assert [listed["buckets"][:2] for listed in answer["bucket_views"]] == [[0, 2], [1, 3]]


def test_range_weights_are_the_actors_own_earlier_frequencies(bounty) -> None:
    """Preflop, when the dealer acts again (after a limp and a raise), its range weight of a class
    is its frequency, at the root, of the action it took there."""
    _, view = bounty
    tree = view.tree
    again = next(node for node in _decisions(tree, 0) if node > 0 and tree.player[node] == 0)
    answer = view.node(again)
    first_action = answer["path"][1]["node"] - int(tree.child_start[0])
    root = view.node(0)["strategy"]["grids"]
    for grid, root_grid in zip(answer["strategy"]["grids"], root, strict=True):
        assert np.array_equal(grid["range"], np.asarray(root_grid["frequencies"])[:, :, first_action])
        assert np.all(np.asarray(root_grid["range"]) == 1.0)
    assert [step["label"] for step in answer["path"]] == ["", "C", "R6"]  # a limp, the big blind raises


@pytest.fixture(scope="module")
def holdem_cards(tmp_path_factory) -> tuple[Path, CardAbstraction]:
    cards = CardAbstraction.blank((169, 2, 2, 2))
    path = tmp_path_factory.mktemp("cards") / "cards.h5"
    cards.save(path)
    return path, cards


def test_auction_nodes_name_the_three_card_slots(holdem_cards, tmp_path: Path) -> None:
    """After the flop auction the winner's decisions read the three-card slots, named so on the page."""
    from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy

    cards_path, cards = holdem_cards
    config = AbstractGameConfig(
        variant="auction", rules={"stack": 20}, card_abstraction=str(cards_path), bets="1p,a cap=1"
    )
    game = build_abstract_game(config, cards)
    path = write_abstract_strategy(tmp_path / "auction.h5", game, Solver(game, "es-mccfr", seed=1).run(20))
    view = StrategyView.open(path, deals=200)
    tree = view.tree
    names = {}
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.street >= 1)).tolist():
        answer = view.node(node)
        names.setdefault(answer["strategy"]["slot_name"], node)
        three = answer["strategy"]["slot"] >= 4
        assert answer["strategy"]["slot_name"] == answer["street_name"] + (", 3 cards" if three else "")
    assert {"flop", "flop, 3 cards", "turn, 3 cards", "river, 3 cards"} <= set(names)
    bids = [child["label"] for child in view.node(names["flop"])["children"]]  # the first flop decision: a bid
    assert bids[0] == "A0" and all(label.startswith("A") for label in bids)


@pytest.mark.jit_only  # as plain Python the limit game took over 9 minutes here (stopped)
def test_limit_games_show_their_streets_and_preflop_grids_and_refuse_another_card_file(
    holdem_cards, bounty, tmp_path: Path
) -> None:
    """Three-player limit hold'em: streets by name, preflop a grid from its Hold'em card file, no
    stacks (no tap-outs); a card file other than the solved one is refused."""
    from solver.games.abstract_games import write_abstract_strategy
    from solver.games.limit_games import LimitGameConfig, build_limit_game

    cards_path, cards = holdem_cards
    config = LimitGameConfig(rules={"n_players": 3, "max_raises": 1}, card_abstraction=str(cards_path))
    game = build_limit_game(config, cards)
    path = write_abstract_strategy(tmp_path / "limit.h5", game, Solver(game, "es-mccfr", seed=1).run(20))
    view = StrategyView.open(path, deals=300)
    root = view.node(0)
    assert view.meta()["players"] == 3 and root["player"] == view.tree.player[0] and root["stacks"] is None
    assert root["street_name"] == "preflop" and root["strategy"]["grids"][0]["title"] == "hand classes"
    flop = view.node(_decisions(view.tree, 1)[0])
    assert flop["street_name"] == "flop" and flop["strategy"]["slot_name"] == "flop"
    with pytest.raises(StrategyFileError, match="was solved with card sha256"):
        StrategyView.open(path, cards=bounty[0].parent / "bounty_cards.h5")


def test_reach_on_an_exact_game_sums_over_its_deals(exact_files) -> None:
    """Kuhn: the reach of check-bet is the deal-weighted product of the two seats' frequencies, exactly."""
    from abstraction.exact.exact_games import build_game

    view = StrategyView.open(exact_files["kuhn"])
    game = build_game("kuhn")
    tree, strategy = game.tree, np.asarray(read_strategy_file(exact_files["kuhn"]).average_strategy)
    check = int(tree.child_start[0])
    bet = int(tree.child_start[check]) + 1
    expected = 0.0
    for deal in range(game.deals.n_deals):
        chance = game.deals.probability[deal]
        for node, child in ((0, check), (check, bet)):
            group = int(tree.infoset_group[node])
            bucket = game.deals.bucket[deal, int(tree.player[node]), int(tree.group_slot[group])]
            chance *= strategy[tree.row_offset[group] + bucket * tree.n_actions[group] + child - tree.child_start[node]]
        expected += chance
    answer = view.node(bet)
    assert answer["reach"] == pytest.approx(expected, abs=1e-15) and answer["reach_error"] == 0.0
    assert answer["history"] == view.tree.history(bet) and answer["stacks"] is None
    assert answer["strategy"]["grids"] == [] and view.meta()["chance"] == "exact"


def test_two_files_of_different_trees_are_refused(exact_files) -> None:
    kuhn, leduc = (StrategyView.open(exact_files[name]) for name in ("kuhn", "leduc"))
    check_same_tree(kuhn, StrategyView.open(exact_files["kuhn"]))
    with pytest.raises(StrategyFileError, match="has another tree than"):
        check_same_tree(kuhn, leduc)
    message = one_line_error(invoke("view", exact_files["kuhn"], "--compare", exact_files["leduc"], "--no-open"), 1)
    assert "leduc.h5 has another tree than" in message and "kuhn.h5" in message


def test_a_taken_port_is_one_error_line(exact_files) -> None:
    server = bind([StrategyView.open(exact_files["kuhn"])])
    try:
        arguments = ("view", exact_files["kuhn"], "--port", server.server_port, "--no-open")
        assert f"port {server.server_port}" in one_line_error(invoke(*arguments), 1)
    finally:
        server.server_close()


def _ignore_and_block_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def test_vcfr_view_serves_both_files_until_stopped(exact_files) -> None:
    """The command as a user runs it: a free port, no browser tab, the URL on stdout, both files served."""
    # -X faulthandler: should Ctrl-C not stop it, the SIGABRT below dumps every thread's stack to stderr
    command = [sys.executable, "-X", "faulthandler", "-m", "solver.cli.main", "view", str(exact_files["kuhn"])]
    command += ["--compare"]
    command += [str(exact_files["kuhn"]), "--port", "0", "--no-open"]
    # stderr to a file and stdout drained by communicate: a child never blocks on a full pipe
    with tempfile.TemporaryFile("w+") as errors:
        # started with SIGINT ignored and blocked, as a test runner's worker once started it (both
        # survive exec): Ctrl-C must stop it all the same
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, text=True, preexec_fn=_ignore_and_block_sigint
        )
        try:
            line = process.stdout.readline()
            url = re.search(r"at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)", line)
            assert url, line
            status, body = _get(url.group(1) + "api/meta")
            assert status == 200 and [meta["game"] for meta in json.loads(body)["files"]] == ["kuhn", "kuhn"]
        finally:
            process.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop
            try:
                process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGABRT)
                process.communicate()
            errors.seek(0)
            assert process.returncode == 0, errors.read()[:4000]  # faulthandler's dump starts with the main thread


@pytest.fixture
def served(bounty) -> Iterator[tuple[str, StrategyView]]:
    _, view = bounty
    server = bind([view, view])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", view
    finally:
        server.shutdown()
        server.server_close()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_server_answers_the_page_its_files_and_the_nodes(served) -> None:
    url, view = served
    status, page = _get(url + "/")
    assert status == 200 and b'src="/static/app.js"' in page and b"http" not in page  # nothing from a CDN
    for name in ("app.js", "style.css"):
        status, body = _get(f"{url}/static/{name}")
        assert status == 200 and b"https://" not in body
    status, body = _get(url + "/api/meta")
    assert status == 200 and json.loads(body)["files"] == [view.meta(), view.meta()]
    status, body = _get(url + "/api/node/3")
    assert status == 200 and json.loads(body)["files"] == [json.loads(json.dumps(view.node(3)))] * 2
    status, body = _get(url + "/api/node/100000")
    assert status == 404 and "node must be" in json.loads(body)["error"]


@pytest.mark.slow
def test_the_page_in_chromium_walks_to_a_child_and_shows_the_files_numbers(bounty, served) -> None:
    """The issue's browser test: the page loads in a real headless Chromium (Debian's package), a
    click on an action walks to that child, and the grid's numbers are the file's."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium binary on PATH (Debian: apt-get install -y chromium)")
    playwright = pytest.importorskip("playwright.sync_api", reason="the dev extra's playwright is not installed")
    url, view = served
    path, _ = bounty
    tree = view.tree
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(url + "/")
            page.wait_for_selector("body[data-node='0'] table.grid td.cell")
            child = int(tree.child_start[0]) + 2  # the dealer's raise: a preflop decision of the big blind
            page.click(f"#actions button[data-node='{child}']")
            page.wait_for_selector(f"body[data-node='{child}'] table.grid td.cell")
            assert page.inner_text("#fact-history") == f"history: {tree.history(child)}"
            for file in (0, 1):
                for grid_index, held in enumerate((False, True)):
                    table = page.locator(f"table.grid[data-file='{file}']").nth(grid_index)
                    for row, column in ((0, 0), (0, 1), (1, 0), (12, 12), (6, 3)):
                        cell = table.locator("tr").nth(row).locator("td").nth(column)
                        assert cell.get_attribute("data-class") == hand_class(row, column)
                        shown = json.loads(cell.get_attribute("data-frequencies"))
                        assert shown == _file_row(path, view.cards, child, row, column, held)
            page.click("#path a[data-node='0']")
            page.wait_for_selector("body[data-node='0']")
        finally:
            browser.close()


@pytest.mark.slow
def test_the_screenshot_script_clicks_its_walk_and_writes_a_png(bounty, tmp_path: Path) -> None:
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("no chromium binary on PATH (Debian: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="the dev extra's playwright is not installed")
    from tests.experiment_scripts import load_experiment

    script = load_experiment("strategy_browser_screenshot")
    path, view = bounty
    out = tmp_path / "shot.png"
    raised = int(view.tree.child_start[0]) + 2
    assert script.screenshot(path, out, walk=("R6",)) == [0, raised]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SystemExit, match=r"no action 'R7' at node 0: the page shows \['F', 'C', 'R6'"):
        script.screenshot(path, out, walk=("R7",))
