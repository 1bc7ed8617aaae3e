"""Screenshots of `pyrope serve`'s pages for docs/web.md, taken in headless Chromium (Selenium): the
front page, a game against Pyrope with its thinking shown (docs/images/web-chess.png), the review
of Morphy's Opera Game (docs/images/web-analysis.png), a game of Mill (docs/images/web-mill.png) and
one of Kriegspiel (docs/images/web-kriegspiel.png), and the four game pages at half size in one
picture for README (docs/images/web-pages.png). The server runs in this process, as in tests/web;
the PNGs are cut to 256 colours (Pillow, matplotlib's companion), to stay small.

    python3 bench/web_screenshots.py [--out docs/images]
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))     # the server and browser helpers the web tests use

from web_support import chromium, missing, served  # noqa: E402

TIMEOUT = 120
OPERA_GAME = """[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5
10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8
17. Rd8# 1-0
"""
OPENING = ["e2e4", "g1f3", "f1c4", "b1c3", "d2d3", "e1g1", "c1e3", "h2h3", "a2a3", "d1e2"]    # the person's moves, as far as legal


def wait(driver, condition, what: str):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, TIMEOUT, poll_frequency=0.1).until(lambda _: condition(), message=what)


def save(driver, path: Path) -> None:
    from PIL import Image

    driver.save_screenshot(str(path))
    with Image.open(path) as image:
        image.convert("RGB").quantize(256).save(path, optimize=True)


def montage(paths: list[Path], out: Path) -> None:
    """`paths` at half size, two to a row, in one picture."""
    from PIL import Image

    images = [Image.open(path).convert("RGB") for path in paths]
    width, height = images[0].width // 2, images[0].height // 2
    sheet = Image.new("RGB", (2 * width, (len(images) + 1) // 2 * height), "white")
    for number, image in enumerate(images):
        sheet.paste(image.resize((width, height), Image.LANCZOS), (number % 2 * width, number // 2 * height))
    sheet.quantize(256).save(out, optimize=True)


def chess_screenshot(driver, address: str, path: Path) -> None:
    """Pyrope (at 3 s a move) thinking on its first reply out of its book."""
    import chess
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(address + "chess")
    Select(driver.find_element(By.ID, "time")).select_by_visible_text("3 s a move")
    driver.find_element(By.ID, "new").click()
    status, depth = driver.find_element(By.ID, "status"), driver.find_element(By.ID, "depth")
    board = driver.find_element(By.CSS_SELECTOR, "svg.board")
    for move in OPENING:
        wait(driver, lambda: status.text == "Your move.", "the person's turn")
        before = board.get_attribute("data-fen")
        position = chess.Board(before)
        if chess.Move.from_uci(move) not in position.legal_moves:
            move = next(iter(position.legal_moves)).uci()
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{move[:2]}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{move[2:4]}"]').click()
        wait(driver, lambda: board.get_attribute("data-fen") != before, f"the page to play {move}")
        # Either a book reply (the person moves again) or a search deep enough to show.
        wait(driver, lambda: status.text == "Your move." or depth.text.startswith("depth ") and
             int(depth.text.split()[1].split("/")[0]) >= 8, "Pyrope's reply")
        if status.text != "Your move.":
            save(driver, path)
            return
    raise RuntimeError("Pyrope answered every move from its book")


def analysis_screenshot(driver, address: str, path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.get(address + "analysis")
    driver.execute_script("document.getElementById('pgn-input').value = arguments[0]", OPERA_GAME)
    driver.find_element(By.ID, "analyse").click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#marks li"), "the review")
    driver.find_element(By.CSS_SELECTOR, "#marks li").click()      # the board at the first marked move
    save(driver, path)


def mill_screenshot(driver, address: str, path: Path) -> None:
    """Nine men's morris after five clicks of the person's (each the first point the page
    offers), Pyrope's thinking beside it."""
    from selenium.webdriver.common.by import By

    driver.get(address + "mill")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")
    for _ in range(5):
        wait(driver, lambda: status.text == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "circle.offered"),
             "the person's turn")
        driver.find_elements(By.CSS_SELECTOR, "circle.offered")[0].click()
    wait(driver, lambda: status.text == "Your turn." and driver.find_element(By.ID, "pv").text, "Pyrope's thinking")
    save(driver, path)


def kriegspiel_screenshot(driver, address: str, path: Path) -> None:
    """Kriegspiel against the random player after four of the person's tries, as the referee
    answered them."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(address + "kriegspiel")
    Select(driver.find_element(By.ID, "opponent")).select_by_value("random")
    driver.find_element(By.ID, "new").click()
    status = driver.find_element(By.ID, "status")
    def said() -> int:
        return len(driver.find_elements(By.CSS_SELECTOR, "#log li"))

    for move in ("e2e4", "d2d4", "g1f3", "f1d3"):
        wait(driver, lambda: status.text == "Your try.", "the person's turn")
        before = said()
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{move[:2]}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'rect[data-square="{move[2:]}"]').click()
        wait(driver, lambda: said() > before and status.text == "Your try.", f"the referee's answer to {move}")
    save(driver, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder of the PNGs (default: docs/images)")
    args = parser.parse_args()
    lacking = missing() + ([] if importlib.util.find_spec("PIL") else ["Pillow"])
    if lacking:
        print(f"needs {', '.join(lacking)}: apt-get install chromium chromium-driver; pip install '.[web]' selenium pillow",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with served() as address, chromium(1200, 760) as driver:
        for name, take in (("web-front", lambda d, a, p: (d.get(a), save(d, p))), ("web-chess", chess_screenshot),
                           ("web-analysis", analysis_screenshot), ("web-mill", mill_screenshot),
                           ("web-kriegspiel", kriegspiel_screenshot)):
            path = args.out / f"{name}.png"
            take(driver, address, path)
            print(f"{path}: {path.stat().st_size / 1024:.0f} KB")
    pages = args.out / "web-pages.png"
    montage([args.out / f"web-{name}.png" for name in ("chess", "analysis", "mill", "kriegspiel")], pages)
    print(f"{pages}: {pages.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
