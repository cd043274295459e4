"""Ways to bring the app to a given screen, for screenshots, snapshot tests and the bench.

Each scenario is an async function of a Textual Pilot (the app being a
FlammeApp(seed=..., autoplay=False)).  Menus are driven with keys, like a
player would; the long ones (a finished race, a meteo crash) set the race up
with the engine's easy policy and then show it.
"""

from __future__ import annotations

SEED = 7


async def settle(pilot, timeout: float = 60.0) -> None:
    """Wait until the screen waits for a decision (a curtain goes up after a
    refresh; a bot thinks in a worker thread, for up to `timeout` seconds)."""
    import time

    app = pilot.app
    deadline = time.monotonic() + timeout
    for _ in range(50):
        await pilot.pause()
        screen = app.screen
        while type(screen).__name__ == "RaceScreen" and screen.turn is not None and screen.turn.kind == "bot" \
                and time.monotonic() < deadline:
            await pilot.pause(0.002)
            screen = app.screen
        if type(screen).__name__ == "RaceScreen" and (screen.turn is None or screen.turn.kind in ("curtain", "over")):
            continue
        return


def choices(variant: str = "classic", n: int = 2, seed: int = SEED, **kw):
    from .choices import RaceChoices, default_seats

    return RaceChoices(variant=variant, seats=default_seats(n), seed=seed, **kw)


def advance(session, rounds: int, until=None) -> None:
    """Play whole rounds of every seat with the easy policy (set-up for screenshots)."""
    from ..bots.easy import easy
    from ..engine.phase import Phase
    from ..engine.turns import turns

    game = session.game
    for _ in range(rounds):
        for seat in turns(game):
            session.apply(easy(game.view(seat)))
        if game.phase == Phase.OVER or (until is not None and until(game)):
            return


# ------------------------------------------------------------------ menus

async def title(pilot) -> None:
    await pilot.pause()


async def variants(pilot) -> None:
    await pilot.press("enter")


async def stages(pilot) -> None:
    # the mountain stages (k: every kind, flat, hilly, mountain), the first: La Haut Montagne
    # (under Random stage and Build a stage)
    await pilot.press("enter", "enter", "k", "k", "k", "down", "down")


async def stage_editor(pilot) -> None:
    # the stage editor from the stage menu's "Build a stage": a, B, c, d and E laid, no finish yet
    await pilot.press("enter", "enter", "home", "down", "enter")
    await pilot.press("enter", "space", "enter", "enter", "enter", "space", "enter")
    await pilot.pause()


async def teams(pilot) -> None:
    await pilot.press("enter", "enter", "enter")
    await pilot.pause()


async def bmx_builder(pilot) -> None:
    await pilot.press("enter", "down", "down", "enter")
    await pilot.press("b", "c", "r", "right_square_bracket", "right_square_bracket", "f")


# ------------------------------------------------------------------- race

async def curtain(pilot) -> None:
    await teams(pilot)
    await pilot.press("ctrl+s")
    await settle(pilot)


