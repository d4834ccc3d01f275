"""The browser page in a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium),
against the service as it runs in production (gunicorn, several workers, a SQLite file).

- the lobby creates a match and hands out one link per human seat, its token in the fragment;
- a full Robotrick and a full Nicodemus match played by clicking (cards and action buttons; the other seats
  are the server's bots), checking at every decision that the seat's page shows no card the seat cannot see
  (the DOM's cards against that seat's view, and against every other hand, read from the store);
- a spectator's page updating live while a seat moves (no reload);
- the replay of a finished match step by step (slider, buttons), each step's cards against its public view;
- view texts holding markup are shown as text, by every renderer;
- every request the browser sent: no token in any URL, only documented endpoints of /v1, the token only in
  the Authorization header.

Skipped, with the reason, when no browser is installed (``.ci/run`` installs one).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if sys.platform == "win32":
    pytest.skip("the live server (gunicorn) runs on POSIX only", allow_module_level=True)
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no browser: install Debian's chromium and chromium-driver (apt-get install chromium "
                "chromium-driver; .ci/run does) to run the browser tests", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")

from selenium.common.exceptions import (  # noqa: E402
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import robotcore  # noqa: E402
from robotcore_api.client import Client  # noqa: E402
from robotcore_api.store import Store  # noqa: E402

from ..conftest import json_strings  # noqa: E402
from .conftest import OPENAPI_PATH  # noqa: E402
from .test_live import LiveServer  # noqa: E402

CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000"]
WAIT_S = 20


# -- fixtures -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    workdir = tmp_path_factory.mktemp("browser")
    srv = LiveServer(f"sqlite:///{workdir / 'browser.db'}", workdir).start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        # a throwaway server whose pages' long-polls may still be waiting: no graceful stop needed
        os.killpg(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait(15)


class Browser:
    """One Chromium for the module; every request it sends is recorded (the performance log) and checked."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.profile = tempfile.mkdtemp(prefix="robotcore-chromium-")
        options = webdriver.ChromeOptions()
        for flag in CHROME_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.binary_location = CHROMIUM
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        self.driver: WebDriver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.requests: list[dict[str, Any]] = []
        self.console: list[dict[str, Any]] = []

    def get(self, path: str) -> None:
        self.driver.get(self.base_url + path)

    def drain(self) -> list[dict[str, Any]]:
        """The requests sent since the last call (url, method, headers), added to ``self.requests``."""
        new = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                request = message["params"]["request"]
                new.append({"url": request["url"], "method": request["method"],
                            "headers": request.get("headers", {})})
        self.requests += new
        self.console += self.driver.get_log("browser")
        return new

    def wait(self, condition: Callable[[WebDriver], Any], timeout: float = WAIT_S) -> Any:
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)

    def body(self, name: str) -> str | None:
        value: str | None = self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-" + name)
        return value

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(server: LiveServer) -> Iterator[Browser]:
    try:
        b = Browser(server.url)
    except WebDriverException as exc:                      # pragma: no cover - a broken browser install
        pytest.skip(f"Chromium did not start: {exc.msg}")
    yield b
    b.quit()


#: every token the tests were given: none may ever appear in a URL the browser requested
TOKENS: set[str] = set()


def create(server: LiveServer, game: str, seats: list[dict[str, Any]], seed: int, **body: Any) -> tuple[str, str]:
    client = Client(server.url)
    created = client.create_match(game, seats=seats, seed=seed, **body)
    client.close()
    token = next(s["token"] for s in created["seats"] if s["token"])
    TOKENS.add(token)
    return created["match_id"], token


def bots(n: int, bot: str = "random") -> list[dict[str, Any]]:
    return [{"type": "bot", "bot": bot}] * n


def dom_cards(b: Browser) -> list[str]:
    """The cards on the table, each drawing of a card once: a chip a renderer marks as drawn again (``again()`` in
    common.js: the same card drawn elsewhere too) is left out, once checked that it is drawn elsewhere."""
    cards: list[list[Any]] = b.driver.execute_script(
        "return Array.from(document.querySelectorAll('#board [data-card]'),"
        "                  e => [e.dataset.card, e.dataset.again !== undefined])")
    once = [c for c, again in cards if not again]
    twice = {c for c, again in cards if again}
    assert twice <= set(once), f"cards marked as drawn again that are drawn nowhere else: {twice - set(once)}"
    return once


