"""Write SVG screenshots of the main screens: `python -m flamme_tui.ui.screenshots [DIR] [--only NAME,...]`.

Deterministic: fixed seed, no animations, fixed terminal sizes.  The README
shows the files this writes into screenshots/.
"""

from __future__ import annotations

import asyncio
import os
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    only: set[str] = set()
    if "--only" in args:  # a few shots only (by file name, without .svg)
        k = args.index("--only")
        only = set(args[k + 1].split(",")) if k + 1 < len(args) else set()
        del args[k: k + 2]
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    out = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "screenshots"
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
