"""The pages in a real browser (headless Chromium under Selenium): a whole game against Pyrope
played by clicking (its first move dragged) to a result, the PGN the page shows read back by
python-chess; a review of an uploaded game whose 4.Qf3 misses Qxf7#, found marked a blunder on the
page with the mate as the better move; a Mill game to its end and Kriegspiel tries by clicking. Skipped when Chromium, its driver or Selenium is missing."""
from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from web_support import chosen_move, chromium, missing, served

pytestmark = [pytest.mark.skipif(bool(missing()), reason=f"needs {', '.join(missing())} (Debian: apt-get install "
                                                             "chromium chromium-driver; pip install '.[web]' selenium)"),
              pytest.mark.xdist_group("browser")]       # one browser at a time

TIMEOUT = 60        # seconds for the page to answer one step; a hang guard, not a measure
MAX_MOVES = 150     # the person's moves before resigning: the game ends either way
SCHOLAR_BLUNDER = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 Bc5 *"


@pytest.fixture(scope="module")
def site():
    with served() as address, chromium() as driver:
        yield address, driver


def wait(driver, condition, what: str):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, TIMEOUT, poll_frequency=0.05).until(lambda _: condition(), message=what)


def test_a_whole_game_by_clicking(site):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, driver = site
    driver.get(address + "chess")
    Select(driver.find_element(By.ID, "time")).select_by_visible_text("0.1 s a move")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")

    def square(name: str):
        return driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{name}"]')

    def page_fen() -> str:
        return driver.find_element(By.CSS_SELECTOR, "svg.board").get_attribute("data-fen")

    rng = random.Random(65)
    for number in range(MAX_MOVES):
        wait(driver, lambda: status.text == "Your move." or status.get_attribute("data-result"), "the person's turn")
        if status.get_attribute("data-result"):
            break
        board = chess.Board(page_fen())
        move = chosen_move(board, rng)
        before = page_fen()
        source, target = chess.square_name(move.from_square), chess.square_name(move.to_square)
        if number == 0:
            # By offset: the board redraws as the piece is picked up, so the target's element changes.
            start, end = square(source).rect, square(target).rect
            ActionChains(driver).click_and_hold(square(source)).move_by_offset(
                end["x"] - start["x"], end["y"] - start["y"]).release().perform()
        else:
            square(source).click()
            square(target).click()
        if move.promotion:
            driver.find_element(By.CSS_SELECTOR, f'button[data-promotion="{chess.piece_symbol(move.promotion)}"]').click()
        wait(driver, lambda: page_fen() != before, f"the page to play {move.uci()}")
    else:
        driver.find_element(By.ID, "resign").click()
        wait(driver, lambda: status.get_attribute("data-result"), "the resignation")

    result = status.get_attribute("data-result")
    game = chess.pgn.read_game(io.StringIO(driver.find_element(By.ID, "pgn").get_attribute("textContent")))
    assert not game.errors and game.headers["Result"] == result
    final = game.end().board()
    assert len(final.move_stack) >= 2
    if "resignation" not in status.text:
        outcome = final.outcome(claim_draw=True)
        assert outcome is not None and outcome.result() == result, status.text