def copies(doc: Any) -> Counter[str]:
    """How many copies of each string a JSON document accounts for: one per occurrence, and a string key with a
    count as its value stands for that many ({"P-MC": 2}: two P-MC cards, as Smartphone's hands are written)."""
    out: Counter[str] = Counter()
    if isinstance(doc, str):
        out[doc] += 1
    elif isinstance(doc, dict):
        for k, v in doc.items():
            out[str(k)] += v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 1
            out += copies(v)
    elif isinstance(doc, list):
        for v in doc:
            out += copies(v)
    return out


#: Parts of a seat's own entry of ``players`` that repeat what its own hand already says (Smartphone: the cards of
#: its hand the others have seen): not counted again
REPEATS_HAND = {"smartphone": ("known_in_hand",)}


def page_copies(view: Any, legal: Any) -> Counter[str]:
    """The copies of each card a seat's page may show: what its view and its legal actions account for, but for
    the parts of the seat's own entry that repeat its hand (``REPEATS_HAND``)."""
    allowed = copies(view)
    seat = view.get("seat") if isinstance(view, dict) else None
    players = view.get("players") if isinstance(view, dict) else None
    if isinstance(seat, int) and isinstance(players, list) and seat < len(players):
        for key in REPEATS_HAND.get(view.get("game"), ()):
            allowed -= copies(players[seat].get(key))
    return allowed | copies(legal)


def beyond(shown: list[str], allowed: Counter[str]) -> dict[str, int]:
    """The cards shown more often than ``allowed`` accounts for, with how many copies too many."""
    return {card: n - allowed[card] for card, n in Counter(shown).items() if n > allowed[card]}


def check_seat_page(b: Browser, server: LiveServer, store: Store, match_id: str, token: str | None) -> int:
    """The page shows the match at the version the service has, and no card this seat cannot see."""
    client = Client(server.url)
    try:
        for _ in range(10):         # a bot seat's late move may carry the page past the view just read: read again
            view = client.view(match_id, token)
            try:
                b.wait(lambda d, v=view["version"]: int(b.body("version") or -1) >= v)
            except TimeoutException:
                raise AssertionError(f"the page stayed at version {b.body('version')} while the service is at "
                                     f"{view['version']}; console: {b.driver.get_log('browser')}") from None
            shown = dom_cards(b)
            if b.body("version") == str(view["version"]):
                break
        else:
            raise AssertionError("the page and the service never showed the same version")
    finally:
        client.close()
    assert shown, "the board shows no card"
    # by copies, not only by name: Smartphone names its cards by kind, so a card of a kind the seat sees elsewhere
    # would pass a check by name
    extra = beyond(shown, page_copies(view["view"], view["legal_actions"]))
    assert not extra, f"cards on the page that the view does not hold: {extra}"
    rec = store.get_match(match_id)
    assert rec is not None
    if rec.version == view["version"]:      # against the engine's own view of this seat, not the service's
        state = robotcore.load_game(rec.game, **rec.params).from_bytes(rec.state)
        leaked = beyond(shown, page_copies(state.view(view["seat"]), view["legal_actions"]))
        assert not leaked, f"seat {view['seat']} sees cards its view does not hold: {leaked}"
    return int(view["version"])


#: The page as the clicking loop sees it, in one look: [version, [[target, how many actions its click filters the
#: side panel to (0: it plays)]...]] (a card or anything clickable on the table that stands for several actions
#: filters the action buttons to those instead of playing, and then the version stays)
PAGE_TARGETS = """
const buttons = document.querySelectorAll('#actions button.action').length;
const targets = document.querySelectorAll('#board [data-pick], #board button[data-ids], #actions button.action:not([disabled])');
return [document.body.dataset.version,
        Array.from(targets, (e) => [e, Number(e.dataset.picks || 0) > 1 && buttons > 1 ? Number(e.dataset.picks) : 0])];
"""


# "What just happened" against the version shown, read in one script (the panel may be redrawn meanwhile): the
# versions listed, and those it should list (the last twelve, without a gap)
EVENTS_SHOWN = """
const v = Number(document.body.dataset.version);
const shown = [...document.querySelectorAll('#events li[data-version]')].map((e) => Number(e.dataset.version));
const want = [];
for (let k = v; k > Math.max(0, v - 12); k--) want.push(k);
return [shown, want];
"""


