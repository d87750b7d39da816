"""Start the app with ``streamlit run`` and drive it with headless Chromium (selenium + the system
chromedriver). Used by test_browser.py and take_screenshots.py."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-extensions", "--disable-default-apps", "--mute-audio",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
]


def find_browser() -> tuple[str, str] | None:
    """(chromium, chromedriver) paths, or None when either is missing."""
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    return (browser, driver) if browser and driver else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_app(env: dict[str, str], timeout: float = 60.0) -> Iterator[str]:
    """``rummi app`` (which becomes ``streamlit run app/main.py``) on a free port; yields its URL;
    stops it afterwards."""
    port = free_port()
    cmd = [sys.executable, "-m", "app.cli", "app", "--port", str(port), "--address", "127.0.0.1"]
    log = tempfile.NamedTemporaryFile("w+", prefix="rummi-app-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start within {timeout:.0f} s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        os.unlink(log.name)


PHONE = (390, 844)  # an iPhone 12-15's viewport in CSS pixels
PHONE_AGENT = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


@contextmanager
def chromium(width: int = 1280, height: int = 1600, phone: bool = False) -> Iterator["object"]:
    """A headless Chromium (selenium WebDriver) with a fresh profile; ``phone``: Chrome's device
    emulation of a 390 x 844 phone (viewport, touch, a phone's User-Agent)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_browser()
    assert found is not None, "chromium / chromedriver not found"
    browser, driver_path = found
    profile = tempfile.mkdtemp(prefix="rummi-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 2.0, "touch": True},
            "userAgent": PHONE_AGENT,
        })
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for_text(driver, text: str, timeout: float = 30.0) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.25).until(
        lambda d: text in d.find_element("tag name", "body").text,
        message=f"{text!r} did not appear on the page",
    )


def main_text(driver) -> str:
    return driver.find_element("tag name", "body").text


def upload(driver, path: Path, index: int = 0, timeout: float = 20.0) -> None:
    """Give the ``index``-th file input on the page a file."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(lambda d: len(d.find_elements("css selector", "input[type=file]")) > index)
    driver.find_elements("css selector", "input[type=file]")[index].send_keys(str(path))


def click_label(driver, text: str, timeout: float = 20.0) -> None:
    """Click the radio option / button / tab whose visible text is ``text``."""
    from selenium.webdriver.support.ui import WebDriverWait

    xpath = f"//label[contains(normalize-space(.), '{text}')] | //button[contains(normalize-space(.), '{text}')]"
    element = WebDriverWait(driver, timeout).until(lambda d: d.find_element("xpath", xpath))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    try:
        element.click()  # a real click: React Aria widgets ignore synthetic ones
    except Exception:  # covered by something (a toast): click through JavaScript
        driver.execute_script("arguments[0].click();", element)


def click_button(driver, text: str, timeout: float = 20.0) -> None:
    """Click the button whose whole visible text is ``text`` (icons aside)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def find(d):
        return next((b for b in d.find_elements("css selector", "button")
                     if b.is_displayed() and b.is_enabled() and b.text.strip().split("\n")[-1].strip() == text), None)

    button = WebDriverWait(driver, timeout).until(find, message=f"no button {text!r}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def type_into(driver, aria_label: str, text: str, enter: bool = True, timeout: float = 20.0) -> None:
    """Type into the text input / area whose label is ``aria_label`` and commit it."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    selector = f"[aria-label=\"{aria_label}\"]"
    box = WebDriverWait(driver, timeout).until(
        lambda d: d.find_element("css selector", selector), message=f"no input labelled {aria_label!r}"
    )
    box.clear()
    box.send_keys(text)
    if enter:
        box.send_keys(Keys.CONTROL, Keys.ENTER) if box.tag_name == "textarea" else box.send_keys(Keys.ENTER)


def screenshot(driver, path: Path, max_kb: int = 300) -> Path:
    """A PNG of the window, made small (palette colours) so it stays under ``max_kb``."""
    import io

    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    for colours, scale in ((256, 1.0), (128, 1.0), (128, 0.8), (64, 0.7)):
        im = image if scale == 1.0 else image.resize((int(image.width * scale), int(image.height * scale)))
        im.quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
        if path.stat().st_size <= max_kb * 1024:
            break
    return path


def horizontal_overflow(driver) -> int:
    """How many CSS pixels the page is wider than the screen (0: no horizontal scrolling)."""
    return int(driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth;"
    ))


def small_buttons(driver, minimum: int = 40) -> list[str]:
    """The visible buttons in the page's main part shorter than ``minimum`` CSS pixels."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-testid=stMain] button'))"
        ".filter(b => b.offsetParent !== null && b.getBoundingClientRect().height > 0"
        " && b.getBoundingClientRect().height < arguments[0])"
        ".map(b => (b.innerText || b.getAttribute('aria-label') || b.outerHTML.slice(0, 80)).trim());",
        minimum,
    )


def tap_photo(driver, fx: float, fy: float, index: int = 0, timeout: float = 20.0) -> None:
    """Tap the ``index``-th tappable photo (streamlit-image-coordinates, in its iframe) at the
    fractions (fx, fy) of its width and height."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import WebDriverWait

    frames = WebDriverWait(driver, timeout).until(
        lambda d: d.find_elements("css selector", "iframe[title*='streamlit_image_coordinates']")[index:] or None
    )
    frame = frames[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", frame)
    driver.switch_to.frame(frame)
    try:
        img = WebDriverWait(driver, timeout).until(
            lambda d: (lambda i: i if i.size["width"] > 0 else None)(d.find_element("id", "image"))
        )
        w, h = img.size["width"], img.size["height"]
        ActionChains(driver).move_to_element_with_offset(img, int(fx * w - w / 2), int(fy * h - h / 2)).click().perform()
    finally:
        driver.switch_to.default_content()


def choose(driver, label: str, option: str, timeout: float = 20.0) -> None:
    """Pick ``option`` in the selectbox labelled ``label``: open it and click the option (typing
    a few letters first when a long list does not show it)."""
    from selenium.webdriver.support.ui import WebDriverWait

    box = WebDriverWait(driver, timeout).until(
        lambda d: d.find_element("css selector", f"[data-testid=stSelectbox] input[aria-label^=\"{label}\"]"),
        message=f"no selectbox labelled {label!r}",
    )
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
    box.click()

    def exact(d):
        return next((o for o in d.find_elements("css selector", "[role=option]") if o.text.strip() == option), None)

    if WebDriverWait(driver, timeout).until(lambda d: d.find_elements("css selector", "[role=option]")) and not exact(driver):
        box.send_keys(option.split()[-1])  # one word: the list's search matches words
    WebDriverWait(driver, timeout).until(exact, message=f"no option {option!r} in {label!r}").click()


def open_page(driver, title: str, timeout: float = 20.0) -> None:
    """Follow the navigation link to the page ``title`` (on a phone the links are in the side
    menu: open it first)."""
    from selenium.webdriver.support.ui import WebDriverWait

    xpath = f"//a[contains(normalize-space(.), '{title}')]"

    def visible_link(d):
        return next((a for a in d.find_elements("xpath", xpath) if a.is_displayed()), None)

    if visible_link(driver) is None:
        for sel in ("[data-testid=stExpandSidebarButton]", "[data-testid=stSidebarCollapsedControl] button",
                    "[data-testid=stHeader] button[kind=headerNoPadding]"):
            found = [b for b in driver.find_elements("css selector", sel) if b.is_displayed()]
            if found:
                found[0].click()
                break
    link = WebDriverWait(driver, timeout).until(visible_link, message=f"no link to {title!r}")
    link.click()
