"""Screenshots of the browser page for the README: the lobby, each registered game's match page as a seat sees
it in mid-game, and a replay. Starts the service (gunicorn, a throwaway SQLite file) and a headless Chromium
(Debian's chromium and chromium-driver, as in the browser tests), and writes PNG files into docs/screenshots/.

    pip install ".[service]" selenium                  # and Debian's chromium and chromium-driver
    python docs/screenshots.py                         # from the repository's root
    python docs/screenshots.py sparks --out /tmp/shots # one game's match page only, elsewhere

(``PYTHONPATH=src`` only after ``python setup.py build_ext --inplace``: the source folder holds no compiled
modules otherwise.)
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

import robotcore
from robotcore_api.client import Client

OUT = Path(__file__).resolve().parent / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1400,1200", "--force-device-scale-factor=1"]
#: how far into each game the seat's picture is taken (its own decisions, played at random)
MOVES = {"robotrick": 9, "nicodemus": 8}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def whole_page(driver: webdriver.Chrome, path: Path) -> None:
    """A picture of the whole page (up to 2,400 px tall), not only of the window's first screen."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(1400, min(max(height, 800), 2400))
    time.sleep(0.2)
    driver.save_screenshot(str(path))
    driver.set_window_size(1400, 1200)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", choices=[[], *robotcore.list_games()], metavar="GAME",
                        help="only these games' match pages (default: every game, the replay and the lobby)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG files go (default: %(default)s)")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    everything = not args.games
    work = Path(tempfile.mkdtemp(prefix="robotcore-shots-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, ROBOTCORE_DATABASE_URL=f"sqlite:///{work / 'shots.db'}",
               ROBOTCORE_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2")
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:robotcore_api.gunicorn_conf"],
                              cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={work / 'profile'}")
    options.binary_location = shutil.which("chromium") or "chromium"
    driver = None
    try:
        for _ in range(100):
            try:
                if Client(url, retries=0, timeout=2).request("GET", "/v1/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        client = Client(url)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
        wait = WebDriverWait(driver, 20)
        rng = random.Random(7)
        finished = None
        for name in args.games or robotcore.list_games():
            n = robotcore.load_game(name).num_players
            created = client.create_match(name, seed=7, listed=True,
                                          seats=[{"type": "human"}] + [{"type": "bot", "bot": "greedy"}] * (n - 1))
            match_id = created["match_id"]
            token = created["seats"][0]["token"]
            for _ in range(MOVES.get(name, 6)):
                view = client.view(match_id, token)
                if not view["to_act"]:
                    break
                client.move(match_id, token, {"id": rng.choice(view["legal_actions"])["id"]}, view["version"])
            driver.get(f"{url}/play/{match_id}#token={token}")
            wait.until(lambda d: d.find_element("tag name", "body").get_attribute("data-version"))
            time.sleep(0.5)
            whole_page(driver, out / f"{name}.png")
            print("wrote", out / f"{name}.png")
            if name == "robotrick":
                while True:                                    # to the end, for the replay's picture
                    view = client.view(match_id, token)
                    if view["status"] == "finished":
                        break
                    client.move(match_id, token, {"id": rng.choice(view["legal_actions"])["id"]}, view["version"])
                finished = match_id
        if finished and everything:
            driver.get(f"{url}/replay/{finished}")
            wait.until(lambda d: d.find_element("tag name", "body").get_attribute("data-step") == "0")
            slider = driver.find_element("id", "step")
            driver.execute_script("arguments[0].value = 60; arguments[0].dispatchEvent(new Event('input'))", slider)
            wait.until(lambda d: d.find_element("tag name", "body").get_attribute("data-step") == "60")
            time.sleep(0.3)
            whole_page(driver, out / "replay.png")
            print("wrote", out / "replay.png")
        if not everything:
            return 0
        driver.get(url + "/")
        wait.until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")
        time.sleep(0.3)
        driver.save_screenshot(str(out / "lobby.png"))
        print("wrote", out / "lobby.png")
        client.close()
    finally:
        if driver is not None:
            driver.quit()
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
