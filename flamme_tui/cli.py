"""The `flamme-tui` command: the app, and headless tools (conformance, race, bench)."""

from __future__ import annotations

import argparse
import os
import sys
import time


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="flamme-tui", description="Flamme Rouge in the terminal, for hot-seat play.")
    parser.add_argument("--resume", nargs="?", const="", metavar="FILE",
                        help="open the app on a saved race (default: the latest race in progress)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    conf = sub.add_parser("conformance", help="run rules conformance cases")
    conf.add_argument("paths", nargs="+", metavar="PATH", help="case files or folders of *.yaml")

    race = sub.add_parser("race", help="play a whole race headless and print its log")
    _race_options(race)
    race.add_argument("--seed", type=int, default=1)
    race.add_argument("--bots", default="", metavar="BOT,BOT,...",
                      help="who plays each seat: a bot (easy, medium, hard) or, in classic, a scripted "
                           "team of the Peloton expansion (peloton, muscle); default: easy everywhere")
    race.add_argument("--from", dest="from_file", metavar="FILE",
                      help="finish a saved race headless (bots play every seat), saving as it goes")
    # hidden helpers for the kill tests: autosave into DIR, pause after each action, report each save
    race.add_argument("--autosave", metavar="DIR", help=argparse.SUPPRESS)
    race.add_argument("--slow", type=float, default=0, metavar="MS", help=argparse.SUPPRESS)
    race.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)

    replay = sub.add_parser("replay", help="step through a saved race round by round")
    replay.add_argument("file", metavar="FILE", help="a save file")
    replay.add_argument("--text", action="store_true", help="print the whole replay as text, without the app")

    stages = sub.add_parser("stages", help="list the stages, check stage files")
    stages_sub = stages.add_subparsers(dest="stages_command", metavar="ACTION", required=True)
    stages_sub.add_parser("list", help="the built-in and user stages")
    check = stages_sub.add_parser("check", help="validate stage files (exit 2 if any problem)")
    check.add_argument("paths", nargs="+", metavar="PATH", help="stage files or folders of *.yaml")

    # tours (GRAND-TOUR.md): list and check tour files, race a whole tour headless
    tours = sub.add_parser("tours", help="list the tours, check tour files")
    tours_sub = tours.add_subparsers(dest="tours_command", metavar="ACTION", required=True)
    tours_sub.add_parser("list", help="the built-in and user tours")
    tours_check = tours_sub.add_parser("check", help="validate tour files (exit 2 if any problem)")
    tours_check.add_argument("paths", nargs="+", metavar="PATH", help="tour files or folders of *.yaml")
    tour_race = sub.add_parser("tour", help="race a whole tour headless with bots: stage times, GC, Tour Points")
    tour_race.add_argument("--tour", metavar="ID|PATH",
                           help="a tour id (see `tours list`) or tour file (default: the 3-stage tour)")
    tour_race.add_argument("--stages", metavar="ID[:meteo],...", help="race these stages in order instead")
    tour_race.add_argument("--seed", type=_non_negative, default=1)
    tour_race.add_argument("--bots", default="", metavar="BOT,BOT,...",
                           help="who plays each seat (2 to 4): easy, medium, hard or, on classic stages, "
                                "peloton, muscle; default: easy for 4 teams")

    bench = sub.add_parser("bench", help="simulate whole races and print races per second")
    _race_options(bench)
    bench.add_argument("-n", "--races", type=int, default=2000, help="races to simulate (default 2000)")
    bench.add_argument("--bot", choices=("easy", "medium", "hard"),
                       help="time this bot's decisions instead (seats: BOT, medium, medium, easy)")
    tour = sub.add_parser("tournament", help="seeded races between bots, win shares with 95% intervals")
    tour.add_argument("bots", nargs="+", metavar="BOT",
                      help="one bot per seat, 2 to 4 (easy, medium, hard; classic: also peloton, muscle)")
    tour.add_argument("-n", "--races", type=int, default=200)
    tour.add_argument("--variant", choices=("classic", "meteo", "bmx"), default="classic")
    tour.add_argument("--stage", action="append", help="stage id (repeatable; default: the 7 stages)")
    tour.add_argument("-j", "--jobs", type=int, default=None, help="processes (default: all cores)")
    return parser


