"""`flamme-tui host`: a race whose seats play on their own devices.

The race is set up as `race` takes it; `--bots` names who plays each seat,
`device` for a seat played on its own device (`flamme-tui join`).  The host
prints the join address, the room code (for watchers), each device seat's
code and a QR code of the address, then tells who joins, whom the table
waits for and each round revealed, and reads a few commands on its standard
input: `bot N [BOT]` gives seat N to a bot (a player who left), `device N`
gives it back to its device (the same code), `quit`.
The race is autosaved as every race is, and the codes beside it: `host
--from SAVE` reopens the table and the devices come back with their codes.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

from .. import saves
from ..i18n import _
from ..net.guard import join_address
from ..net.qr import qr_lines
from ..play.narrator import host_line
from ..usertext import clean
from ..words import team_name

DEVICE = "device"  # the seat name (in --bots) of a seat played on its own device
DEFAULT_PORT = 8765


def say(line: str) -> None:
    print(clean(line), flush=True)


def complain(message: str) -> int:
    print(clean(f"flamme-tui: {message}", multiline=False), file=sys.stderr)
    return 2


def plan(args: Any) -> tuple[dict[int, str], tuple[str, ...], set[int]] | str:
    """Bots, scripted teams and device seats from --bots (a problem in words otherwise)."""
    from ..play.races import seat_plan
    from . import _seat_names, seat_count

    seats = seat_count(args)
    names = [b for b in args.bots.split(",") if b] or [DEVICE]
    if len(names) == 1:
        names *= seats
    # a device seat is checked as a bot's would be (the engine's rules of who may race)
    problem = _seat_names(["easy" if n == DEVICE else n for n in names], args.variant, seats, "host: --bots")
    if problem:
        return problem
    devices = {s for s, n in enumerate(names) if n == DEVICE}
    if not devices:
        return _("host: --bots: name at least one seat `device` (played on its own device)")
    bots, scripted = seat_plan(["easy" if n == DEVICE else n for n in names])
    return {s: b for s, b in bots.items() if s not in devices}, scripted, devices


def cmd_host(args: Any) -> int:
    from ..net.guard import cannot_listen
    from ..net.host import HostTable, read_codes, seats_file
    from ..play.session import Session, secret_seed
    from . import _spec, budget_of

    if args.from_file:
        try:
            session = saves.load(args.from_file)
        except saves.SaveError as exc:
            return complain(str(exc))
        if session.over:
            return complain(_("{file} holds a finished race").format(file=args.from_file))
        codes_path = seats_file(Path(args.from_file))
        try:
            room, codes = read_codes(codes_path, len(session.setup.teams))
        except ValueError as exc:
            return complain(str(exc))
        devices = {s for s in codes if s not in session.bots}
        table = HostTable(session, devices, codes, room)
        target: Path | None = Path(args.from_file)
    else:
        planned = plan(args)
        if isinstance(planned, str):
            return complain(planned)
        bots, scripted, devices = planned
        # (a seat's device must not be able to deal the race itself: see --seed)
        seed = args.seed if args.seed is not None else secret_seed()
        session = Session.new(_spec(args, scripted), seed, bots=bots)
        table = HostTable(session, devices)
        target = None
    session.budget = budget_of(args)
    if args.here and args.here - 1 not in table.devices:
        return complain(_("host: --here: seat {n} is not played on a device (name it `device` in --bots)").format(
            n=args.here))

    # the set-up first (what the command line says), then the address: both before a race file is taken
    problem = cannot_listen(args.host, args.port)
    if problem:
        return complain(_("cannot listen on {host}:{port}: {problem}").format(host=args.host, port=args.port,
                                                                            problem=problem))

    def failed(exc: Exception) -> None:
        print(_("flamme-tui: could not save the race: {problem}; the race goes on").format(
            problem=saves.save_problem(exc)), file=sys.stderr, flush=True)

    try:
        autosave = saves.attach_autosave(session, target, directory=args.saves)
    except saves.SaveLocked as exc:
        return complain(str(exc))
    try:
        # a table whose race or codes cannot be saved could not be reopened: refused before it is hosted
        if autosave.error is not None:
            return complain(_("cannot save the race: {problem}").format(problem=saves.save_problem(autosave.error)))
        try:
            table.save_codes()
        except OSError as exc:
            return complain(_("cannot save the race: {problem}").format(problem=saves.save_problem(exc)))
        autosave.on_error = failed  # later failures: said, and the race goes on
        return asyncio.run(_serve(table, args, autosave.path))
    finally:
        autosave.detach()  # the race file let go (its lock)
        autosave.stop()


async def _start_page(args: Any, port: int, devices: int) -> Any:
    """The page for browsers and phones (textual-serve running `flamme-tui join`
    in each tab, which asks for the code): its runner, or None (no --web-port,
    no textual-serve, or the port cannot be used: said in one line)."""
    if not args.web_port:
        return None
    try:
        from ..ui.serve import start_page
    except ImportError:
        say(_("(no page for browsers: textual-serve is not installed)"))
        return None
    local = "127.0.0.1" if args.host in ("", "0.0.0.0", "::") else args.host  # where the tabs' apps reach the table
    # (exec: the tab's app is the host's own child, not a shell's, so it sees the host go: ui/join.py)
    command = " ".join(("exec", shlex.quote(sys.executable), "-P", "-m", "flamme_tui", "join",
                        shlex.quote(join_address(local, port))))
    try:
        return await start_page(command, args.host, args.web_port, max_sessions=devices + 4)
    except (OSError, ImportError) as exc:
        say(_("(no page for browsers on port {port}: {why})").format(port=args.web_port,
                                                                   why=getattr(exc, "strerror", None) or exc))
        return None


def _announce(table: Any, address: str, path: Path, page: str | None = None) -> list[str]:
    """Print (and return, for the host's own seat screen) the address, the codes and the QR code."""
    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        print(clean(line), flush=True)

    setup = table.session.setup
    say(_("Hosting a table of flamme-tui on {address}").format(address=address))
    say(_("The race is saved in {path}").format(path=path))
    say(_("Room code (to watch): {code}").format(code=table.room))
    from ..net.host import show_code

    for seat in sorted(table.devices):
        say(_("  {team}: flamme-tui join {address} {code}").format(team=team_name(setup, seat), address=address,
                                                                  code=show_code(table.codes[seat])))
    say(_("  watch: flamme-tui join {address} {code} --watch").format(address=address, code=table.room))
    if page is not None:
        say(_("  in a browser or on a phone: http://{page}/ (then type the code)").format(page=page))
    qr = qr_lines(f"http://{page or address}/")
    if qr is None:
        say(_("(no QR code: install the segno package to show one)"))
    else:
        for line in qr:
            print(line)
    say(commands_line())
    return said


def commands_line() -> str:
    return _("Commands: `bot N` gives seat N to a bot, `device N` gives it back to its device, "
             "`quit` ends hosting (the race stays saved).")


async def _serve(table: Any, args: Any, path: Path) -> int:
    from ..net.host import HostServer
    from ..play import narrator

    session = table.session
    setup = session.setup
    last: list[str] = [""]
    screen: list[Any] = []  # the host's own seat screen while it runs: what the host says goes to its log

    def tell(kind: str, seat: int | None = None, **facts: Any) -> None:
        names = [team_name(setup, s) for s in range(len(setup.teams))]
        line = host_line(kind, names[seat] if seat is not None else "", names, **facts)
        if line is None:
            return
        if line != last[0]:  # the table is told after every change: say each thing once
            last[0] = line
            if screen:
                screen[0].host_note(line)
            else:
                say(line)

    server = HostServer(table, args.host, args.port, say=tell)
    await server.start()
    address = join_address(args.host, server.port)
    page = await _start_page(args, server.port, len(table.devices))
    intro = _announce(table, address, path, None if page is None else join_address(args.host, args.web_port))

    pending = [b""]  # what came on stdin after its last whole line

    def read_command() -> None:
        """Every whole line on stdin now (read from its descriptor: sys.stdin.readline took
        two lines typed or piped at once into its buffer, and the second waited there unread
        until a third came)."""
        try:
            data = os.read(sys.stdin.fileno(), 4096)
        except (OSError, ValueError):
            data = b""
        lines = (pending[0] + data).split(b"\n")
        pending[0] = (lines.pop() if data else b"")[-4096:]  # (bounded: a line that long is no command)
        if not data:  # no more input (closed, or none given): hosting goes on
            asyncio.get_running_loop().remove_reader(sys.stdin)
        for line in lines:
            if len(line) <= 200:  # (a command is a few words)
                command(line.decode("utf-8", "replace"))

    def command(line: str) -> None:
        words = line.split()
        if words[:1] == ["quit"]:
            server.done.set()
        elif words[:1] == ["bot"] and len(words) in (2, 3) and words[1].isdigit():
            seat = int(words[1]) - 1
            from ..bots import POLICIES

            policy = words[2] if len(words) == 3 else "easy"
            if (seat not in table.devices and seat not in session.bots) or policy not in POLICIES:
                say(_("bot N [BOT]: N is a device seat (1-{n}), BOT one of {bots}").format(
                    n=len(setup.teams), bots=", ".join(POLICIES)))
            else:
                asyncio.ensure_future(server.hand_to_bot(seat, policy))
        elif words[:1] == ["device"] and len(words) == 2 and words[1].isdigit():
            seat = int(words[1]) - 1
            if seat not in table.given():
                given = ", ".join(str(s + 1) for s in table.given())
                say(_("device N: N is a seat given to a bot that had a device ({seats})").format(
                    seats=given or _("none now")))
            else:
                asyncio.ensure_future(give_back(seat))
        elif words:
            say(commands_line())

    async def give_back(seat: int) -> None:
        if await server.give_back(seat):
            from ..net.host import show_code

            say(_("  {team}: flamme-tui join {address} {code}").format(team=team_name(setup, seat), address=address,
                                                                      code=show_code(table.codes[seat])))

    loop = asyncio.get_running_loop()
    try:
        loop.add_reader(sys.stdin, read_command)
    except (OSError, ValueError, NotImplementedError):  # no stdin to read (or not a pollable one)
        pass
    # SIGTERM or SIGHUP (the terminal gone) end hosting as `quit` does: the devices are told,
    # the race saved and its lock file removed (the default action killed the process at once)
    # (--here: the seat's app has its own watch, ui/hangup.py, and hosting ends with it)
    stops = [] if args.here else [n for n in (getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP")) if n is not None]
    for number in stops:
        try:
            loop.add_signal_handler(number, server.done.set)
        except (NotImplementedError, RuntimeError, ValueError):  # (Windows; not the main thread)
            pass
    try:
        if args.here:
            await _here(table, args.here - 1, server, intro, screen, read_command)
        await server.done.wait()
    finally:
        try:
            loop.remove_reader(sys.stdin)
        except (OSError, ValueError, NotImplementedError):
            pass
        for number in stops:
            try:
                loop.remove_signal_handler(number)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
        await server.stop()
        if page is not None:
            await page.cleanup()
    if session.over:
        say(narrator.cli_says("final ranking"))
        # in the words and squares (from the start line) the devices show, not the engine's
        for place, i in enumerate(session.game.ranking(), 1):
            say(narrator.ranking_line(session.game, place, i))
    return 0


async def _here(table: Any, seat: int, server: Any, intro: list[str], screen: list[Any], read_command: Any) -> None:
    """The host's own seat (--here): its screen in this terminal, joined over
    loopback like any device (its code, its own view only), what the host
    says written in its log meanwhile.  Quitting it leaves the table hosted
    (the seat waits, or `bot N` gives it away); Textual has the keyboard
    until then, so the host's commands wait too."""
    from ..net.host import show_code
    from ..ui.join import JoinApp

    loop = asyncio.get_running_loop()
    try:
        loop.remove_reader(sys.stdin)
    except (OSError, ValueError, NotImplementedError):
        pass
    app = JoinApp(join_address("127.0.0.1" if server.host in ("", "0.0.0.0", "::") else server.host, server.port),
                  show_code(table.codes[seat]), intro=intro)
    screen.append(app)
    try:
        await app.run_async()
    finally:
        screen.clear()
    if app.hangup.triggered:  # the terminal is gone, or SIGTERM/SIGHUP: hosting ends (the race is saved)
        server.done.set()
        return
    if not server.done.is_set():
        say(_("Your seat's screen is closed; the table is still hosted."))
        try:
            loop.add_reader(sys.stdin, read_command)
        except (OSError, ValueError, NotImplementedError):
            pass


def cmd_join(args: Any) -> int:
    from ..net.client import code_problem, ws_url

    # both checked before the app opens: a code that will not do is said here, not on a screen
    try:
        ws_url(args.address)
    except ValueError as exc:
        return complain(str(exc))
    problem = None if args.code is None else code_problem(args.code)
    if problem:
        return complain(problem)
    from ..ui.join import run  # (no code given: the app asks for it)

    return run(args.address, args.code, args.watch)