def events_without_a_gap(b: Browser) -> None:
    """The page's "What just happened" lists the last twelve actions up to the version it shows, the bots' moves
    that followed the seat's own included (a move's answer carries the seat's action and the match after the
    bots' moves, not those moves)."""
    try:
        b.wait(lambda d: (lambda got: got[0] == got[1])(d.execute_script(EVENTS_SHOWN)), timeout=5)
    except TimeoutException:
        shown, want = b.driver.execute_script(EVENTS_SHOWN)
        raise AssertionError(f"'What just happened' lists versions {shown}, not {want}") from None


def play_by_clicking(b: Browser, server: LiveServer, match_id: str, token: str, seed: int,
                     max_clicks: int = 400) -> int:
    """Play the seat's decisions by clicking its playable cards or action buttons until the end."""
    store = Store(server.database_url)
    rng = random.Random(seed)
    b.get(f"/play/{match_id}#token={token}")
    clicks = 0
    try:
        while clicks < max_clicks:
            b.wait(lambda d: b.body("status") == "finished" or d.find_elements(
                By.CSS_SELECTOR, "#board [data-pick], #board button[data-ids], #actions button.action:not([disabled])"))
            if b.body("status") == "finished":
                break
            if clicks % 3 == 0:
                check_seat_page(b, server, store, match_id, token)
            # the version, the targets and whether a card click filters the actions, read in one script: the
            # page redraws on every live update (the stream's catch-up redraws the version a move's answer
            # already showed), so separate reads could see two different drawings (an element gone stale)
            before, targets = b.driver.execute_script(PAGE_TARGETS)
            if not targets:
                continue
            target, filtering = rng.choice(targets)
            try:
                b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
                target.click()
            except (StaleElementReferenceException, ElementNotInteractableException):
                continue                                   # redrawn meanwhile (a live update): look again
            clicks += 1
            if filtering:
                # the side panel now lists exactly the actions the clicked thing stands for (unless a live update
                # redrew the page meanwhile, which shows every action again)
                try:
                    b.wait(lambda d, before=before, n=filtering: b.body("version") != before or len(
                        d.find_elements(By.CSS_SELECTOR, "#actions button.action")) == n, timeout=5)
                except TimeoutException:
                    shown = b.driver.find_element(By.ID, "actions").text
                    raise AssertionError(f"a click on a part of the table standing for {filtering} actions left "
                                         f"the side panel showing: {shown!r}") from None
            else:
                try:
                    b.wait(lambda d, before=before: b.body("version") != before or b.body("status") == "finished")
                except TimeoutException:
                    raise AssertionError(
                        f"the page stayed at version {before} after a click; error shown: "
                        f"{b.driver.find_element(By.ID, 'error').text!r}; console: {b.driver.get_log('browser')}"
                    ) from None
                events_without_a_gap(b)
    finally:
        store.dispose()
    assert b.body("status") == "finished", f"not over after {clicks} clicks"
    b.wait(lambda d: "The match is over" in d.find_element(By.ID, "turn").text)
    return clicks


# -- the tests ----------------------------------------------------------------------------------------------------


def test_lobby_creates_a_match_and_hands_out_fragment_links(browser: Browser) -> None:
    b = browser
    b.get("/")
    b.wait(lambda d: b.body("ready") == "true")
    Select(b.driver.find_element(By.ID, "game")).select_by_value("robotrick")
    b.wait(lambda d: d.find_elements(By.ID, "seat-2"))
    Select(b.driver.find_element(By.ID, "seat-1")).select_by_value("random")
    Select(b.driver.find_element(By.ID, "seat-2")).select_by_value("greedy")
    b.driver.find_element(By.ID, "seed").send_keys("11")
    b.driver.find_element(By.ID, "submit").click()
    link = b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "a.seat-link"))[0]
    href = link.get_attribute("href")
    assert len(b.driver.find_elements(By.CSS_SELECTOR, "a.seat-link")) == 1      # one human seat
    match = re.fullmatch(r"http://127\.0\.0\.1:\d+/play/([A-Za-z0-9_-]+)#token=([A-Za-z0-9_-]+)", href)
    assert match, href
    match_id, token = match.groups()
    TOKENS.add(token)
    # the new match is listed, with its bots
    b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, f'#recent tr[data-match="{match_id}"]'))
    row = b.driver.find_element(By.CSS_SELECTOR, f'#recent tr[data-match="{match_id}"]').text
    assert "robotrick" in row and "random" in row and "greedy" in row
    link.click()
    b.wait(lambda d: "You play seat 0" in d.find_element(By.ID, "whoami").text)
    b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .card.playable"))
    assert "Your turn" in b.driver.find_element(By.ID, "turn").text
    b.drain()