async def rider_choice(pilot) -> None:
    await curtain(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def card_pick(pilot) -> None:
    await rider_choice(pilot)
    await pilot.press("2")  # (a number chooses at once)
    await settle(pilot)
    await pilot.press("right", "right", "right")  # the third card selected, not played


async def _play_round_by_keys(pilot) -> None:
    """Every human's turn of one round with keys: curtain, first rider, cards."""
    app = pilot.app
    for _ in range(40):
        await settle(pilot)
        name = type(app.screen).__name__
        if name == "CurtainScreen":
            await pilot.press("enter")
            continue
        turn = app.screen.turn
        if turn.kind == "reveal":
            return
        if turn.kind == "draw":
            await pilot.press("1")
        elif turn.kind == "review":
            await pilot.press("enter")  # the review: pass
        elif turn.kind == "pick":
            keep = app.screen.keep_size()  # (a number plays one card at once; a descent's pair waits for Enter)
            await pilot.press(*[str(k + 1) for k in range(keep)], *(["enter"] if keep > 1 else []))
        elif turn.kind == "place":
            await pilot.press("enter")


async def reveal(pilot) -> None:
    """The movement of round 1, a few steps in."""
    await curtain(pilot)
    await _play_round_by_keys(pilot)
    await pilot.press("space", "space", "space")


async def review(pilot) -> None:
    """Both of Blue's cards picked: the review before passing the keyboard."""
    await curtain(pilot)
    await pilot.press("enter", "1")
    await settle(pilot)
    await pilot.press("4")
    await settle(pilot)
    await pilot.press("2")


async def curtain_table(pilot) -> None:
    """Round 2's curtain: the public table behind it, no hand."""
    await curtain(pilot)
    await _play_round_by_keys(pilot)
    await pilot.press("enter", "enter")  # skip the movement, on to round 2
    await settle(pilot)


async def recap(pilot) -> None:
    """Round 2, the curtain lifted: "since your last look"."""
    await curtain_table(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def podium(pilot) -> None:
    """A finished 4-team race (played by the easy policy), then its podium."""
    from ..play.flow import RaceFlow

    app = pilot.app
    session = choices("classic", 4, seed=SEED).session()
    advance(session, 100)
    app.choices = choices("classic", 4, seed=SEED)
    flow = RaceFlow(session)
    app.show_podium(flow)
    await pilot.pause()


async def meteo_crash(pilot) -> None:
    """Meteo, all four weather kinds on the stage, riders lying on the wet road."""
    from ..play.flow import RaceFlow

    app = pilot.app
    session = choices("meteo", 4, seed=92).session()
    advance(session, 3, until=lambda g: any(r.crashed for r in g.riders))
    app.start_flow(RaceFlow(session))
    await settle(pilot)
    await pilot.press("enter")  # lift the first curtain
    await settle(pilot)


async def bmx_pick(pilot) -> None:
    await bmx_builder(pilot)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("right", "right")  # the second token selected, not played


async def bmx_die(pilot) -> None:
    """The die of a BMX round, big, with its effect in words."""
    await bmx_builder(pilot)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("ctrl+s")
    app = pilot.app
    for _ in range(6):  # rounds, until the die closes a gap
        await _play_round_by_keys(pilot)
        replay = app.screen.flow.replay
        die_step = next(k for k, f in enumerate(replay.frames) if f.kind == "die")
        for _ in range(die_step):
            await pilot.press("space")
        if replay.frame.die:
            return
        await pilot.press("enter", "enter")


async def teams_focus(pilot) -> None:
    """The teams screen with the focus on a colour list (it must be plain to see): the
    screen opens on Players; Tab goes on to the grid, the first name, its colour."""
    await teams(pilot)
    await pilot.press("tab", "tab", "tab")


async def help_bmx(pilot) -> None:
    await bmx_pick(pilot)
    await pilot.press("question_mark")
    await pilot.pause()


async def help_teams(pilot) -> None:
    """The teams screen's help (its keys as bound, the teams' words), asked from a list
    (in a name field `?` is a character of the name)."""
    await teams_focus(pilot)
    await pilot.press("question_mark")
    await pilot.pause()


async def settings_screen(pilot) -> None:
    menu = pilot.app.screen.query_one("#title-menu")
    await pilot.press(*["down"] * menu.get_option_index("settings"), "enter")  # (by its id: entries come and go)
    await pilot.pause()


async def light_teams(pilot) -> None:
    """The light theme, as the settings would give it (nothing saved)."""
    app = pilot.app
    app.apply_settings(app.settings.model_copy(update={"theme": "textual-light"}))
    await teams_focus(pilot)


async def saved_races(pilot) -> None:
    """Three saves made here (in progress, finished, damaged) in $FLAMME_TUI_DATA_DIR/saves."""
    import datetime
    import os

    from .. import saves
    from ..saves import writing

    folder = saves.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    running = choices("classic", 3, seed=SEED).session()
    advance(running, 4)
    done = choices("bmx", 2, seed=SEED).session()
    advance(done, 200)
    now, writing._now = writing._now, lambda: "2026-12-02T21:03:00.000+00:00"  # the same picture every time
    try:
        saves.save(running, folder / "running.json")
        good = saves.save(done, folder / "finished.json")
    finally:
        writing._now = now
    damaged = folder / "damaged.json"
    damaged.write_text(good.read_text()[:-30])
    for minute, path in enumerate((folder / "running.json", good, damaged)):  # (the list is by the files' times)
        when = datetime.datetime.fromisoformat(f"2026-12-02T21:0{2 + minute}:00+00:00").timestamp()
        os.utime(path, (when, when))
    pilot.app.show_saved_races()
    await pilot.pause()


async def profile(pilot) -> None:
    """La Haut Montagne in round 1, the stage profile asked for (`s`)."""
    await pilot.press("enter", "enter", "k", "k", "k", "down", "down", "enter")  # the mountain stages, the first
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("s")
    await pilot.pause()


async def replay(pilot, variant: str = "meteo", **extra) -> None:
    """A saved race's replay, three rounds in (the app's Saved races opens it)."""
    from ..play.races import new_game
    from ..play.replay import Replay, frames
    from .replay import ReplayScreen

    race = choices(variant, 3, seed=14, **extra)
    session = race.session()
    advance(session, 3)
    game = new_game(session.setup, session.seed)
    shown = Replay(f"{game.course.name} · {variant}: race in progress", tuple(frames(session.setup, session.seed,
                   session.game.actions)), False, game.course,
                   tuple((r.id, getattr(r, "kind", "")) for r in game.riders), variant)
    pilot.app.push_screen(ReplayScreen(shown))
    await pilot.pause()
    await pilot.press("end")
    await pilot.pause()


async def replay_bmx(pilot) -> None:
    await replay(pilot, "bmx", ramp=(10, 3))


# ------------------------------------------------------------------ tours

def tour_choices(stages_done: int = 0, n: int = 4):
    """The shipped 3-stage tour for `n` teams, with this many stages raced by the easy policy."""
    from ..play.tours import load_tour

    picked = choices("classic", n, seed=SEED)
    picked.tour = load_tour("3-petit-tour")
    picked.variant = picked.tour_variant
    return picked


def tour_after(stages: int, n: int = 4):
    """A session of the shipped 3-stage tour whose first `stages` stages are over
    (the last one just over: its session), played by the easy policy."""
    from ..play.tours import next_session

    session = tour_choices(n=n).session()
    while True:
        advance(session, 200)
        if len(session.tour.done) + 1 >= stages:
            return session
        session = next_session(session)


async def tour_menu(pilot) -> None:
    await pilot.press("down", "enter")
    await pilot.pause()


async def tour_stages(pilot) -> None:
    """Picking the stages: three chosen, one of them meteo."""
    await tour_menu(pilot)
    await pilot.press("end", "enter")
    await pilot.pause()
    await pilot.press("enter", "down", "m", "down", "down", "enter")
    await pilot.pause()


async def _stage_result(pilot, stages: int) -> None:
    from ..play.flow import RaceFlow

    app = pilot.app
    app.choices = tour_choices()
    app.show_stage_result(RaceFlow(tour_after(stages)))
    await pilot.pause()


async def tour_stage_result(pilot) -> None:
    """The first stage of a tour is over: its times, the GC, the TP."""
    await _stage_result(pilot, 1)


async def tour_gc(pilot) -> None:
    """After the second stage: the GC with its gaps as bars, the TP by stage."""
    await _stage_result(pilot, 2)


async def tour_podium(pilot) -> None:
    """The tour is over: the GC's podium, the winner by Tour Points."""
    await _stage_result(pilot, 3)
    await pilot.press("enter")
    await pilot.pause()


async def tour_race(pilot) -> None:
    """The second stage on the race screen: the yellow jersey on the track and the boards."""
    from ..play.flow import RaceFlow
    from ..play.tours import next_session

    app = pilot.app
    session = next_session(tour_after(1))
    advance(session, 3)
    app.start_flow(RaceFlow(session))
    await settle(pilot)
    await pilot.press("enter")  # lift the curtain
    await settle(pilot)
    await pilot.press("1")  # (a number plays at once)
    await settle(pilot)
    if app.screen.turn.kind == "review":
        await pilot.press("u", "right")  # taken back, the second token selected
    else:
        await pilot.press("right", "right")


async def tour_standings(pilot) -> None:
    """The second stage, some riders across the line: the standings (`g`),
    the GC before the stage, who has finished and the live GC."""
    from ..play.flow import RaceFlow
    from ..play.tours import next_session

    app = pilot.app
    session = next_session(tour_after(1))
    advance(session, 200, until=lambda g: len(g.view(0).board.crossed) >= 3)  # (the public board)
    app.start_flow(RaceFlow(session))
    await settle(pilot)
    await pilot.press("enter")  # lift the curtain
    await settle(pilot)
    await pilot.press("g")
    await pilot.pause()


# ---------------------------------------------------------------- peloton

def peloton_choices(humans: int = 3):
    """Six teams on a Peloton 5-6 stage with the breakaway: the first seats
    human, the others easy bots."""
    c = choices("classic", 6, stage="peloton-9-5-6", breakaway=True)
    for seat in c.seats[humans:]:
        seat.controller = "easy"
    return c


async def peloton_race(pilot) -> None:
    """A six-team race, round 4: Blue picks its Sprinteur's card (three lanes, cobbles, 12 riders)."""
    from ..play.flow import RaceFlow

    app = pilot.app
    c = peloton_choices()
    app.choices = c
    session = c.session()
    advance(session, 3)
    app.start_flow(RaceFlow(session))
    await settle(pilot)
    await pilot.press("enter")  # the curtain
    await settle(pilot)
    await pilot.press("1")  # (a number chooses at once)
    await settle(pilot)
    await pilot.press("right", "right")  # the second card selected, not played


async def peloton_reveal(pilot) -> None:
    """A six-team race, round 4's reveal: twelve cards face up beside the log (all human seats)."""
    from ..play.flow import RaceFlow

    app = pilot.app
    c = peloton_choices(humans=6)
    app.choices = c
    session = c.session()
    advance(session, 3)
    app.start_flow(RaceFlow(session))
    await _play_round_by_keys(pilot)


async def peloton_bid(pilot) -> None:
    """The breakaway: Blue's Rouleur bids, its four cards on offer (behind the curtain so far)."""
    app = pilot.app
    app.start_race(peloton_choices())
    await settle(pilot)
    await pilot.press("enter")  # the curtain
    await settle(pilot)
    await pilot.press("2", "enter")  # the Rouleur bids
    await settle(pilot)
    await pilot.press("right", "right", "right")  # the third card selected (a number would bid at once)


async def peloton_bids(pilot) -> None:
    """The breakaway's first bids, face up together for the table."""
    app = pilot.app
    app.start_race(peloton_choices())
    for _ in range(3):  # three humans: curtain, bidder, bid
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("2", "enter")
        await settle(pilot)
        await pilot.press("4", "enter")
    await settle(pilot)


async def coach(pilot) -> None:
    """The coach after a finished 2-team race (two people), on a small budget."""
    from ..play.flow import RaceFlow
    from .screens.coach import CoachScreen

    app = pilot.app
    app.choices = choices("classic", 2, seed=SEED)
    session = app.choices.session()
    advance(session, 100)
    app.show_podium(RaceFlow(session))
    await pilot.pause()
    app.push_screen(CoachScreen(session, rollouts=16))
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def one_human(variant: str = "classic"):
    """One person (Blue) against a medium bot: a race where hints may be offered."""
    from .choices import SeatChoice

    c = choices(variant, 2, seed=SEED)
    c.seats = [c.seats[0], SeatChoice(c.seats[1].name, c.seats[1].colour, "medium")]
    return c


async def hint(pilot) -> None:
    """Hints on, one person against a bot: `h` at the first card pick, the expert's
    answer shown (on a rollout budget: the same answer every time)."""
    from ..bots.budget import Budget

    app = pilot.app
    app.settings = app.settings.model_copy(update={"hints": "solo"})
    app.start_race(one_human())
    await settle(pilot)
    app.flow.session.budget = Budget(rollouts=32)
    await pilot.press("2")  # the Rouleur draws first (a number chooses at once)
    await settle(pilot)
    await pilot.press("h")
    await pilot.pause()
    await app.workers.wait_for_complete()
    for _ in range(3):  # the hint is drawn after the refresh that follows the answer
        await pilot.pause()
    # the "looking at your cards" toast lasts 3 s: whether it is still up depends on how long the
    # expert took (the machine's load); the picture is of the hint alone.  The race screen under
    # the hint is not drawn again while the hint is up (it showed through with the toast on it):
    # the hint goes, the toasts go, the race screen is drawn, and the same hint comes back
    from .hints import HintScreen

    text = app.screen.text
    app.pop_screen()
    app.clear_notifications()
    for _ in range(50):  # (each screen's toasts go on a later refresh)
        await pilot.pause()
        if not any(screen.query("Toast") for screen in app.screen_stack):
            break
    app.screen.refresh(layout=True)
    await pilot.pause()
    await app.push_screen(HintScreen(text))
    await pilot.pause()


async def tutorial(pilot) -> None:
    """Learn to play, the Classic lesson: past its intro, round 2 (blocking), the
    first round's reveal explained (a lesson started afresh: no progress kept)."""
    from ..lessonprogress import forget_progress
    from ..play.lessons import catalogue

    entry = catalogue()[0]  # the first lesson: Classic
    forget_progress(entry)
    menu = pilot.app.screen.query_one("#title-menu")
    await pilot.press(*["down"] * menu.get_option_index("learn"), "enter")  # Learn to play
    await pilot.pause()
    await pilot.press("enter")  # the first lesson
    await pilot.pause()
    await pilot.press("enter", "2", "1", "1")  # the intro; the Rouleur draws first; a card each
    await pilot.pause()


async def wind(pilot) -> None:
    """Round 2, the second rider's pick: each card marked with who will be in
    the wind (+E, +E 30%), counting the first rider's card already down."""
    await recap(pilot)
    await pilot.press("1")  # the Sprinteur draws first
    await settle(pilot)
    await pilot.press("4")  # its card; the Rouleur draws
    await settle(pilot)
    await pilot.press("right")


# a hosted table's fixed codes and port (the host screen shows them: the screenshot and its snapshot
# stay the same; a real host draws new secret codes and asks for port 8765)
HOST_PORT = 47651
HOST_CODES = {1: "K7QM4XPD9RTA"}
HOST_ROOM = "787B9"


async def host(pilot) -> None:
    """"Host a table": seat 1 played here, seat 2 on its own device (not joined yet),
    seat 3 a bot; the table serves on HOST_PORT (and its page for browsers on the next)."""
    import time

    from .choices import HERE
    from .screens.host import HostScreen

    c = choices(n=3)
    c.seats[0].controller = HERE
    c.seats[2].controller = "easy"
    pilot.app.push_screen(HostScreen(c.session(), c.here(), codes=HOST_CODES, room=HOST_ROOM, port=HOST_PORT))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        await pilot.pause(0.05)
        screen = pilot.app.screen
        if getattr(screen, "server", None) is not None and screen.table.devices_waiting():
            break
    await pilot.pause(0.2)


async def host_seat(pilot) -> None:
    """The hosted table's seat played here (`p`): its own screen, joined over loopback, its turn."""
    import time

    await host(pilot)
    await pilot.press("p")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        await pilot.pause(0.05)
        table = getattr(pilot.app.screen, "table", None)
        if table is not None and getattr(table, "turn", None) is not None:
            break
    await pilot.pause(0.2)


SCENARIOS = {
    "host": host,
    "host-seat": host_seat,
    "title": title,
    "variants": variants,
    "stages": stages,
    "stage-editor": stage_editor,
    "teams": teams,
    "curtain": curtain,
    "rider-choice": rider_choice,
    "card-pick": card_pick,
    "reveal": reveal,
    "podium": podium,
    "review": review,
    "curtain-table": curtain_table,
    "recap": recap,
    "wind": wind,
    "meteo": meteo_crash,
    "bmx-builder": bmx_builder,
    "bmx-pick": bmx_pick,
    "bmx-die": bmx_die,
    "teams-focus": teams_focus,
    "help-bmx": help_bmx,
    "settings": settings_screen,
    "help-teams": help_teams,
    "light-teams": light_teams,
    "saved-races": saved_races,
    "profile": profile,
    "replay": replay,
    "replay-bmx": replay_bmx,
    "tour-menu": tour_menu,
    "tour-stages": tour_stages,
    "tour-stage-result": tour_stage_result,
    "tour-gc": tour_gc,
    "tour-podium": tour_podium,
    "tour-race": tour_race,
    "tour-standings": tour_standings,
    "peloton-race": peloton_race,
    "peloton-reveal": peloton_reveal,
    "peloton-bid": peloton_bid,
    "peloton-bids": peloton_bids,
    "coach": coach,
    "hint": hint,
    "tutorial": tutorial,
}
