"""Drive the app through its UI only (keys and clicks), as players would.

The driver looks at the screen to decide what to press; it never calls the
engine to act.  Choices follow the easy policy (so races end in a reasonable
number of rounds), computed from the acting player's own view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flamme_tui.bots.easy import easy
from flamme_tui.engine.actions import Draw, Play, PlayTokens
from flamme_tui.ui.scenarios import settle


@dataclass
class Seen:
    """What the driver saw on the way (for assertions)."""

    curtains: list[int] = field(default_factory=list)  # seats
    picks: int = 0
    draws: int = 0
    places: int = 0
    rounds: int = 0
    clicks: int = 0
    reviews: int = 0
    undos: int = 0  # last cards taken back at a review (and picked again)
    bids: int = 0  # breakaway bids made (and bidders chosen)
    reveals: int = 0  # breakaway reveals read


def screen_name(app) -> str:
    return type(app.screen).__name__


async def new_race_menus(pilot, variant: str = "classic", stage_downs: int = 0, builder_keys=()) -> None:
    """Title -> New race -> variant -> stage (or BMX builder) -> teams screen."""
    await pilot.press("enter")  # New race
    await pilot.press(*(["down"] * {"classic": 0, "meteo": 1, "bmx": 2}[variant]), "enter")
    if variant == "bmx":
        await pilot.press(*builder_keys, "enter")
    else:
        # stage_downs counts in the published stages' order (config.STAGE_ORDER), as the menu
        # listed them before it grouped the library by kind and box
        from flamme_tui import config

        await go_to_stage(pilot, config.STAGE_ORDER[stage_downs])
        await pilot.press("enter")
    await pilot.pause()
    assert screen_name(pilot.app) == "TeamsScreen"


async def go_to_stage(pilot, stage_id: str) -> None:
    """Move the stage menu's highlight down to a stage (from the top, with the keys a player uses)."""
    menu = pilot.app.screen.query_one("#stage-menu")
    await pilot.press("home")
    for _ in range(menu.option_count):
        if menu.highlighted_option is not None and menu.highlighted_option.id == stage_id:
            return
        await pilot.press("down")
    assert menu.highlighted_option is not None and menu.highlighted_option.id == stage_id, stage_id


async def pick_option(pilot, select_id: str, downs: int) -> None:
    """Open a Select with the mouse and move down `downs` options, then Enter."""
    await pilot.click(f"#{select_id}")
    await pilot.pause()
    await pilot.press(*(["down"] * downs), "enter")
    await pilot.pause()


async def set_players(pilot, n: int) -> None:
    """The Players list set to n: its list opens on the number shown (2 on a first
    set-up, the last set-up's after that), and the arrows move from there."""
    shown = pilot.app.screen.count
    await pilot.click("#players")
    await pilot.pause()
    await pilot.press(*(["down"] * (n - shown) if n >= shown else ["up"] * (shown - n)), "enter")
    await pilot.pause()