FINISHED: dict[str, tuple[str, str]] = {}


#: Each game's match played by clicking, in a short variant where the game has one (what is tested is the page:
#: its clicks, its redraws and what it hides, not the rules, which their own tests cover)
CLICKED: dict[str, dict[str, Any]] = {"robotrick": {}, "nicodemus": {}, "scrapyard": {"players": 3, "days": 2},
                                      "sparks": {"players": 2}, "smartphone": {"players": 3, "length": "20"}}


def test_every_game_is_played_by_clicking() -> None:
    assert sorted(CLICKED) == robotcore.list_games()


@pytest.mark.parametrize("game", sorted(CLICKED))
def test_play_a_full_match_by_clicking(browser: Browser, server: LiveServer, game: str) -> None:
    n = robotcore.load_game(game, **CLICKED[game]).num_players
    match_id, token = create(server, game, [{"type": "human"}, *bots(n - 1)], seed=21, listed=True,
                             params=CLICKED[game])
    clicks = play_by_clicking(browser, server, match_id, token, seed=21)
    assert clicks >= 5
    client = Client(server.url)
    log = client.log(match_id, token)
    client.close()
    assert log["status"] == "finished" and all(not e["hidden"] for e in log["entries"])
    human = [e for e in log["entries"] if e["seat"] == 0]
    assert human and all(e["by"] == "human" for e in human)
    # the page shows the outcome the service computed, and offers the replay
    turn = browser.driver.find_element(By.ID, "turn").text
    assert " / ".join(map(str, log["outcome"]["scores"])) in turn
    assert browser.driver.find_elements(By.ID, "replay-link")
    FINISHED[game] = (match_id, token)
    browser.drain()


def test_spectator_page_updates_live(browser: Browser, server: LiveServer) -> None:
    b = browser
    match_id, token = create(server, "robotrick", [{"type": "human"}, *bots(2)], seed=5)
    b.get(f"/play/{match_id}")
    b.wait(lambda d: b.body("version") is not None)
    assert "spectator" in b.driver.find_element(By.ID, "whoami").text
    assert not b.driver.find_elements(By.CSS_SELECTOR, "#actions button.action, #board .card.playable")
    b.driver.execute_script("window.robotcoreMarker = 42")          # gone if the page reloads
    store = Store(server.database_url)
    client = Client(server.url)
    try:
        for _ in range(4):
            view = client.view(match_id, token)
            check_seat_page(b, server, store, match_id, None)
            action = view["legal_actions"][0]
            answer = client.move(match_id, token, {"id": action["id"]}, view["version"])
            version = answer["match"]["version"]
            b.wait(lambda d, v=version: int(b.body("version") or -1) >= v)
            events = b.driver.find_element(By.ID, "events").text
            assert action["text"] in events or view["view"]["phase"] == "pass"   # a pass stays hidden
    finally:
        client.close()
        store.dispose()
    assert b.driver.execute_script("return window.robotcoreMarker") == 42
    # the updates came through the event stream (EventSource), not the long-poll
    assert b.body("live") == "stream"
    sent = [r["url"] for r in b.drain()]
    assert any(u.endswith(f"/v1/matches/{match_id}/stream") for u in sent), sent
    assert not any("/events?" in u and "wait=" in u for u in sent), sent


def test_a_seat_link_pasted_over_a_spectators_page_opens_the_seats_page(browser: Browser,
                                                                         server: LiveServer) -> None:
    """Only the fragment changes (no navigation): the page reads itself anew with the token."""
    b = browser
    match_id, token = create(server, "nicodemus", [{"type": "human"}, *bots(1)], seed=8)
    b.get(f"/play/{match_id}")
    b.wait(lambda d: "spectator" in d.find_element(By.ID, "whoami").text)
    b.driver.execute_script("window.location.hash = arguments[0]", f"token={token}")
    b.wait(lambda d: d.find_element(By.ID, "whoami").text.startswith("You play seat 0"))
    b.drain()


