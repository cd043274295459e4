"""Write the screenshots of the README: `python -m flamme_tui.ui.screenshots [DIR] [--only NAME,...]`.

SVGs of the main screens, and one PNG: a seat joined in a phone-sized
browser (headless Chromium; without it, that one is skipped, said in a line).
Deterministic: fixed seed, fixed codes, no animations, fixed sizes.  The
README shows the files this writes into screenshots/.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from pathlib import Path

SHOTS = [  # (file name, scenario, size)
    ("title", "title", (80, 24)),
    ("stage-selection", "stages", (80, 24)),
    ("stage-editor", "stage-editor", (80, 24)),
    ("stage-editor-120x40", "stage-editor", (120, 40)),
    ("teams", "teams", (80, 24)),
    ("curtain", "curtain", (80, 24)),
    ("card-pick-80x24", "card-pick", (80, 24)),
    ("card-pick-120x40", "card-pick", (120, 40)),
    ("movement", "reveal", (120, 40)),
    ("meteo-crash", "meteo", (120, 40)),
    ("bmx-builder", "bmx-builder", (80, 24)),
    ("bmx-pick", "bmx-pick", (80, 24)),
    ("bmx-die", "bmx-die", (120, 40)),
    ("podium", "podium", (80, 24)),
    ("review-80x24", "review", (80, 24)),
    ("curtain-table", "curtain-table", (80, 24)),
    ("recap-200x60", "recap", (200, 60)),
    ("movement-200x60", "reveal", (200, 60)),
    ("podium-chart", "podium", (120, 50)),
    ("teams-focus-no-colour", "teams-focus", (80, 24)),
    ("help-bmx", "help-bmx", (80, 24)),
    ("settings", "settings", (100, 30)),
    ("saved-races", "saved-races", (100, 30)),
    ("light-theme", "light-teams", (100, 30)),
    ("stage-profile", "profile", (80, 24)),
    ("replay", "replay", (100, 30)),
    ("replay-bmx", "replay-bmx", (80, 24)),
    ("tour-stage-result", "tour-stage-result", (80, 24)),
    ("tour-gc-120x40", "tour-gc", (120, 40)),
    ("tour-podium", "tour-podium", (120, 40)),
    ("tour-race", "tour-race", (120, 40)),
    ("peloton-80x24", "peloton-race", (80, 24)),
    ("peloton-120x40", "peloton-race", (120, 40)),
    ("peloton-bid", "peloton-bid", (80, 24)),
    ("peloton-bids", "peloton-bids", (80, 24)),
    ("tutorial", "tutorial", (80, 24)),
    ("hint", "hint", (80, 24)),
    ("coach", "coach", (80, 24)),
    ("race-fr-80x24", "card-pick", (80, 24)),
    ("race-es-80x24", "card-pick", (80, 24)),
    ("host-80x24", "host", (80, 24)),
    ("join-80x24", "join", (80, 24)),
    ("host-seat-80x24", "host-seat", (80, 24)),
]
# pictures of a browser, not of a terminal: (file name, CSS pixels of the page), written as PNG
PHONE_SHOTS = [("join-phone", (412, 915))]
PHONE_CODE = "K7QM4XPD9RTA"  # the seat's code, fixed (a real host draws a new secret one)
NO_COLOUR = {"teams-focus-no-colour"}
LANGUAGE = {"race-fr-80x24": "fr", "race-es-80x24": "es"}  # the others: English (as `--lang en` gives)


async def shoot(scenario: str, size: tuple[int, int], title: str) -> str:
    from .app import FlammeApp
    from .scenarios import SCENARIOS, SEED

    if scenario == "join":
        return await shoot_join(size, title)

    app = FlammeApp(seed=SEED, autoplay=False, autosave=False)
    async with app.run_test(size=size) as pilot:
        await SCENARIOS[scenario](pilot)
        await pilot.pause()
        return app.export_screenshot(title=title)


async def shoot_join(size: tuple[int, int], title: str) -> str:
    """`flamme-tui join` (its own app, not the game's) on a seat of a table hosted
    here on a free port: its first card to pick (the port is never on its screen)."""
    import time

    from ..net.host import HostServer, HostTable
    from .join import JoinApp
    from .scenarios import choices

    c = choices(n=3)
    c.seats[1].controller = c.seats[2].controller = "easy"
    table = HostTable(c.session(), {0})
    server = HostServer(table, "127.0.0.1", 0)
    port = await server.start()
    app = JoinApp(f"127.0.0.1:{port}", table.codes[0])
    app.bell = lambda: None  # type: ignore[method-assign]
    try:
        async with app.run_test(size=size) as pilot:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                await pilot.pause(0.05)
                turn = app.table.turn
                if turn is not None and turn.kind == "pick":
                    break
                if turn is not None:
                    await pilot.press("1")  # (which rider draws first: the Sprinteur)
            await pilot.pause(0.2)
            return app.export_screenshot(title=title)
    finally:
        await server.stop()


async def shoot_phone(size: tuple[int, int]) -> bytes:
    """A seat of a table hosted here (free ports, with the page of `host --web-port`),
    joined in headless Chromium at a phone's size: its code typed key by key, then
    its first turn (which rider draws first: `1`) and its hand to pick from."""
    import socket

    from ..net.host import HostServer, HostTable, show_code
    from .browser import chromium
    from .scenarios import HOST_ROOM, choices
    from .serve import start_page

    c = choices(n=2)
    c.seats[1].controller = "easy"
    table = HostTable(c.session(), {0}, codes={0: PHONE_CODE}, room=HOST_ROOM)
    server = HostServer(table, "127.0.0.1", 0)
    port = await server.start()
    with socket.socket() as s:  # a free port for the page (never on the picture)
        s.bind(("127.0.0.1", 0))
        web_port = s.getsockname()[1]
    # each tab runs `join` (as `host --web-port` has it), in English, from these sources
    root = str(Path(__file__).resolve().parents[2])
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    command = " ".join(("exec", shlex.quote(sys.executable), "-P", "-m", "flamme_tui", "join", "--lang", "en",
                        f"127.0.0.1:{port}"))
    runner = await start_page(command, "127.0.0.1", web_port, max_sessions=1)
    try:
        async with chromium() as tools:
            await tools.call("Network.enable")
            await tools.call("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1],
                             deviceScaleFactor=2, mobile=True)
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{web_port}/?fontsize=12")
            if not await tools.wait_for(b"Type the code"):
                raise RuntimeError("the code prompt never reached the page")
            await tools.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            await tools.type(show_code(PHONE_CODE))  # as a player types it, dashes and all
            await tools.key("Enter", "Enter", 13, text="\r")
            if not await tools.wait_for(b"Your turn"):
                raise RuntimeError("the seat's turn never reached the page")
            await tools.key("1", "Digit1", 49, text="1")  # who draws first: the first rider
            if not await tools.wait_for(b"pick a card"):
                raise RuntimeError("the hand never reached the page")
            seen = -1
            while seen != len(tools.received):  # until the page has drawn all it was sent
                seen = len(tools.received)
                await asyncio.sleep(0.5)
                await tools.call("Runtime.evaluate", expression="1")  # (collects the frames meanwhile)
            return await tools.screenshot()
    finally:
        await server.stop()  # as `host` ends: the table, then the page (and the tab's app with it)
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    import argparse

    # a parser, not a scan of argv: `--help` (or a mistyped option) must never become the folder written to
    parser = argparse.ArgumentParser(prog="python -m flamme_tui.ui.screenshots",
                                     description="Write the README's screenshots (fixed seed, fixed sizes).")
    parser.add_argument("dir", nargs="?", type=Path, default=Path(__file__).resolve().parents[2] / "screenshots",
                        help="where to write them (default: screenshots/ of the source tree)")
    parser.add_argument("--only", default="", metavar="NAME,...", help="only these shots (file names without .svg)")
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    only = {name for name in args.only.split(",") if name}
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    out: Path = args.dir
    out.mkdir(parents=True, exist_ok=True)
    import tempfile

    # the saved-races shot makes its own saves; the settings are the defaults
    os.environ["FLAMME_TUI_DATA_DIR"] = tempfile.mkdtemp(prefix="flamme-tui-shots-")
    # the defaults (a folder that cannot be made: never written; the settings screen shows its path)
    os.environ["FLAMME_TUI_CONFIG_DIR"] = "/dev/null/flamme-tui-config"
    from .. import i18n

    for name, scenario, size in SHOTS:
        if only and name not in only:
            continue
        if name in NO_COLOUR:
            os.environ["NO_COLOR"] = "1"
        i18n.choose(flag=LANGUAGE.get(name, "en"))  # as `--lang` would: the settings do not change it
        svg = asyncio.run(shoot(scenario, size, f"flamme-tui: {name.replace('-', ' ')}"))
        os.environ.pop("NO_COLOR", None)
        path = out / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        print(f"{path} ({size[0]}x{size[1]})")
    missed = False
    for name, size in PHONE_SHOTS:
        if only and name not in only:
            continue
        i18n.choose(flag="en")
        why = phone_problem()
        if why is not None:  # one line, and the other pictures are made all the same
            print(f"{name}.png skipped: {why}")
            missed = True
            continue
        path = out / f"{name}.png"
        path.write_bytes(asyncio.run(shoot_phone(size)))
        print(f"{path} ({size[0]}x{size[1]} CSS pixels, in headless Chromium)")
    return 1 if missed and only else 0


def phone_problem() -> str | None:
    """Why the browser's picture cannot be made here, else None."""
    from .browser import CHROMIUM

    if CHROMIUM is None:
        return "chromium is not installed (Debian: apt-get install chromium)"
    try:
        import aiohttp  # noqa: F401
        import textual_serve  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed (pip install textual-serve)"
    return None


if __name__ == "__main__":
    sys.exit(main())