async def play_race(pilot, *, use_mouse: bool = False, step_every: int = 0, on_state=None,
                    max_actions: int = 6000, undo_every: int = 0, on_other=None) -> Seen:
    """Play from the first race screen to the podium (`undo_every`: take the
    last card back at the 1st review, the 1+n-th, ..., then pick again).
    `on_other(pilot, name)`: called on any other screen (a tour's stage results,
    its podium), it presses what goes on and returns True when the play is over."""
    app = pilot.app
    seen = Seen()
    for _ in range(max_actions):
        await settle(pilot)
        name = screen_name(app)
        if on_state is not None:
            await on_state(pilot, seen)
        if on_other is not None and name not in ("CurtainScreen", "RaceScreen"):
            if await on_other(pilot, name):
                return seen
            continue
        if name == "PodiumScreen":
            return seen
        if name == "CurtainScreen":
            seen.curtains.append(app.screen.seat)
            await pilot.press("enter")
            continue
        assert name == "RaceScreen", name
        screen = app.screen
        turn = screen.turn
        game = screen.flow.game
        if turn.kind == "place":
            seen.places += 1
            await pilot.press("enter")
        elif turn.kind == "draw":
            seen.draws += 1
            action = easy(game.view(turn.seat))
            assert isinstance(action, Draw)
            k = screen.options.index(game.index[action.rider])
            await choose(pilot, screen, k, use_mouse and seen.draws % 3 == 0, seen)
        elif turn.kind == "review":
            seen.reviews += 1
            if undo_every and seen.reviews % undo_every == 1 % undo_every:
                seen.undos += 1
                await pilot.press("u")  # take the last card back: the same pick again
                assert screen.turn.kind == "pick" and screen.turn.seat == turn.seat
            else:
                await pilot.press("enter")  # the review of the seat's cards: pass
        elif turn.kind == "pick":
            seen.picks += 1
            action = easy(game.view(turn.seat))
            if isinstance(action, PlayTokens):
                wanted = list(action.tokens)
                keys = []
                options = list(screen.options)
                for t in wanted:
                    k = next(k for k, c in enumerate(options) if c == t and str(k + 1) not in keys)
                    keys.append(str(k + 1))
                await pilot.press(*keys, *(["enter"] if len(keys) > 1 else []))  # (one token plays at once)
            else:
                assert isinstance(action, Play)
                k = screen.options.index(action.card)
                await choose(pilot, screen, k, use_mouse and seen.picks % 4 == 0, seen)
        elif turn.kind in ("bidder", "bid"):
            seen.bids += 1
            action = easy(game.view(turn.seat))  # the easy bot's bid, from the seat's own view
            k = screen.options.index(game.index[action.rider] if turn.kind == "bidder" else action.card)
            await choose(pilot, screen, k, use_mouse and seen.bids % 3 == 0, seen)
        elif turn.kind == "bids":
            seen.reveals += 1
            await pilot.press("enter")
        elif turn.kind == "reveal":
            seen.rounds += 1
            if step_every and seen.rounds % step_every == 0:
                replay = screen.flow.replay
                while not replay.at_end:
                    await pilot.press("space")
            await pilot.press("enter")  # skip to the end (or continue, if at the end)
            if screen.flow.replay is not None:
                await pilot.press("enter")
        else:
            raise AssertionError(f"unexpected turn {turn}")
    raise AssertionError("the race did not end")


def screenshot_text(app) -> str:
    """What `svg_text(app.export_screenshot())` reads, without drawing the SVG (whose
    styles and classes cost most of a whole-race test's time): the window title, then
    every segment of the screen that is not only spaces, line after line, exactly as
    Rich's export_svg writes them as <text> (tests/ui/test_privacy.py checks both agree)."""
    import io

    from rich.console import Console
    from rich.segment import Segment

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    segments = list(Segment.filter_control(console._record_buffer))
    texts = [app.title] + [text for line in Segment.split_and_crop_lines(segments, length=width)
                           for text, _, _ in line if text != " " * len(text)]
    return "".join(texts).replace("\xa0", " ")


def shown_cards(app, kind: str) -> list:
    """Every card of `kind` ("hand", "riders", "revealed") on any screen of the stack."""
    from flamme_tui.ui.widgets.cards import CardRow

    return [card for screen in app.screen_stack for row in screen.query(CardRow)
            if row.kind == kind for card in row.cards]


async def choose(pilot, screen, k: int, mouse: bool, seen: Seen) -> None:
    if mouse:
        from flamme_tui.ui.widgets.cards import CardRow

        row = screen.query_one(CardRow)
        x, width = row.boxes()[k]
        seen.clicks += 1
        await pilot.click(row, offset=(x + width // 2, 1))  # select
        await pilot.click(row, offset=(x + width // 2, 1))  # the selected one again: confirm
    else:
        # a number plays a card, a bid, and chooses who draws at once; the bidder waits for Enter
        await pilot.press(str(k + 1), *(["enter"] if screen.turn.kind == "bidder" else []))