def test_a_solo_game_says_won_or_lost(browser: Browser, server: LiveServer) -> None:
    """One seat: the end says the score and whether the solo goal was reached, not "winner: seat 0" (a lost
    solo game read as won); a random game loses (the target is 50 points)."""
    match_id, token = create(server, "sparks", [{"type": "human"}], seed=9, params={"players": 1})
    client = Client(server.url)
    rng = random.Random(9)
    try:
        while (view := client.view(match_id, token))["status"] != "finished":
            client.move(match_id, token, {"id": rng.choice(view["legal_actions"])["id"]}, view["version"])
        score = view["outcome"]["scores"][0]
        assert view["outcome"]["winners"] == [] and score < 50
    finally:
        client.close()
    browser.get(f"/play/{match_id}#token={token}")
    browser.wait(lambda d: b_text(d, "turn").startswith("The match is over"))
    assert b_text(browser.driver, "turn") == f"The match is over. Score {score}: lost."
    browser.drain()


def b_text(driver: WebDriver, element_id: str) -> str:
    text: str = driver.find_element(By.ID, element_id).text
    return text


def test_spectator_page_falls_back_to_the_long_poll_without_event_source(browser: Browser,
                                                                          server: LiveServer) -> None:
    """A browser without EventSource (removed before the page's scripts run) follows the match by long-poll."""
    b = browser
    script = b.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                      {"source": "delete window.EventSource;"})
    try:
        match_id, token = create(server, "nicodemus", [{"type": "human"}, *bots(1)], seed=6)
        b.get(f"/play/{match_id}")
        b.wait(lambda d: b.body("live") == "poll")
        client = Client(server.url)
        try:
            for _ in range(2):
                view = client.view(match_id, token)
                if view["status"] == "finished":
                    break
                if not view["to_act"]:
                    client.events(match_id, view["version"], 5, token=token)
                    continue
                answer = client.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"])
                version = answer["match"]["version"]
                b.wait(lambda d, v=version: int(b.body("version") or -1) >= v)
        finally:
            client.close()
        sent = [r["url"] for r in b.drain()]
        assert any(f"/v1/matches/{match_id}/events?" in u and "wait=" in u for u in sent), sent
        assert not any(u.endswith("/stream") for u in sent), sent
    finally:
        b.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