def _race_options(p: argparse.ArgumentParser) -> None:
    from . import DEFAULT_STAGE, VARIANTS

    p.add_argument("--variant", choices=VARIANTS, default="classic")
    p.add_argument("--stage", default=DEFAULT_STAGE, help="stage id or path to a stage file (classic, meteo)")
    p.add_argument("--circuit", default="ABCD", help="bmx: side of each tile A B C D (lower case = back side)")
    p.add_argument("--teams", type=int, default=4, choices=(2, 3, 4), help="number of teams (default 4)")
    p.add_argument("--ramp", type=_pair, metavar="SQUARE:NUMBER", help="bmx: jump ramp on a lap square (0-27), number 1-5")
    p.add_argument("--young", type=_pair, metavar="SEAT:TOKENS",
                   help="bmx young-children variant: 1-3 fatigue tokens in the bag of seat 1-4")
    p.add_argument("--forecast", action="store_true", help="bmx weather-forecast variant: roll the die before drawing")


def _pair(text: str) -> tuple[int, int]:
    try:
        a, b = text.split(":")
        return int(a), int(b)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two numbers like 10:3, got {text!r}") from None


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 2**63 - 1, got {text}")
    return value


def cmd_tour(args) -> int:
    """Race a whole tour with bots; print each stage's times, the GC and the TP."""
    from .bots import POLICIES
    from .engine.race import Team
    from .races import COLOURS, play_out, rider_name, seat_plan
    from .tours import Tour, load_tour, race_tour, stages_option
    from .tours_cli import final_report, tour_report

    if args.tour and args.stages:
        print("flamme-tui: tour: give --tour or --stages, not both", file=sys.stderr)
        return 2
    spec = stages_option(args.stages) if args.stages else load_tour(args.tour or "3-petit-tour")
    names = [b for b in args.bots.split(",") if b] or ["easy"]
    if len(names) == 1:
        names *= 4
    variant = "meteo" if any(leg.variant == "meteo" for leg in spec.stages) else "classic"
    problem = None if 2 <= len(names) <= 4 else "tour: --bots: give 2 to 4 seats"
    problem = problem or _seat_names(names, variant, len(names), "tour: --bots")
    if problem:
        print(f"flamme-tui: {problem}", file=sys.stderr)
        return 2
    bots, scripted = seat_plan(names)
    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[: len(names)])
    tour = Tour(spec, teams, args.seed, scripted)
    print(f"{spec.name}, {len(spec.stages)} stages, seed {args.seed}: "
          + ", ".join(f"{t.name} ({names[s]})" for s, t in enumerate(teams)))

    def play(game) -> None:
        play_out(game, {seat: POLICIES[name] for seat, name in bots.items()})  # type: ignore[misc]

    def report(tour, done) -> None:
        print()
        print("\n".join(tour_report(tour, done, lambda game, rid: rider_name(game, game.index[rid]))))

    race_tour(tour, play, report)
    print()
    print("\n".join(final_report(tour)))
    return 0


def _spec(args, scripted: tuple[str, ...] = ()):
    from .config import ConfigError
    from .races import COLOURS, RaceSpec, Team

    teams = tuple(Team(c.capitalize(), c) for c in COLOURS[: args.teams])
    young: tuple[int, ...] = ()
    if args.young:
        seat, tokens = args.young
        if not (1 <= seat <= args.teams and 1 <= tokens <= 3):
            raise ConfigError(f"seat 1-{args.teams} and 1 to 3 tokens, got {seat}:{tokens}", field="--young")
        young = tuple(tokens if s == seat - 1 else 0 for s in range(args.teams))
    return RaceSpec(variant=args.variant, stage=args.stage, teams=teams, circuit=args.circuit,
                    ramp=args.ramp, young=young, forecast=args.forecast, scripted=scripted)


def _seat_names(names: list[str], variant: str, teams: int, command: str) -> str | None:
    """What is wrong with the seat names given (None if nothing)."""
    from .bots import POLICIES
    from .engine.classic import SCRIPTED
    from .engine.rules import find

    known = list(POLICIES) + (list(SCRIPTED) if find(variant).scripted_teams else [])
    unknown = [b for b in names if b not in known]
    if unknown or len(names) != teams:
        return f"{command}: give {teams} of {', '.join(known)} (got {','.join(names)!r})"
    if all(b in SCRIPTED for b in names):
        return f"{command}: the Peloton and Muscle teams need at least one bot to race against"
    return None


