"""The `flamme-tui` command: the app, and headless tools (conformance, race, bench)."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import time
from typing import Any

from .. import BOT_SECONDS, MAX_BOT_ROLLOUTS, MAX_BOT_SECONDS, MAX_SEED, MIN_BOT_SECONDS, __version__
from ..arguments import Parser, Whole, add_lang, lang_asked
from ..i18n import _, decimal, ngettext, pgettext, short
from ..limits import MAX_SEED as SAVED_SEEDS
from ..limits import MAX_TOUR_STAGES
from ..usertext import clean
from ..words import team_name, variant_word

# the most races one command may ask for: plenty for any measure, and seeds stay in range
MAX_RACES = 100_000
MAX_JOBS = 256  # processes of a tournament


def _variant_help() -> str:
    """--variant's help, in the language of the run (the parser is built once it is chosen)."""
    return _("rule set: classic (the default), meteo (the weather) or bmx (the kids' game: one rider each)")


def milliseconds(text: str) -> float:
    """An argparse type: a pause of 0 to 60000 ms."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 60_000:  # NaN fails too
        raise argparse.ArgumentTypeError(_("expected milliseconds from 0 to 60000, got {text!r}").format(text=text))
    return value


def seconds(text: str) -> float:
    """An argparse type: a bot's thinking time per decision, in seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not MIN_BOT_SECONDS <= value <= MAX_BOT_SECONDS:  # NaN fails too
        raise argparse.ArgumentTypeError(_("expected seconds from {low} to {high}, got {text!r}").format(
            low=short(MIN_BOT_SECONDS), high=short(MAX_BOT_SECONDS), text=text))
    return value