@pytest.mark.parametrize("game", sorted(CLICKED))
def test_replay_step_by_step(browser: Browser, server: LiveServer, game: str) -> None:
    if game not in FINISHED:
        pytest.skip("needs the finished match of test_play_a_full_match_by_clicking")
    b = browser
    match_id, token = FINISHED[game]
    b.get(f"/replay/{match_id}")
    b.wait(lambda d: b.body("step") == "0")
    slider = b.driver.find_element(By.ID, "step")
    total = int(slider.get_attribute("max"))
    client = Client(server.url)
    try:
        log = client.log(match_id)
        assert total == log["version"]
        for at in (0, 1, 2, total // 2, total):
            if at:
                b.driver.execute_script("arguments[0].value = arguments[1];"
                                        "arguments[0].dispatchEvent(new Event('input'))", slider, at)
            b.wait(lambda d, at=at: b.body("step") == str(at))
            step = client.replay(match_id, at)
            shown = set(dom_cards(b))
            assert shown <= json_strings(step["view"]), shown - json_strings(step["view"])
            # the spectator's replay shows no hand: nothing the public view at that step does not hold
            past = robotcore.load_game(game, **log["params"]).replay(
                log["reveal"]["seed"], [(e["seat"], e["action"]["id"]) for e in log["entries"][:at]])
            assert step["view"] == past.view(None)
        b.driver.find_element(By.ID, "prev").click()
        b.wait(lambda d: b.body("step") == str(total - 1))
        assert "final scores" not in b.driver.find_element(By.ID, "turn").text
        b.driver.find_element(By.ID, "next").click()
        b.wait(lambda d: b.body("step") == str(total) and "final scores" in d.find_element(By.ID, "turn").text)
        # a seat's viewpoint (the match is over: the log reveals everything)
        Select(b.driver.find_element(By.ID, "viewpoint")).select_by_value("0")
        b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .mine[data-seat='0']"))
        # and the header says whose view it is (it said "spectator" whatever the choice)
        b.wait(lambda d: d.find_element(By.ID, "whoami").text.startswith("Replay, as seat 0"))
        Select(b.driver.find_element(By.ID, "viewpoint")).select_by_value("")
        b.wait(lambda d: d.find_element(By.ID, "whoami").text == "Replay, as a spectator sees it")
    finally:
        client.close()
    b.drain()


def test_markup_in_view_texts_is_shown_as_text(browser: Browser, server: LiveServer) -> None:
    """Every renderer, its own and the generic one, fed a real view whose every text holds markup, with the seat's
    legal actions, content and glossary poisoned alike, shows it as characters: no element, no script run."""
    b = browser
    match_id, _ = create(server, "robotrick", [{"type": "human"}, *bots(2)], seed=3)
    b.get(f"/play/{match_id}")
    b.wait(lambda d: b.body("version") is not None)
    client = Client(server.url)
    seen = {}
    for game in robotcore.list_games():
        n = robotcore.load_game(game).num_players
        mid, token = create(server, game, [{"type": "human"}, *bots(n - 1)], seed=4)
        doc = client.view(mid, token)
        entry = client.request("GET", f"/v1/games/{game}")[1]
        seen[game] = (doc["view"], doc["legal_actions"], entry["content"], entry["glossary"])
    client.close()
    evil = "<script>window.robotcorePwned=1</script><img src=x onerror=\"window.robotcorePwned=2\">"

    def poison(doc: Any, keys: bool) -> Any:
        if isinstance(doc, str):
            return doc + evil
        if isinstance(doc, list):
            return [poison(v, keys) for v in doc]
        if isinstance(doc, dict):
            return {(k + evil if keys else k): poison(v, keys) for k, v in doc.items()}
        return doc

    for game, (view, legal, content, glossary) in seen.items():
        for own in (True, False):
            # the game's own renderer gets the view's keys as they are (it reads them by name) and the actions'
            # JSON intact (the clickable cards are found through it); the generic one gets everything poisoned
            actions = [{**a, "text": a["text"] + evil} for a in legal]
            out = b.driver.execute_async_script("""
                const [game, own, view, actions, content, glossary, done] = arguments;
                Promise.all([import('/page/js/games/index.js'), import('/page/js/games/common.js'),
                             import('/page/js/dom.js')]).then(([m, common, dom]) => {
                  common.useGlossary(glossary);
                  const ctx = {seat: 0, seats: [{type: 'human'}, {type: 'bot', bot: '<b>x</b>'}], actors: [0], content,
                               params: {}, legal: actions, cardActions: () => [], pick: () => {}};
                  const box = document.getElementById('board');
                  try { dom.replace(box, (own ? m.rendererFor(game) : common.renderGeneric)(view, ctx)); }
                  catch (e) { done({error: String(e && e.stack || e)}); return; }
                  setTimeout(() => done({text: box.textContent, titles: Array.from(box.querySelectorAll('[title]'),
                    (e) => e.title).join(' '), scripts: box.querySelectorAll('script').length,
                    imgs: box.querySelectorAll('img').length, bold: box.querySelectorAll('b').length,
                    pwned: window.robotcorePwned || 0}), 100);
                }).catch(e => done({error: String(e)}));
            """, game, own, poison(view, keys=not own), actions, poison(content, keys=False),
                poison(glossary, keys=False))
            assert "error" not in out, (game, own, out)
            assert out["scripts"] == out["imgs"] == out["bold"] == 0 and out["pwned"] == 0, (game, own)
            assert "<script>window.robotcorePwned=1</script>" in out["text"], (game, own)
    b.drain()


#: Draws each view with the game's own renderer (not renderView, whose fallback to the generic renderer would
#: hide a renderer that throws) and reports per view: an error, the cards shown, the clickable cards and the text
RENDER_OWN = """
const [game, params, views, withContent, done] = arguments;
Promise.all([import('/page/js/games/index.js'), import('/page/js/games/common.js'), import('/page/js/dom.js'),
             withContent ? fetch('/v1/games/' + game + '?' + new URLSearchParams(params)).then((r) => r.json()) : Promise.resolve({content: null, glossary: {}})])
  .then(([m, common, dom, entry]) => {
    const render = m.rendererFor(game);
    if (render === common.renderGeneric) { done({own: false}); return; }
    common.useGlossary(entry.glossary);
    const box = document.getElementById('board');
    const out = views.map(([seat, view, actions], k) => {
      const ctx = {content: entry.content, seat, seats: view.players ? view.players.map(() => ({type: 'human'})) : [], actors: view.actors || [],
                   legal: actions, cardActions: (text) => actions.filter((a) => Object.values(a.json).some(
                     (v) => v === text || (Array.isArray(v) && v.includes(text)))),
                   pick: (text, picked, heading) => heads.push([heading, picked.map((a) => a.id)])};
      const heads = [];
      try {
        dom.replace(box, m.renderOwn(game, view, ctx));
        box.querySelectorAll('[data-pick]').forEach((e) => e.click());     // each clickable tells its heading
      }
      catch (e) { return {error: String(e && e.stack || e)}; }
      return {cards: Array.from(box.querySelectorAll('[data-card]'), (e) => e.dataset.card),
              playable: Array.from(box.querySelectorAll('.playable[data-card]'), (e) => e.dataset.card),
              picks: Array.from(box.querySelectorAll('[data-pick]'), (e) => [e.dataset.pick, Number(e.dataset.picks)]),
              ids: Array.from(box.querySelectorAll('[data-ids]'), (e) => e.closest('.other-moves') ? '' : e.dataset.ids)
                .join(' ').split(' ').filter(Boolean).map(Number),
              others: Array.from(box.querySelectorAll('.other-moves [data-ids]'), (e) => Number(e.dataset.ids)),
              heads,
              text: box.textContent};
    });
    done({own: true, out});
  }).catch((e) => done({error: String(e)}));
"""


#: The games' renderers drawn over whole random games: each game under its defaults, and the variants whose views
#: differ (the solo and 2-player Sparks, with its draft; a closed Scrapyard workshop; Smartphone's variants)
RENDERED: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in robotcore.list_games()] + [
    ("sparks", {"players": 1}), ("sparks", {"players": 2, "draft": True}),
    ("scrapyard", {"players": 3, "open_workshop": False}),
    ("smartphone", {"players": 3, "harsh_malus": True, "screen_precious_metal": True})]