def test_a_review_marks_the_blunder(site, tmp_path):
    """The game uploaded as a file, reviewed at 0.3 s a position."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, driver = site
    driver.get(address + "analysis")
    upload = tmp_path / "scholar.pgn"
    upload.write_text(SCHOLAR_BLUNDER + "\n")
    driver.find_element(By.ID, "pgn-file").send_keys(str(upload))
    text = driver.find_element(By.ID, "pgn-input")
    wait(driver, lambda: text.get_attribute("value").strip() == SCHOLAR_BLUNDER, "the file read into the page")
    Select(driver.find_element(By.ID, "movetime")).select_by_visible_text("0.3 s")
    driver.find_element(By.ID, "analyse").click()
    marked = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#marks li[data-verdict="blunder"][data-san="Qf3"]'),
                  "4.Qf3 marked a blunder")
    assert marked[0].get_attribute("data-best") == "Qxf7#" and "Qxf7# was best" in marked[0].text
    assert driver.find_elements(By.CSS_SELECTOR, '#graph circle[data-verdict="blunder"]')
    progress = driver.find_element(By.ID, "progress")
    assert progress.get_attribute("value") == progress.get_attribute("max") == "9"


def test_a_mill_game_by_clicking(site):
    """Nine men's morris against Pyrope at 0.1 s a turn: the person clicks points the page offers
    (its targets) until each turn goes, to the end; the turns the page lists replay in the Mill
    referee written from the rules, which gives the page's result."""
    import dataclasses

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from mill_reference import Referee, parse_turn
    from pyrope.mill.rules import VARIANTS

    address, driver = site
    driver.get(address + "mill")
    Select(driver.find_element(By.ID, "movetime")).select_by_visible_text("0.1 s")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")
    rng = random.Random(65)
    pass_button = driver.find_element(By.ID, "pass")

    def offered():
        return driver.find_elements(By.CSS_SELECTOR, "#mill-board circle.offered")

    for _ in range(10 * MAX_MOVES):
        # The person's turn shows as points offered (or Pass); a turn sent shows none until the answer.
        wait(driver, lambda: status.get_attribute("data-result") or status.text == "Your turn." and
             (offered() or pass_button.is_displayed()), "the person's turn")
        if status.get_attribute("data-result"):
            break
        targets = offered()
        if targets:
            rng.choice(targets).click()
        else:
            pass_button.click()
    result = status.get_attribute("data-result")
    assert result, "no result"
    referee = Referee(dataclasses.asdict(VARIANTS["nine"]))
    for item in driver.find_elements(By.CSS_SELECTOR, "#moves li"):
        turn = item.text.split()[-1]
        assert parse_turn(turn) in referee.turns(), turn
        referee.play(parse_turn(turn))
    assert referee.outcome()[0] == result


def test_a_kriegspiel_game_shows_only_your_men_until_the_end(site):
    """A try made by clicking is played and announced; the board shows White's men only until
    the resignation, then the full board and the referee's PGN."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, driver = site
    driver.get(address + "kriegspiel")
    Select(driver.find_element(By.ID, "opponent")).select_by_value("random")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")

    def placement() -> str:
        return driver.find_element(By.CSS_SELECTOR, "svg.board").get_attribute("data-fen").split()[0]

    wait(driver, lambda: status.text == "Your try.", "the person's turn")
    driver.find_element(By.CSS_SELECTOR, 'rect[data-square="e2"]').click()
    driver.find_element(By.CSS_SELECTOR, 'rect[data-square="e4"]').click()
    wait(driver, lambda: status.text == "Your try." and placement() != "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR", "e2e4 played")
    log = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert log[-3:-1] == ["You: e2e4", "Referee: Black's move"], log
    assert placement() == "8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR"        # no black man shown
    driver.find_element(By.ID, "resign").click()
    wait(driver, lambda: status.get_attribute("data-result") == "0-1", "the resignation")
    full = chess.Board(placement() + " w - - 0 1")
    assert len(full.pieces(chess.PAWN, chess.BLACK)) == 8 and full.piece_at(chess.E4) == chess.Piece.from_symbol("P")
    # The announcement after Black's reply, as python-chess counts White's pawn captures then
    # (Black's first move can give no check): "White's move", with ", N pawn try/tries" if any.
    tries = sum(1 for move in full.legal_moves if full.piece_type_at(move.from_square) == chess.PAWN
                and full.is_capture(move))
    said = "" if not tries else f", {tries} pawn {'try' if tries == 1 else 'tries'}"
    assert log[-1] == f"Referee: White's move{said}", (log, full.fen())
    game = chess.pgn.read_game(io.StringIO(driver.find_element(By.ID, "pgn").get_attribute("textContent")))
    assert [move.uci() for move in game.mainline_moves()][0] == "e2e4" and game.headers["Result"] == "0-1"