def cmd_race(args) -> int:
    from .races import positions_text, ranking_lines, round_report, seat_plan, track_picture
    from .session import Session

    names = [b for b in args.bots.split(",") if b] or ["easy"]
    if len(names) == 1:
        names *= args.teams
    problem = _seat_names(names, args.variant, args.teams, "race: --bots")
    if problem:
        print(f"flamme-tui: {problem}", file=sys.stderr)
        return 2
    bots, scripted = seat_plan(names)
    if args.from_file or args.autosave:
        from .saves_cli import cmd_race_saved

        return cmd_race_saved(args, _spec(args, scripted), bots)
    session = Session.new(_spec(args, scripted), args.seed, bots=bots)
    game = session.game
    print(f"{game.course.name} ({game.variant}), seed {args.seed}, {args.teams} teams: "
          + ", ".join(f"{t.name} ({names[s]})" for s, t in enumerate(session.setup.teams)))
    print(f"start:    {track_picture(game)}")
    print(f"          {positions_text(game)}")
    while not session.over:
        reasons = []
        for seat in session.bots:
            team = session.setup.teams[seat].name
            reasons += [f"({team} bot: {a}: {why})" for a, why in session.play_bot(seat) if why]
        print("\n".join(round_report(game, reasons)))
    print("Final ranking")
    for line in ranking_lines(game):
        print(line)
    return 0


def cmd_bench(args) -> int:
    from .bots import easy
    from .races import make_setup, new_game, play_out

    if args.bot:
        return bench_bot(args)
    setup = make_setup(_spec(args))
    policies = {seat: easy for seat in range(len(setup.teams))}
    rounds = 0
    start = time.perf_counter()
    for seed in range(args.races):
        game = new_game(setup, seed)
        play_out(game, policies)
        rounds += game.round
    elapsed = time.perf_counter() - start
    print(f"{args.races} {args.variant} races of {len(setup.teams)} teams on {setup.course.name}: "
          f"{elapsed:.2f} s, {args.races / elapsed:.0f} races/s, {rounds / args.races:.1f} rounds per race"
          f" ({engine_build()} engine)")
    return 0


def engine_build() -> str:
    """'compiled' when the installed engine was built by mypyc, else 'pure Python'."""
    from .engine import classic

    return "pure Python" if classic.__file__.endswith(".py") else "compiled"


def bench_bot(args) -> int:
    """Wall time of each decision the bot takes with cards in hand, over whole races."""
    from statistics import median

    from .bots import POLICIES
    from .engine.phase import Phase
    from .races import make_setup, new_game

    setup = make_setup(_spec(args))
    seats = [args.bot, "medium", "medium", "easy"][: len(setup.teams)]
    times: list[float] = []
    for seed in range(args.races):
        game = new_game(setup, seed)
        while game.phase != Phase.OVER:
            start = game.round
            for seat, name in enumerate(seats):
                while game.round == start and game.needs(seat):
                    view = game.view(seat)
                    t = time.perf_counter()
                    action = POLICIES[name](view)
                    if seat == 0 and view.hands:
                        times.append(time.perf_counter() - t)
                    game.apply(action)
    times.sort()
    print(f"{args.bot} on {setup.course.name} ({args.variant}), {args.races} races, {len(times)} decisions: "
          f"median {median(times) * 1000:.1f} ms, 90th percentile {times[int(len(times) * 0.9)] * 1000:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms ({engine_build()} engine)")
    return 0


def cmd_tournament(args) -> int:
    from .tournament import tournament

    if not 2 <= len(args.bots) <= 4:
        print("flamme-tui: tournament: give 2 to 4 bots, one per seat", file=sys.stderr)
        return 2
    problem = _seat_names(args.bots, args.variant, len(args.bots), "tournament")
    if problem:
        print(f"flamme-tui: {problem}", file=sys.stderr)
        return 2
    tournament(args.bots, args.races, args.variant, args.stage, args.jobs)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None and args.resume is None:
        # the app first, before anything slow is imported: start-up time counts
        from .ui.app import run

        return run()
    from .config import ConfigError

    try:
        if args.command == "conformance":
            from .conformance import main as run

            return run(args.paths)
        if args.command == "race":
            return cmd_race(args)
        if args.command == "bench":
            return cmd_bench(args)
        if args.command == "tournament":
            return cmd_tournament(args)
        if args.command == "replay":
            from .saves_cli import cmd_replay

            return cmd_replay(args.file, text=args.text)
        if args.command == "tours":
            from . import tours_cli

            return tours_cli.check(args.paths) if args.tours_command == "check" else tours_cli.listing()
        if args.command == "tour":
            return cmd_tour(args)
        if args.command == "stages":
            from . import stages_cli

            return stages_cli.check(args.paths) if args.stages_command == "check" else stages_cli.listing()
        if args.command is None:
            from .saves_cli import cmd_resume

            return cmd_resume(args.resume or None)
    except ConfigError as exc:
        print(f"flamme-tui: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`flamme-tui race | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