#: The kinds of move a game's table may leave to its "Other moves" row: Nicodemus' resource choices, which no
#: part of its table stands for; every other move of every game is drawn where it happens
OTHER_MOVES = {"nicodemus": {"take", "steal", "return", "exchange", "stop", "draw", "done"}}


@pytest.mark.parametrize(("game", "params"), RENDERED, ids=[f"{g}-{p}" for g, p in RENDERED])
def test_each_game_has_a_renderer_that_draws_every_phase(browser: Browser, game: str, params: dict[str, Any]) -> None:
    """The game's own renderer (not the generic fallback) draws views from a whole random game, every seat's and
    the spectator's, without an error; it shows no card its view does not hold, and a card is clickable only
    when one of the seat's legal actions names it."""
    b = browser
    b.get("/play/none")
    b.wait(lambda d: d.find_elements(By.ID, "board"))
    rng = random.Random(5)
    state = robotcore.make(game, seed=5, **params)
    views: list[tuple[int | None, Any, list[dict[str, Any]]]] = []
    phases: set[str] = set()
    step = 0
    while True:
        if step % 7 == 0 or state.is_terminal:
            for seat in [None, *range(state.num_players)]:
                legal = [] if seat is None else [
                    {"id": a, "text": state.game.action_to_str(a), "json": state.game.action_to_dict(a)}
                    for a in state.legal_actions(seat)]
                views.append((seat, state.view(seat), legal))
            phases.add(str(state.view(None).get("phase")))
        if state.is_terminal:
            break
        seat = rng.choice(state.actors)
        state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
        step += 1
    assert len(phases) > 1 and len(views) >= 10
    # with the game's content and glossary (as the page has them), and without (the page could not read them)
    for with_content in (True, False):
        result = b.driver.execute_async_script(RENDER_OWN, game, params,
                                               [[seat, view, []] for seat, view, _ in views], with_content)
        assert "error" not in result, result
        assert result["own"], f"{game} is drawn by the generic renderer: give it one of its own in api/page/js/games/"
        for (seat, view, legal), drawn in zip(views, result["out"], strict=True):
            assert "error" not in drawn, (seat, view.get("phase"), with_content, drawn["error"])
            held = json_strings(view) | json_strings(legal)
            assert set(drawn["cards"]) <= held, (seat, set(drawn["cards"]) - held)
            assert not drawn["playable"] and not drawn["picks"], "nothing is clickable without legal actions"
            assert drawn["text"].strip(), "an empty table"
    # with the seat's legal actions, the cards they name become clickable, and only those
    acting = [(seat, view, legal) for seat, view, legal in views if legal]
    result = b.driver.execute_async_script(RENDER_OWN, game, params, [list(v) for v in acting], True)
    for (seat, view, legal), drawn in zip(acting, result["out"], strict=True):
        assert "error" not in drawn, (seat, view.get("phase"), drawn["error"])
        assert set(drawn["playable"]) <= json_strings([a["json"] for a in legal]), seat
        # whatever is clickable on the table (cards, dice, slots, suppliers...) stands for legal actions, and the
        # heading it gives the side panel's narrowed list names something of theirs (a value their JSON holds)
        for pick, count in drawn["picks"]:
            assert 1 <= count <= len(legal), (seat, pick, count)
            assert pick in json_strings([json_words(a["json"]) for a in legal]), (seat, view.get("phase"), pick)
        # the heading of a narrowed list (a clickable of several actions: one of one plays it) tells apart what
        # it was narrowed to: two that stand for different actions never give it the same words (a Sparks die
        # "R3" and the robot "R3")
        stands: dict[str, set[tuple[int, ...]]] = {}
        for heading, ids in drawn["heads"]:
            if len(ids) > 1:
                stands.setdefault(heading, set()).add(tuple(sorted(ids)))
        assert all(len(v) == 1 for v in stands.values()), (seat, view.get("phase"), stands)
    assert any(drawn["picks"] for drawn in result["out"]), "nothing on the table was ever clickable"
    # every legal move can be made where it happens on the table (a card, a die, a slot, a button the renderer put
    # there), but for the kinds the game may leave to the "Other moves" row, which holds the rest; and the table
    # offers nothing that is not legal
    for (seat, view, legal), drawn in zip(acting, result["out"], strict=True):
        ids = {a["id"] for a in legal}
        assert set(drawn["ids"]) <= ids, seat
        # the "Other moves" row holds each legal move nothing else on the table makes, once, and nothing more
        assert sorted(drawn["others"]) == sorted(ids - set(drawn["ids"])), (seat, view.get("phase"))
        left = {a["json"]["type"] for a in legal if a["id"] in set(drawn["others"])}
        assert left <= OTHER_MOVES.get(game, set()), (seat, view.get("phase"), left)
    b.drain()