def _kill_test_options(parser: argparse.ArgumentParser, step: bool = False) -> None:
    """Hidden helpers for the kill tests: autosave into DIR, pause after each action, report each save
    (`step`: and --step, wait for a line on stdin after each report, so that a test kills the process
    at a point chosen by what was saved, whatever the machine's speed)."""
    parser.add_argument("--autosave", metavar=pgettext("metavar", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--slow", type=milliseconds, default=0, metavar="MS", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    if step:
        parser.add_argument("--step", action="store_true", help=argparse.SUPPRESS)


def _seed_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=Whole(0, MAX_SEED), default=1, metavar=pgettext("metavar", "SEED"),
                   help=_("0 to {max} (default 1): the same seed and options give the same race").format(max=MAX_SEED))


def _budget_options(p: argparse.ArgumentParser) -> None:
    """--budget and --rollouts: how long the expert bot thinks over each decision."""
    p.add_argument("--budget", type=seconds, default=BOT_SECONDS, metavar=pgettext("metavar", "SECONDS"),
                   help=_("expert bot: thinking time per decision, {low} to {high} (default {default})").format(
                       low=short(MIN_BOT_SECONDS), high=short(MAX_BOT_SECONDS), default=short(BOT_SECONDS)))
    p.add_argument("--rollouts", type=Whole(1, MAX_BOT_ROLLOUTS), default=None, metavar="N",
                   help=_("expert bot: simulated races per decision instead of a time budget "
                        "(the same seed gives the same decisions, whatever the machine's load)"))


def budget_of(args: argparse.Namespace):
    """The expert's budget the options give."""
    from ..bots.budget import Budget

    return Budget(seconds=args.budget, rollouts=args.rollouts)


def build_parser() -> Parser:
    parser = Parser(prog="flamme-tui", description=_("Flamme Rouge in the terminal, for hot-seat play."))
    parser.add_argument("--version", action="version", version=f"flamme-tui {__version__}",
                        help=_("show the version and exit"))
    add_lang(parser, top=True)
    parser.add_argument("--resume", nargs="?", const="", metavar=pgettext("metavar", "FILE"),
                        help=_("open the app on a saved race (default: the latest race in progress)"))
    parser.add_argument("--seed", dest="app_seed", type=Whole(0, MAX_SEED), default=None, metavar=pgettext("metavar", "SEED"),
                        help=_("the app: the seed its teams screen offers every new race (to race one again)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    conf = sub.add_parser("conformance", help=_("run rules conformance cases"))
    conf.add_argument("paths", nargs="+", metavar=pgettext("metavar", "PATH"), help=_("case files or folders of *.yaml"))

    race = sub.add_parser("race", help=_("play a whole race headless and print its log"))
    _race_options(race)
    _seed_option(race)
    race.add_argument("--bots", default="", metavar="BOT,BOT,...",
                      help=_("who plays each seat: a bot (easy, medium, hard, expert) or, in classic, a scripted "
                           "team of the Peloton expansion (peloton, muscle); default: easy everywhere"))
    _budget_options(race)
    race.add_argument("--from", dest="from_file", metavar=pgettext("metavar", "FILE"),
                      help=_("finish a saved race headless with bots, in a new race file (FILE is left as it is)"))
    race.add_argument("--bots-for-humans", action="store_true",
                      help=_("with --from: let bots (easy, or as --bots says) play the human seats too"))
    _kill_test_options(race)

    replay = sub.add_parser("replay", help=_("step through a saved race round by round"))
    replay.add_argument("file", metavar=pgettext("metavar", "FILE"), help=_("a save file"))
    replay.add_argument("--text", action="store_true", help=_("print the whole replay as text, without the app"))

    tutorial = sub.add_parser("tutorial", help=_("learn to play: a short race that teaches one idea a round"))
    tutorial.add_argument("lesson", nargs="?", metavar=pgettext("metavar", "LESSON"),
                          help=_("a lesson's id (the name of its file in stages/lessons: classic); default: the menu"))

    coach = sub.add_parser("coach", help=_("after a race: each human seat's three costliest cards against the "
                                           "expert's choice, with the reason"))
    coach.add_argument("file", metavar=pgettext("metavar", "FILE"), help=_("the save file of a finished race, or of a tour"))
    coach.add_argument("--stage", type=Whole(1, MAX_TOUR_STAGES), metavar="K",
                       help=_("a tour: coach its stage K (default: the last stage finished)"))
    coach.add_argument("--rollouts", type=Whole(1, MAX_BOT_ROLLOUTS), default=200, metavar="N",
                       help=_("the expert's simulated races per decision (default 200; the same N, the same answer)"))

    stages = sub.add_parser("stages", help=_("list the stages, check stage files"))
    # (no ACTION lists them: `flamme-tui stages` alone said "the following arguments are required")
    stages_sub = stages.add_subparsers(dest="stages_command", metavar="ACTION", help=_("what to do (default: list)"))
    stages_sub.add_parser("list", help=_("the built-in and user stages"))
    check = stages_sub.add_parser("check", help=_("validate stage files or codes (exit 2 if any problem)"))
    check.add_argument("paths", nargs="+", metavar=pgettext("metavar", "PATH"),
                       help=_("stage files, folders of *.yaml, or stage codes (fr1:...)"))
    rand = stages_sub.add_parser("random", help=_("a random stage: each tile once, reproducible by its seed; "
                                                "prints its code and its file"))
    rand.add_argument("--seed", type=Whole(0, MAX_SEED), default=None, metavar=pgettext("metavar", "SEED"),
                      help=_("0 to {max} (default: a new one, printed): the same seed and options give the "
                             "same stage").format(max=MAX_SEED))
    rand.add_argument("--length", choices=("short", "medium", "long"), default="medium",
                      help=_("squares from start line to finish line: short 40-52, medium 53-64, long 65-90 "
                           "(default medium)"))
    rand.add_argument("--kind", choices=("flat", "hilly", "mountain"), default="hilly",
                      help=_("no climb, up to 18 climb squares, or more (default hilly)"))
    rand.add_argument("--boxes", default="base", metavar=pgettext("metavar", "BOX,BOX"),
                      help=_("the tiles to use: base, or base,peloton (default base)"))

    # tours: list and check tour files, race a whole tour headless
    tours = sub.add_parser("tours", help=_("list the tours, check tour files"))
    tours_sub = tours.add_subparsers(dest="tours_command", metavar="ACTION", help=_("what to do (default: list)"))
    tours_sub.add_parser("list", help=_("the built-in and user tours"))
    tours_check = tours_sub.add_parser("check", help=_("validate tour files (exit 2 if any problem)"))
    tours_check.add_argument("paths", nargs="+", metavar=pgettext("metavar", "PATH"), help=_("tour files or folders of *.yaml"))
    tour_race = sub.add_parser("tour", help=_("race a whole tour headless with bots: stage times, GC, Tour Points"))
    tour_race.add_argument("--tour", metavar=pgettext("metavar", "ID|PATH"),
                           help=_("a tour id (see `tours list`) or tour file (default: the 3-stage tour)"))
    tour_race.add_argument("--stages", metavar="ID[:meteo],...", help=_("race these stages in order instead"))
    tour_race.add_argument("--seed", type=Whole(0, MAX_SEED), default=1, metavar=pgettext("metavar", "SEED"),
                           help=_("0 to {max} (default 1): the same seed and options give the same tour").format(
                               max=MAX_SEED))
    tour_race.add_argument("--bots", default="", metavar="BOT,BOT,...",
                           help=_("who plays each seat (2 to 4): easy, medium, hard, expert or, on classic "
                                "stages, peloton, muscle; default: easy for 4 teams"))
    tour_race.add_argument("--from", dest="from_file", metavar=pgettext("metavar", "FILE"),
                           help=_("finish a saved tour headless with its bots, in a new file (FILE is left as it is)"))
    tour_race.add_argument("--bots-for-humans", action="store_true",
                           help=_("with --from: let the easy bot play the human seats too"))
    _budget_options(tour_race)
    _kill_test_options(tour_race, step=True)

    bench = sub.add_parser("bench", help=_("simulate whole races and print the CPU time per race"),
                           description=_("Simulate whole races with the easy bot in every seat and print the CPU "
                                       "time per race. With no race option, classic, meteo and bmx races in turn."))
    _race_options(bench)
    bench.add_argument("-n", "--races", type=Whole(1, MAX_RACES), default=2000, metavar="N",
                       help=_("races to simulate, 1 to {max} (default 2000)").format(max=MAX_RACES))
    modes = bench.add_mutually_exclusive_group()  # one measure a run: a second one was dropped without a word
    modes.add_argument("--bot", choices=("easy", "medium", "hard", "expert", "hard-before"),
                       help=_("time this bot's decisions instead (seats: BOT, medium, medium, easy; "
                            "hard-before: hard as it was, for comparison)"))
    modes.add_argument("--hint", action="store_true",
                       help=_("time the hint key's answers as the app gets them (the thinking process), at every "
                              "decision of one seat over N races (default 3; budget: the expert's, 1 s)"))
    modes.add_argument("--readers", action="store_true",
                       help=_("time every reader of user files (save, settings, stage, tour, case and data files) "
                            "on crafted files of 1x, 4x and 16x a size: CPU ms per KB"))
    modes.add_argument("--net", action="store_true",
                       help=_("time a hosted table over loopback: 12 seats on their own devices and 20 watchers, "
                              "N races (default 1): reveal latency, the host's CPU per round and memory"))
    _budget_options(bench)
    # flamme-tui serve: the app in a browser tab (textual-serve); localhost unless told otherwise
    serve = sub.add_parser("serve", help=_("play in a browser tab (serves the app with textual-serve)"))
    serve.add_argument("--host", default="127.0.0.1", metavar=pgettext("metavar", "HOST"),
                       help=_("address to listen on (default 127.0.0.1: this computer only)"))
    serve.add_argument("--port", type=_port, default=8000, metavar=pgettext("metavar", "PORT"),
                       help=_("port to listen on (default 8000)"))
    serve.add_argument("--max-sessions", type=Whole(1, 64), default=4, metavar="N",
                       help=_("browser tabs playing at once, 1 to 64 (default 4): each runs its own flamme-tui"))
    # flamme-tui host / join: each player's hand on their own device (net/, docs/PROTOCOL.md)
    host = sub.add_parser("host", help=_("host a race whose seats play on their own devices (flamme-tui join)"))
    _race_options(host)
    # the race is the set-up, the seed and the actions: a device that knew the seed could deal every hand
    # itself (a small one by trying them all against its own first hand and the grid), so none by default
    host.add_argument("--seed", type=Whole(0, SAVED_SEEDS), default=None, metavar=pgettext("metavar", "SEED"),
                      help=_("0 to {max} (default: a random one nobody is told; a player who knew the seed could "
                             "work out every hand)").format(max=SAVED_SEEDS))
    host.add_argument("--bots", default="", metavar=pgettext("metavar", "WHO,WHO,..."),
                      help=_("who plays each seat: device (a player on their own device, the default) or a bot "
                           "(easy, medium, hard, expert)"))
    _budget_options(host)
    host.add_argument("--host", default="127.0.0.1", metavar=pgettext("metavar", "HOST"),
                      help=_("address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the network)"))
    host.add_argument("--port", type=_port, default=8765, metavar=pgettext("metavar", "PORT"),
                      help=_("port to listen on (default 8765)"))
    host.add_argument("--web-port", type=_web_port, default=0, metavar="N",
                      help=_("also serve a page on port N for browsers and phones (each tab plays one seat by "
                             "its code; 0, the default: no page)"))
    host.add_argument("--here", type=Whole(1, 12), metavar=pgettext("metavar", "SEAT"),
                      help=_("play seat SEAT (1-12, a device seat) on this terminal, as `join` would"))
    host.add_argument("--from", dest="from_file", metavar=pgettext("metavar", "FILE"),
                      help=_("reopen the table of a hosted race from its save (the devices keep their codes)"))
    host.add_argument("--saves", metavar=pgettext("metavar", "DIR"),
                      help=_("folder of the race file (default: the saves folder)"))
    join = sub.add_parser("join", help=_("play your seat of a hosted race on this terminal, or watch it"))
    join.add_argument("address", metavar=pgettext("metavar", "ADDRESS"),
                      help=_("the host's address, HOST:PORT, as it printed it"))
    join.add_argument("code", nargs="?", metavar=pgettext("metavar", "CODE"),
                      help=_("your seat's code (or the room code with --watch)"))
    join.add_argument("--watch", action="store_true", help=_("watch the public table (no hand) with the room code"))
    # argparse expands %(...)s in help texts: a literal percent sign is written %%
    tour = sub.add_parser("tournament", help=_("seeded races between bots, win shares with 95%% intervals"))
    tour.add_argument("bots", nargs="+", metavar="BOT",
                      help=_("one bot per seat, 2 to 6 (bmx: 2 to 4): 2 for a head-to-head, more for a field (easy, "
                           "medium, hard, expert, and hard-before, hard as it was; classic, meteo: also peloton, muscle)"))
    tour.add_argument("-n", "--races", type=Whole(1, MAX_RACES), default=200, metavar="N",
                      help=_("races, 1 to {max} (default 200); race k has seed k").format(max=MAX_RACES))
    tour.add_argument("--variant", choices=("classic", "meteo", "bmx"), default="classic", help=_variant_help())
    tour.add_argument("--stage", action="append", metavar=pgettext("metavar", "STAGE"),
                      help=_("stage id (repeatable; default: the 7 base stages; not bmx); a Peloton stage races "
                           "its version for the teams racing"))
    tour.add_argument("--tour", metavar=pgettext("metavar", "ID|PATH"),
                      help=_("each game is a whole tour (see `tours list`): bots compared by tours won on Tour Points"))
    tour.add_argument("--breakaway", action="store_true",
                      help=_("the Peloton breakaway before round 1 (Peloton stages only)"))
    tour.add_argument("-j", "--jobs", type=Whole(1, MAX_JOBS), default=None, metavar="N",
                      help=_("processes, 1 to {max} (default: all cores)").format(max=MAX_JOBS))
    _budget_options(tour)
    # (argparse %-formats a help, not a description: there the %% the catalogs' python-format needs is undone)
    ladder = sub.add_parser("ladder", help=_("every bot against every other, by rule set and kind of stage: an Elo table"),
                            description=_("Head-to-head games between every pair of bots (and the scripted teams "
                                        "where they race), in classic by kind of stage (flat, hilly, mountain, "
                                        "cobbles), meteo and bmx; prints Elo ratings anchored at easy = 1000 with "
                                        "95%% intervals. Results are appended to FILE as games end; a rerun plays "
                                        "only the games still missing.").replace("%%", "%"))
    ladder.add_argument("-n", "--games", type=Whole(1, 10_000), default=4, metavar="N",
                        help=_("games per pair in each column, 1 to 10000 (default 4; each stage from both seats)"))
    ladder.add_argument("--file", metavar=pgettext("metavar", "FILE"),
                        help=_("the results file (default: ladder.jsonl in the data folder)"))
    ladder.add_argument("--bots", metavar="BOT,BOT,...",
                        help=_("the entrants, easy among them (default: easy, medium, hard, hard-before, expert, "
                             "peloton, muscle)"))
    ladder.add_argument("--only", metavar=pgettext("metavar", "COLUMN,..."),
                        help=_("only these columns: flat, hilly, mountain, cobbles, meteo, bmx"))
    ladder.add_argument("-j", "--jobs", type=Whole(1, MAX_JOBS), default=None, metavar="N",
                        help=_("processes, 1 to {max} (default: all cores)").format(max=MAX_JOBS))
    ladder.add_argument("--rollouts", type=Whole(1, MAX_BOT_ROLLOUTS), default=None, metavar="N",
                        help=_("the expert's simulated races per decision (default 100: a fixed budget)"))
    for command in _every_parser(sub):  # --lang after the command too: `flamme-tui race --lang fr`
        add_lang(command)
    return parser


def _every_parser(sub: Any) -> list[argparse.ArgumentParser]:
    """Every subcommand's parser, theirs included (`stages list`)."""
    found = []
    for command in dict.fromkeys(sub.choices.values()):
        found.append(command)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += _every_parser(action)
    return found


def _port(text: str) -> int:
    """A TCP port, 1-65535 (serve --port)."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(_("not a port number (1-65535): {text!r}").format(text=text))
    return int(text)


def _web_port(text: str) -> int:
    """host --web-port: a TCP port, or 0 for none."""
    return 0 if text == "0" else _port(text)


def _race_options(p: argparse.ArgumentParser) -> None:
    from .. import DEFAULT_STAGE, VARIANTS

    p.add_argument("--variant", choices=VARIANTS, default="classic", help=_variant_help())
    p.add_argument("--stage", metavar=pgettext("metavar", "STAGE"),
                   help=_("classic, meteo: stage id or path to a stage file (default {stage})").format(stage=DEFAULT_STAGE))
    p.add_argument("--circuit", metavar=pgettext("metavar", "CIRCUIT"),
                   help=_("bmx: side of each tile A B C D (lower case = back side; default ABCD)"))
    p.add_argument("--teams", type=Whole(2, 6), default=4, metavar="N",
                   help=_("number of teams, 2 to 6 (bmx: 2 to 4; default 4)"))
    p.add_argument("--players", type=Whole(2, 12), metavar="N",
                   help=_("classic, meteo: N players racing one rider each, 2 to 12 (the Peloton expansion's "
                        "7-12-player game), taking red.S, red.R, blue.S, ... in seat order; instead of --teams"))
    p.add_argument("--breakaway", action="store_true",
                   help=_("classic, meteo: the Peloton breakaway before round 1 (stages whose second tile is tile 2)"))
    p.add_argument("--ramp", type=_pair, metavar=pgettext("metavar", "SQUARE:NUMBER"),
                   help=_("bmx: jump ramp on a lap square (0-27), number 1-5"))
    p.add_argument("--young", type=_pair, metavar=pgettext("metavar", "SEAT:TOKENS"), action="append",
                   help=_("bmx young-children variant: 1-3 fatigue tokens in the bag of seat 1-4 (again for "
                          "another seat)"))
    p.add_argument("--forecast", action="store_true", help=_("bmx weather-forecast variant: roll the die before drawing"))


def _pair(text: str) -> tuple[int, int]:
    try:
        a, b = text.split(":")
        return int(a), int(b)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected two numbers like 10:3, got {text!r}").format(text=text)) from None


def cmd_tour(args) -> int:
    """Race a whole tour with bots; print each stage's times, the GC and the TP."""
    from .tours import cmd_tour as run

    return run(args)


def _spec(args, scripted: tuple[str, ...] = ()):
    """The race the options describe; an option of another variant is refused, not ignored."""
    from ..config import ConfigError
    from ..engine.rules import find
    from ..play.races import COLOURS, RaceSpec, Team, one_rider_seats
    from ..words import colour_name

    bmx = find(args.variant).uses_tokens  # a circuit of tiles A-D, not a stage
    given = {"--stage": args.stage is not None, "--circuit": args.circuit is not None,
             "--ramp": args.ramp is not None, "--young": args.young is not None, "--forecast": args.forecast}
    for option, is_given in given.items():
        if is_given and bmx == (option == "--stage"):
            raise ConfigError(_("not an option of {variant} races").format(variant=args.variant), field=option)
    for option, is_given in {"--players": args.players is not None, "--breakaway": args.breakaway}.items():
        if is_given and bmx:
            raise ConfigError(_("not an option of {variant} races").format(variant=args.variant), field=option)
    if args.players is not None and "--teams" in getattr(args, "argv", ()):
        raise ConfigError(_("give --teams or --players, not both"), field="--players")
    if bmx and args.teams > find(args.variant).max_teams:
        raise ConfigError(_("{variant} races 2 to {n} riders").format(variant=args.variant,
                                                                     n=find(args.variant).max_teams), field="--teams")
    if args.players is not None:
        teams = one_rider_seats(args.players)
    else:
        teams = tuple(Team(colour_name(c), c) for c in COLOURS[: args.teams])
    young: tuple[int, ...] = ()
    if args.young:
        bags = [0] * args.teams
        for seat, tokens in args.young:
            if not (1 <= seat <= args.teams and 1 <= tokens <= 3):
                raise ConfigError(_("seat 1-{teams} and 1 to 3 tokens, got {seat}:{tokens}").format(
                    teams=args.teams, seat=seat, tokens=tokens), field="--young")
            if bags[seat - 1]:  # (argparse would keep the last one given, silently)
                raise ConfigError(_("seat {seat} is given twice").format(seat=seat), field="--young")
            bags[seat - 1] = tokens
        young = tuple(bags)
    where = {"stage": args.stage, "circuit": args.circuit}  # not given: the race's defaults
    spec = RaceSpec(variant=args.variant, teams=teams, ramp=args.ramp, young=young, forecast=args.forecast,
                    scripted=scripted, breakaway=args.breakaway, **{k: v for k, v in where.items() if v is not None})
    return checked(spec)


def checked(spec):
    """The spec, if the engine builds a race from it; else ConfigError with the
    engine's reason (the rules of who may race live there, not here)."""
    from ..config import ConfigError
    from ..play.narrator import setup_words
    from ..play.races import make_setup, new_game

    try:
        new_game(make_setup(spec), 0)
    except ConfigError as exc:
        if exc.field == "sides":  # the BMX circuit's tiles: said of the option the player typed
            raise ConfigError(exc.message, field="--circuit") from None
        raise
    except ValueError as exc:
        raise ConfigError(setup_words(str(exc)), field="--bots" if spec.scripted else "--stage" if spec.breakaway
                          else None) from None
    return spec


def _seat_names(names: list[str], variant: str, teams: int, command: str, references: bool = False) -> str | None:
    """What is wrong with the seat names given (None if nothing); `references`:
    the earlier bots kept to measure against are allowed too (tournament)."""
    from ..bots import POLICIES, REFERENCES
    from ..engine.cards import SCRIPTED
    from ..engine.rules import find

    known = list(POLICIES) + (list(REFERENCES) if references else [])
    known += list(SCRIPTED) if find(variant).scripted_teams else []
    unknown = [b for b in names if b not in known]
    if unknown:  # the names not known, each once (one name given stands for every seat: 'nope', not 'nope,nope')
        return _("{command}: no bot is named {names}: name {n} from {known}, one a seat").format(
            command=command, names=", ".join(repr(b) for b in dict.fromkeys(unknown)), n=teams, known=", ".join(known))
    if len(names) != teams:
        return _("{command}: name {n} from {known}, one a seat (got {got}: {names})").format(
            command=command, n=teams, known=", ".join(known), got=len(names), names=",".join(names))
    if all(b in SCRIPTED for b in names):
        return _("{command}: the Peloton and Muscle teams need at least one bot to race against").format(command=command)
    return None


def play_breakaway(session) -> list[str]:
    """The bots make the breakaway's bids; its reveals and result in words."""
    from ..play.narrator import describe_round

    game = session.game
    lines = []
    while game.phase == "breakaway":
        move = session.bot_move()
        before = game.events
        session.play(move, move.think().action)
        if game.events is not before:  # a reveal (and at the last one the result)
            lines.extend(describe_round(game))
    return lines


def seat_count(args) -> int:
    """Seats of the race the options describe: --players, else --teams."""
    return int(args.players or args.teams)


def cmd_race(args) -> int:
    from ..play.narrator import (
        action_words,
        cli_says,
        measure_words,
        picture_lines,
        race_heading,
        ranking_lines,
        round_report,
        start_lines,
    )
    from ..play.races import seat_plan
    from ..play.session import Session

    if args.from_file:  # a saved race: its own setup and seats (cli.saves checks the options)
        from .saves import cmd_race_saved

        return cmd_race_saved(args, None, {})
    seats = seat_count(args)
    names = [b for b in args.bots.split(",") if b] or ["easy"]
    if len(names) == 1:
        names *= seats
    problem = _seat_names(names, args.variant, seats, "race: --bots")
    if problem:
        print(_("flamme-tui: {problem}").format(problem=problem), file=sys.stderr)
        return 2
    bots, scripted = seat_plan(names)
    if args.autosave:
        from .saves import cmd_race_saved

        return cmd_race_saved(args, _spec(args, scripted), bots)
    session = Session.new(_spec(args, scripted), args.seed, bots=bots)
    session.budget = budget_of(args)
    game = session.game
    print(clean(race_heading(game, args.seed, names, bool(args.players))))
    for line in start_lines(game):
        print(clean(line))
    if game.phase == "breakaway":
        for line in play_breakaway(session) + picture_lines(game):
            print(clean(line))
    while not session.over:
        reasons = [cli_says("bot reason", seat=team_name(session.setup, seat), action=action_words(game, a),
                            why=measure_words(why))
                   for seat, a, why in session.play_bots() if why]
        print(clean("\n".join(round_report(game, reasons))))
    print(cli_says("final ranking"))
    for line in ranking_lines(game):
        print(clean(line))
    return 0


# bench: the options that describe a race; with none of them given, every variant is timed
RACE_OPTIONS = ("--variant", "--stage", "--circuit", "--teams", "--players", "--breakaway", "--ramp", "--young",
                "--forecast")


def cmd_bench(args) -> int:
    if args.net:
        from ..net.bench import bench as bench_net

        given = any(a in ("-n", "--races") or a.startswith("--races=") for a in getattr(args, "argv", ()))
        for line in bench_net(races=args.races if given else 1):
            print(line, flush=True)
        return 0
    if args.readers:
        from ..bench_readers import run

        return run()
    if args.bot:
        return bench_bot(args)
    if args.hint:
        from ..play.hintbench import run as bench_hint
        from ..play.races import make_setup

        given = any(a in ("-n", "--races") or a.startswith("--races=") for a in getattr(args, "argv", ()))
        races = args.races if given else 3  # a hint takes up to its budget: 2000 races would take days
        print(bench_hint(make_setup(_spec(args)), args.variant, races, budget_of(args)))
        return 0
    given = any(a.split("=")[0] in RACE_OPTIONS for a in getattr(args, "argv", ()))
    variants = [args.variant] if given else ["classic", "meteo", "bmx"]
    for variant in variants:
        args.variant = variant
        bench_races(args)
    if not given:  # the default classic race (the first) is the peer's: 4 teams on Avenue Corso Paseo
        from statistics import median

        args.variant = "classic"
        compared = bench_versus_peer(args)
        if compared is not None:
            version, peer_cpu, ratios = compared
            print(_("peer engine (flamme-rouge {version}, 4 Simple teams on Avenue Corso Paseo): {cpu} ms CPU per race; "
                    "classic here runs {ratio} times its races per CPU second ({pairs} measures in turn: {low}-{high})"
                    ).format(version=version, cpu=decimal(peer_cpu * 1000, 2), ratio=decimal(median(ratios), 0),
                             pairs=len(ratios), low=decimal(min(ratios), 0), high=decimal(max(ratios), 0)))
    return 0


PEER_RACES = 20  # of the peer's races a measure (11-25 ms each on the machines measured)
PEER_PAIRS = 5  # measures of the engine and the peer in turn


def bench_versus_peer(args) -> tuple[str, float, list[float]] | None:
    """The peer engine, the `flamme-rouge` package from PyPI (issue 29 compares
    with it), when it is installed: four of its Simple strategies on its Avenue
    Corso Paseo, against the same classic races as the bench's first line.  The
    two are timed in turn, PEER_PAIRS times (PEER_RACES of the peer's races, then
    args.races of the engine's): each ratio compares the two as fast as the
    machine runs then (one measure of each, seconds apart, also compared how
    fast it ran at two moments: the same engine measured 87 to 104 times).
    (version, the peer's median CPU seconds a race, each measure's ratio of
    races per CPU second), or None without the package."""
    from statistics import median

    try:
        import random
        from importlib.metadata import version

        from flamme_rouge import AVENUE_CORSO_PASEO  # type: ignore[import-not-found]
        from flamme_rouge.core import Game  # type: ignore[import-not-found]
        from flamme_rouge.strategies import Simple  # type: ignore[import-not-found]

        random.seed(1)  # the peer draws from the random module
        game = Game(AVENUE_CORSO_PASEO, [Simple(name=f"S{k}") for k in range(4)])
        game.play()  # once first, as every engine here is timed warm
        peer_version = version("flamme-rouge")
    except Exception:  # not installed, or another version that plays otherwise: no comparison
        return None
    setup, policies = easy_field(args)
    peer_cpus, ratios = [], []
    for _pair in range(PEER_PAIRS):
        start = time.process_time()
        for _k in range(PEER_RACES):
            game.reset()
            game.play()
        peer_cpu = max(time.process_time() - start, 1e-9) / PEER_RACES
        engine_cpu = time_races(setup, policies, args.races)[0]
        peer_cpus.append(peer_cpu)
        ratios.append(peer_cpu / engine_cpu)
    return peer_version, median(peer_cpus), ratios


def easy_field(args) -> tuple[Any, dict[int, Any]]:
    """The options' set-up, and the easy bot for every seat: what the bench races."""
    from ..bots import easy
    from ..play.races import make_setup

    setup = make_setup(_spec(args))
    return setup, {seat: easy for seat in range(len(setup.teams))}


def time_races(setup, policies: dict[int, Any], races: int) -> tuple[float, float, int]:
    """(CPU seconds per race, seconds by the clock, rounds) of `races` whole races
    of the set-up, seeds 0 to races - 1, as the bots simulate them."""
    from ..play.races import new_game, play_out

    rounds = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for seed in range(races):
        game = new_game(setup, seed)
        game.narrated = False  # as the bots simulate races: no events made, nobody reads them
        play_out(game, policies)
        rounds += game.round
    elapsed = max(time.perf_counter() - start, 1e-9)
    # the process's own CPU time: on a busy machine the wall clock
    # counts the time other programs took, the CPU time does not
    return max(time.process_time() - start_cpu, 1e-9) / races, elapsed, rounds


def bench_races(args) -> None:
    """Time args.races whole races of the options' set-up, the easy bot in every seat;
    prints the figures."""
    setup, policies = easy_field(args)
    per_race, elapsed, rounds = time_races(setup, policies, args.races)
    print(ngettext("{races} {variant} race of {teams} teams on {course}: {cpu} ms CPU per race ({per_cpu} per CPU "
                   "second); {elapsed} s, {per_s} races/s by the clock; {rounds} rounds per race ({build} engine)",
                   "{races} {variant} races of {teams} teams on {course}: {cpu} ms CPU per race ({per_cpu} per CPU "
                   "second); {elapsed} s, {per_s} races/s by the clock; {rounds} rounds per race ({build} engine)",
                   args.races).format(
        races=args.races, variant=variant_word(args.variant), teams=len(setup.teams), course=setup.course.name,
        cpu=decimal(per_race * 1000, 3), per_cpu=decimal(1 / per_race, 0), elapsed=decimal(elapsed, 2),
        per_s=decimal(args.races / elapsed, 0), rounds=decimal(rounds / args.races, 1), build=engine_build()))


def engine_build() -> str:
    """'compiled' when the installed engine was built by mypyc, else 'pure Python'."""
    from ..engine import classic

    return _("pure Python") if classic.__file__.endswith(".py") else _("compiled")


def bench_bot(args) -> int:
    """Wall time of each decision the bot takes (cards and who draws first), over whole races."""
    from statistics import median

    from ..bots import policy
    from ..engine.phase import Phase
    from ..engine.turns import turns
    from ..play.races import make_setup, new_game
    from ..words import bot_level, variant_word

    setup = make_setup(_spec(args))
    budget = budget_of(args)
    others = ["medium", "medium", "easy", "medium", "easy"]  # round again for 7-12 one-rider players
    seats = [policy(name, budget) for name in [args.bot] + [others[s % len(others)] for s in range(len(setup.teams) - 1)]]
    times: list[float] = []
    for seed in range(args.races):
        game = new_game(setup, seed)
        while game.phase != Phase.OVER:
            for seat in turns(game):
                view = game.view(seat)
                t = time.perf_counter()
                action = seats[seat](view)
                if seat == 0:  # every decision: the draws too (hard and expert weigh them)
                    times.append(time.perf_counter() - t)
                game.apply(action)
    times.sort()
    if not times:  # cannot happen in a real race: every seat chooses a card each round
        print(_("flamme-tui: bench: {bot} took no decision to time").format(bot=args.bot), file=sys.stderr)
        return 2
    thinking = _(", budget {budget}").format(budget=budget) if args.bot == "expert" else ""
    print(ngettext("{bot} on {course} · {variant}, {races} race{thinking}, {n} decisions: median {median} ms, "
                   "90th percentile {p90} ms, 99th percentile {p99} ms, max {max} ms ({build} engine)",
                   "{bot} on {course} · {variant}, {races} races{thinking}, {n} decisions: median {median} ms, "
                   "90th percentile {p90} ms, 99th percentile {p99} ms, max {max} ms ({build} engine)",
                   args.races).format(
        bot=bot_level(args.bot), course=setup.course.name, variant=variant_word(args.variant), races=args.races,
        thinking=thinking, n=len(times),
        median=decimal(median(times) * 1000), p90=decimal(times[int(len(times) * 0.9)] * 1000),
        p99=decimal(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000), max=decimal(times[-1] * 1000),
        build=engine_build()))
    return 0


def cmd_tournament(args) -> int:
    from ..engine.rules import find
    from ..play.tournament import tournament

    most = find(args.variant).max_teams
    if not 2 <= len(args.bots) <= most:
        print(_("flamme-tui: tournament: give 2 to {n} bots, one per seat").format(n=most), file=sys.stderr)
        return 2
    variant = args.variant
    if args.tour is not None:
        from ..play.tours import load_tour, seat_rules

        if args.stage or args.breakaway or any(a.startswith("--variant") for a in getattr(args, "argv", ())):
            print(_("flamme-tui: tournament: --tour: the tour says the stages and their rules "
                    "(no --stage, --variant or --breakaway)"), file=sys.stderr)
            return 2
        spec = load_tour(args.tour)  # a bad tour: one line (ConfigError)
        variant = seat_rules(spec)
    for option, given in (("--stage", args.stage), ("--breakaway", args.breakaway)):
        if find(variant).uses_tokens and given:
            print(_("flamme-tui: tournament: {option}: not an option of bmx races").format(option=option), file=sys.stderr)
            return 2
    problem = _seat_names(args.bots, variant, len(args.bots), "tournament", references=True)
    if problem:
        print(_("flamme-tui: {problem}").format(problem=problem), file=sys.stderr)
        return 2
    if args.tour is None and not find(variant).uses_tokens:  # the engine's word on these seats, on every stage
        from ..play.races import COLOURS, RaceSpec, Team, seat_plan

        teams = tuple(Team(c.capitalize(), c) for c in COLOURS[: len(args.bots)])
        for stage in args.stage or [None]:
            where = {"stage": stage} if stage else {}
            checked(RaceSpec(variant=variant, teams=teams, scripted=seat_plan(args.bots)[1],
                             breakaway=args.breakaway, **where))
    tournament(args.bots, args.races, args.variant, args.stage, args.jobs, tour=args.tour, breakaway=args.breakaway,
               budget=budget_of(args))
    return 0


def cmd_ladder(args) -> int:
    from pathlib import Path

    from ..config import user_data_dir
    from ..play import ladder as lad

    known = list(lad.BOTS) + list(lad.SCRIPTED_TEAMS)
    bots = known if args.bots is None else [b for b in args.bots.split(",") if b]
    unknown = [b for b in bots if b not in known]
    if unknown or len(set(bots)) != len(bots) or lad.ANCHOR not in bots or len(bots) < 2:
        print(_("flamme-tui: ladder: --bots: give easy and at least one more of {known}, each once (got {got!r})").format(
            known=", ".join(known), got=args.bots or ""), file=sys.stderr)  # repr writes out control characters
        return 2
    columns = [c.name for c in lad.categories()]
    only = None if args.only is None else [c for c in args.only.split(",") if c]
    if only is not None and (not only or any(c not in columns for c in only)):
        print(_("flamme-tui: ladder: --only: columns are {columns} (got {got!r})").format(
            columns=", ".join(columns), got=args.only), file=sys.stderr)
        return 2
    path = Path(args.file) if args.file else user_data_dir() / "ladder.jsonl"
    try:
        lad.ladder(path, args.games, [b for b in known if b in bots], only, args.jobs or os.cpu_count() or 1,
                   args.rollouts or lad.LADDER_ROLLOUTS)
    except lad.LadderFileError as exc:
        print(_("flamme-tui: ladder: {problem}").format(problem=clean(str(exc), multiline=False)), file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # ctrl+c: stop quietly, the shell's way (128 + SIGINT)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second one while stopping changes nothing
        print(_("flamme-tui: interrupted"), file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    from .. import i18n

    # the language first (before the parser, whose help and errors it speaks): --lang, else the
    # Language setting, else the environment (the app, started below, reads its settings itself)
    flag = lang_asked(sys.argv[1:] if argv is None else argv)
    i18n.choose(flag, "" if flag else _setting_language())
    args = build_parser().parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else list(argv)  # race --from: which options were given
    if args.command is None and args.resume is None:
        # the app first, before anything slow is imported: start-up time counts
        from ..ui.app import run

        return run(lang=flag, seed=args.app_seed)
    if args.app_seed is not None:  # (`flamme-tui --seed 3 race`: the race's own --seed goes after `race`)
        print(_("flamme-tui: --seed before a command is the app's; give the command's own --seed after it"),
              file=sys.stderr)
        return 2
    from ..config import ConfigError

    try:
        return _command(args)
    except ConfigError as exc:
        print(clean(_("flamme-tui: {problem}").format(problem=exc), multiline=False), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`flamme-tui race | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a path that cannot be used: a loop, no permission, too long, a folder...
        print(_("flamme-tui: {problem}").format(problem=os_problem(exc)), file=sys.stderr)
        return 2
    except RuntimeError as exc:
        if not str(exc).startswith("Symlink loop"):  # pathlib's word for a loop (Python < 3.13)
            raise
        print(_("flamme-tui: {problem}").format(problem=clean(exc, multiline=False)), file=sys.stderr)
        return 2


def _setting_language() -> str:
    """The Language setting, "" when none is chosen (or the settings cannot be
    read: the app says why, a command speaks the environment's language)."""
    from ..settings import load

    return load()[0].language


def os_problem(exc: OSError) -> str:
    """One line for an OSError: the file and what is wrong with it."""
    from ..pathtext import show_path

    what = exc.strerror or str(exc)
    if exc.filename is None:
        return clean(what, multiline=False)
    return clean(f"{show_path(exc.filename)}: {what}", multiline=False)


def _command(args: argparse.Namespace) -> int:
    if args.command == "conformance":
        from ..conformance import main as run

        return run(args.paths)
    if args.command == "race":
        return cmd_race(args)
    if args.command == "bench":
        return cmd_bench(args)
    if args.command == "tournament":
        return cmd_tournament(args)
    if args.command == "ladder":
        return cmd_ladder(args)
    if args.command == "serve":
        from ..ui.serve import serve

        return serve(args.host, args.port, args.max_sessions)
    if args.command == "host":
        from .host import cmd_host

        return cmd_host(args)
    if args.command == "join":
        from .host import cmd_join

        return cmd_join(args)
    if args.command == "replay":
        from .saves import cmd_replay

        return cmd_replay(args.file, text=args.text)
    if args.command == "tutorial":
        from ..ui.screens.tutorial import run as run_tutorial

        return run_tutorial(args.lesson)
    if args.command == "coach":
        from ..bots.budget import Budget
        from .coach import cmd_coach

        return cmd_coach(args.file, Budget(rollouts=args.rollouts), args.stage)
    if args.command == "tours":
        from . import tours as tours_cli

        return tours_cli.check(args.paths) if args.tours_command == "check" else tours_cli.listing()
    if args.command == "tour":
        return cmd_tour(args)
    if args.command == "stages":
        from . import stages as stages_cli

        if args.stages_command == "random":
            return stages_cli.random_stage(args.seed, args.length, args.kind, args.boxes)
        return stages_cli.check(args.paths) if args.stages_command == "check" else stages_cli.listing()
    from .saves import cmd_resume

    return cmd_resume(args.resume or None)


if __name__ == "__main__":
    sys.exit(main())
