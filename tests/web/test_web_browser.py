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


def texts(driver, selector: str) -> list[str]:
    """The text of every element `selector` finds, read in one script: a page that redraws under
    a slower, element-by-element reader leaves it holding stale elements."""
    return driver.execute_script(f"return [...document.querySelectorAll('{selector}')].map((e) => e.innerText)")


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


def test_a_promotion_chosen_on_the_page(site):
    """From a FEN typed into the page, a pawn on a7 moved to a8: the page asks for the piece, and
    the knight chosen is what the board and the PGN (read back by python-chess) show."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, driver = site
    driver.get(address + "chess")
    Select(driver.find_element(By.ID, "time")).select_by_visible_text("0.1 s a move")
    driver.find_element(By.ID, "fen").send_keys("8/P7/8/8/8/8/k7/4K3 w - - 0 1")
    driver.find_element(By.ID, "new").click()
    status, board = driver.find_element(By.ID, "status"), driver.find_element(By.CSS_SELECTOR, "svg.board")
    wait(driver, lambda: status.text == "Your move." and board.get_attribute("data-fen").startswith("8/P7/"),
         "the position from the FEN")
    driver.find_element(By.CSS_SELECTOR, 'rect[data-square="a7"]').click()
    driver.find_element(By.CSS_SELECTOR, 'rect[data-square="a8"]').click()
    choices = {button.get_attribute("data-promotion") for button in
               driver.find_elements(By.CSS_SELECTOR, "button[data-promotion]")}
    assert choices == {"q", "r", "b", "n"}
    driver.find_element(By.CSS_SELECTOR, 'button[data-promotion="n"]').click()
    wait(driver, lambda: board.get_attribute("data-fen").startswith("N7/"), "the knight on a8")
    game = chess.pgn.read_game(io.StringIO(driver.find_element(By.ID, "pgn").get_attribute("textContent")))
    assert game.headers["FEN"] == "8/P7/8/8/8/8/k7/4K3 w - - 0 1"
    assert game.next().move == chess.Move.from_uci("a7a8n")


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
    for item in texts(driver, "#moves li"):
        turn = item.split()[-1]
        assert parse_turn(turn) in referee.turns(), turn
        referee.play(parse_turn(turn))
    assert referee.outcome()[0] == result


def test_mill_flying_and_a_removal_by_clicking(site):
    """From a FEN typed into the page, White with three men flies g7 to a7 (not a neighbour),
    closing the mill a1-a4-a7, and removes b2; Pyrope answers and the person resigns. The turns the
    page lists replay in the reference referee from that FEN, the flight and the removal among them."""
    import dataclasses

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from selenium.common.exceptions import StaleElementReferenceException

    from mill_reference import Referee, geometry, parse_turn
    from pyrope.mill.rules import VARIANTS

    fen = "..O/.../..@/O...@./@../@@./O.. w 0 0 0 0 20"
    address, driver = site
    driver.get(address + "mill")
    Select(driver.find_element(By.ID, "movetime")).select_by_visible_text("0.1 s")
    driver.find_element(By.ID, "fen").send_keys(fen)
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")

    def offered() -> set[str]:       # read in one script: the board is redrawn under a slower reader
        return set(driver.execute_script(
            "return [...document.querySelectorAll('#mill-board circle.offered')].map((c) => c.dataset.point)"))

    def click(point: str) -> None:
        def clicked() -> bool:
            try:
                driver.find_element(By.CSS_SELECTOR, f'#mill-board circle[data-point="{point}"]').click()
                return True
            except StaleElementReferenceException:
                return False
        wait(driver, clicked, f"a click on {point}")

    wait(driver, lambda: status.text == "Your turn." and offered() == {"a1", "a4", "g7"}, "White's three men offered")
    click("g7")
    adjacency, _ = geometry(False)
    targets = wait(driver, lambda: offered() - {"g7"}, "the points g7 may fly to")
    assert "a7" in targets and targets - adjacency["g7"], targets      # the whole empty board, not the neighbours
    click("a7")
    wait(driver, lambda: offered() == {"b2", "c3", "d2", "e5", "f4"}, "Black's men offered for removal")
    click("b2")
    turns = lambda: [item.split()[-1] for item in texts(driver, "#moves li")]
    wait(driver, lambda: len(turns()) >= 2 and status.text == "Your turn.", "Pyrope's answer")
    driver.find_element(By.ID, "resign").click()
    wait(driver, lambda: status.get_attribute("data-result") == "0-1", "the resignation")
    referee = Referee.from_fen(dataclasses.asdict(VARIANTS["nine"]), fen)
    assert turns()[0] == "g7-a7xb2"
    for turn in turns():
        assert parse_turn(turn) in referee.turns(), turn
        referee.play(parse_turn(turn))
    assert "b2" not in referee.stones and referee.stones["a7"] == 0
    # Three men each: the databases hold the position and the page says what they say.
    driver.find_element(By.ID, "fen").clear()
    driver.find_element(By.ID, "fen").send_keys("..O/.../..@/O...../.../@@./O.. w 0 0 0 0 20")
    driver.find_element(By.ID, "new").click()
    database = driver.find_element(By.ID, "database")
    wait(driver, lambda: database.get_attribute("data-result") == "1-0", "the databases' verdict")
    assert database.text == "The perfect database: White wins in 1 turn with best play."


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


def test_a_kriegspiel_game_to_its_end_as_the_referee_announced_it(site):
    """White by clicking against the page's default opponent (Pyrope's strongest Kriegspiel
    player), each try drawn from the moves the page offers (one refused is not tried again that
    turn), until the rules end the game. The referee's PGN the page shows then replays in our
    referee, whose every word -- refusals, captures, checks, pawn tries -- is the line the page's
    log showed, in order, with the page's result; and python-chess finds every move legal on the
    full board and the same end."""
    from selenium.webdriver.common.by import By

    from pyrope.kriegspiel import Referee
    from pyrope.kriegspiel.pgn import read_game

    address, driver = site
    driver.get(address + "kriegspiel")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")
    rng, refused = random.Random(65), set()

    def page() -> dict:
        return driver.execute_script("""const board = document.querySelector('svg.board'), status = document.getElementById('status');
            return {legal: board.dataset.legal, status: status.textContent, result: status.dataset.result,
                    log: [...document.querySelectorAll('#log li')].map((item) => item.textContent)};""")

    for _ in range(20 * MAX_MOVES):
        state = wait(driver, lambda: (lambda seen: seen if seen["result"] or seen["status"] == "Your try." else None)(page()),
                     "the person's try")
        if state["result"]:
            break
        tries = sorted(set(state["legal"].split()) - refused)
        move = chess.Move.from_uci(rng.choice(tries))
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{chess.square_name(move.from_square)}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{chess.square_name(move.to_square)}"]').click()
        if move.promotion:
            driver.find_element(By.CSS_SELECTOR, f'button[data-promotion="{chess.piece_symbol(move.promotion)}"]').click()
        said = wait(driver, lambda: (lambda seen: seen if len(seen["log"]) > len(state["log"]) else None)(page()),
                    f"the referee's answer to {move.uci()}")
        refused = refused | {move.uci()} if said["log"][len(state["log"]) + 1] == "Referee: Illegal move" else set()
    state = page()
    assert state["result"], "the game did not end"
    text = driver.find_element(By.ID, "pgn").get_attribute("textContent")

    referee = Referee()
    heard = ["Referee: " + ", ".join(referee.opening.messages())]
    for ply in read_game(text).plies:
        for refusal in ply.refused:
            assert not referee.try_move(refusal).legal, refusal
            heard += [f"You: {refusal}", "Referee: Illegal move"] if ply.mover == chess.WHITE else []
        answer = referee.try_move(ply.move)
        assert answer.legal, ply.move
        heard += ([f"You: {ply.move}"] if ply.mover == chess.WHITE else []) + ["Referee: " + ", ".join(answer.announcement.messages())]
    assert state["log"] == heard
    assert referee.outcome is not None and referee.outcome.result() == state["result"]
    game = chess.pgn.read_game(io.StringIO(text.replace('[Variant "Kriegspiel"]\n', "")))
    assert not game.errors and game.end().board().outcome(claim_draw=True).result() == state["result"]