def json_words(doc: Any) -> Any:
    """A JSON document with its numbers as the strings a page shows them as (a slot 1 is "1")."""
    if isinstance(doc, dict):
        return {k: json_words(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [json_words(v) for v in doc]
    return str(doc) if isinstance(doc, int | float) and not isinstance(doc, bool) else doc


def test_requests_never_carry_a_token_in_their_url(browser: Browser) -> None:
    """Runs last: every request of this module's pages."""
    b = browser
    b.drain()
    assert len(b.requests) > 50 and TOKENS
    doc = json.loads(Path(OPENAPI_PATH).read_text(encoding="utf-8"))
    documented = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), set(ops))
                  for path, ops in doc["paths"].items()]
    api_calls = 0
    for req in b.requests:
        url = req["url"]
        assert not any(t in url for t in TOKENS), f"a token in a request URL: {url}"
        assert "token" not in url.split("#")[0].lower(), url
        if not url.startswith(("http:", "https:", "ws:", "wss:")):
            continue                                       # the browser's own pages (chrome://, data:)
        assert url.startswith(b.base_url + "/"), f"a request outside the service: {url}"
        path = url[len(b.base_url):].split("#")[0]
        if path.startswith("/v1/"):
            api_calls += 1
            bare = path.split("?")[0]
            assert any(rx.match(bare) and req["method"].lower() in ops for rx, ops in documented), \
                f"the page called an undocumented endpoint: {req['method']} {path}"
            auth = req["headers"].get("Authorization")
            assert auth is None or (auth.startswith("Bearer ") and auth[7:] in TOKENS)
        else:
            assert path == "/" or path.startswith(("/play/", "/replay/", "/page/")), path
    assert api_calls > 20
    assert any(r["headers"].get("Authorization") for r in b.requests), "no request carried a seat token"
    # the page ran under its Content-Security-Policy without a single violation
    violations = [e for e in b.console if "Content Security Policy" in e.get("message", "")]
    assert not violations, violations
