"""Words shown by the app: the rules reference and the help of each phase (markup).

The help is laid out to the width it is shown in (dialogs.help_layout): a
line that starts with two spaces, a key, two spaces or more and what the key
does is a row of keys (what it does wraps under itself, never under the
key); every other line is a paragraph, wrapped as the width allows.  So a
paragraph is written on one line, and a key's words on the key's line.

Every text is translated when shown (i18n): the tables below are marked with
N_ and read through `_`; a paragraph is one entry, so a translation can order
its sentences freely.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.cells import cell_len

from ..i18n import N_, _, pgettext
from .choices import SCRIPTED_NAMES
from .keys import key_word, shown_key
from .palette import FINISH_GLYPH, START_GLYPH, WEATHER, legend_terrain

# (binding id, default keys) -> the keys a player presses now (BaseScreen.keys_text: the
# user's keymap): a key the player can rebind is never written out in the help's words
KeyOf = Callable[[str, str], str]


def as_bound(binding_id: str, default: str) -> str:
    """Without an app, a binding's default keys as the app shows them."""
    return _(" or ").join(shown_key(key) for key in default.split(","))


def key_row(key: str, words: str) -> str:
    """A row of keys (see above), its key escaped: the help is markup, and a
    player may bind `[`."""
    shown = key_word(key).replace("[", "\\[")
    return f"  {shown:<11}  {words}"


def _global_keys(key: KeyOf) -> str:
    return "\n".join([
        _("[b]Everywhere[/b]"),
        key_row(key("help", "question_mark,f1"), _("this help (Esc, ? or q closes it; ↑ ↓ PgUp PgDn scroll it)")),
        key_row(shown_key("ctrl+p"), _("the command palette: new race, saved races, rules reference, settings, theme, "
                                       "screenshot, quit")),
        key_row(key("app.quit", "ctrl+q"), _("quit (a race in progress asks first); {key} only says how").format(
            key=shown_key("ctrl+c"))),
        key_row("Esc", _("back (menus)")),
    ])


RULES_CLASSIC = N_("""[b]Classic[/b]
Each player has two riders: a Rouleur (R, cards 3-7) and a Sprinteur (S, cards 2,3,4,5,9).
[b]Energy:[/b] pick the rider that draws first, draw 4 cards from its deck, keep 1 face down, the other 3 go face up under the deck (recycled, everybody may see them). Then the other rider.
[b]Movement:[/b] all cards are revealed; the rider in front moves first (on one square, the right-hand lane before the left). A rider moves exactly its card; a full square sends it to the nearest free place behind. On a descent (v) a rider moves at least 5, from a supply zone (s) at least 4. An ascent (^) limits a move to 5 squares; from further away a rider stops at the foot of the climb.
[b]End of round:[/b] slipstream: a group with exactly one empty square in front of the next group moves up one square (not on ascents). Then every rider with nobody on the square ahead takes an exhaustion card (E, worth 2) into its recycled cards.
[b]Finish:[/b] the race ends when a rider crosses the finish line; the furthest rider wins.""")

RULES_METEO = N_("""[b]Meteo[/b] (classic plus the weather on the straights)
  » tailwind   a rider standing on it draws 5 cards
  « headwind   a rider standing on it draws 3 cards
  ≡ crosswind  no slipstream to or from its squares
  ~ wet road   a rider blocked (moved less than its card) and stopping on it crashes
A crashed rider lies down (lower-case letters on the track); a square full of crashed riders blocks the road. A crashed rider still plays a card: it stands up and moves 2 less.""")

RULES_BMX = N_("""[b]BMX[/b] (one rider each, speed tokens from a bag)
Every turn each rider draws 3 tokens from its bag (4 on a descent) and keeps 1 (2 on a descent, their values add up); the others go back in the bag. Played speed tokens leave the game; played fatigue tokens go back to the supply.
Riders move front first. Then the die: 1 closes one-square gaps between groups, 2 closes gaps of 1 or 2 squares (catch-up); a blank face does nothing. A rider with both lanes ahead empty takes a fatigue token (worth 1) into its bag, 2 on a bumpy passage.
Terrain: ~ bumpy passage, # canyon (single-lane middle), " marsh (single lane), v descent.
A jump ramp /N throws a rider who crosses it with a token N, N squares further.
The race ends after the turn in which a rider crosses the line; the furthest rider wins.""")

RULES_PELOTON = N_("""[b]Peloton[/b] (the expansion: classic and meteo, up to 6 teams)
Wide squares and supply zones (s) have three lanes; the third rider on a square takes lane 2, the left lane. A rider starting its move on a supply square moves at least 4.
Cobbles (#): riders on them neither give nor receive slipstream, and an empty cobble square is no gap to slipstream across; single-file cobbles have one lane (one rider fills them).
Peloton and Muscle teams play their top card each round; a deck that runs out moves them by 2.
[b]Breakaway[/b] (optional, before round 1): each team of players picks a rider (the Peloton and Muscle teams do not bid), draws 4 of its cards and keeps 1 face down, twice; each bid is revealed before the next. The best total (the best two with 5 or 6 teams) starts on the breakaway square, loses its two bid cards and takes 2 exhaustion cards; the others take their bids back. Ties go to the rider further back on the grid.
7 to 12 players: each races one rider, drawing 4 and keeping 1 each round.""")

RULES_TOUR = N_("""[b]Grand Tour[/b] (stages of classic or meteo raced in turn by the same teams)
[b]A stage[/b] goes on until every rider has crossed the line. A rider across the line at the end of movement has finished: it gives and takes no slipstream, takes no exhaustion card and leaves the track at the end of the round.
[b]Stage time:[/b] a minute for each round after the round the first rider crossed in, less 10 seconds for each square past the line (up to the end of the finish tile). Riders that cross in one round on an unbroken run of squares take the time of its front rider (pack time). The 1st and 2nd take 10 seconds off (shown -10s). Times are shown as gaps to the stage's winner (+1:20: a minute and twenty seconds behind). A rider across the line shows its gap on the boards after the finish line's mark (▓1:20).
[b]General classification (GC):[/b] the sum of a rider's stage times, lowest first (a tie: the better placing in the last stage); its leader wears the yellow jersey ◆. During a stage, g shows the standings: the GC before the stage, who has finished and in what time, and the live GC from the gaps on the road (10 seconds a square; the first two as they stand take the 10 seconds off).
[b]Tour Points:[/b] 3/2/1 to the teams of each stage's first three, and of the GC's top three after the last stage; the most points win the tour (a tie: the team of the better GC rider). The team classification adds a team's two GC times (no points).
[b]Between stages:[/b] every rider keeps half of its exhaustion cards, rounded up (handicaps are dealt at the first stage only). From the second stage the teams take the grid fewest Tour Points first: that team places its riders first, and a random grid fills from the back, so there the team with the most starts in front.""")


def rules_text() -> str:
    """The whole rules reference, in the player's language."""
    return "\n\n".join(_(text) for text in (RULES_CLASSIC, RULES_METEO, RULES_PELOTON, RULES_BMX, RULES_TOUR))


# the Peloton expansion's scripted teams in a line each (the teams screen: its help, and
# its message line when a seat is given one)
SCRIPTED_ABOUT = {
    "peloton": N_("two riders racing on one Rouleur deck with two Attack cards: each round its top card moves "
                  "both (an Attack card the front rider 2, the rear 9)"),
    "muscle": N_("a Sprinteur with a Sprinteur deck and an extra 5, and a Rouleur: each plays the top card of its deck"),
}


SCRIPTED_RULES = N_("Scripted teams start at the front and take no exhaustion.  At most one Peloton team; a lone "
                    "team of players against a Peloton and a Muscle team starts with 3 exhaustion cards "
                    "(Sprinteur 1, Rouleur 2).")


# the race screen's line under the track, a part per kind of weather (palette.WEATHER's order)
WEATHER_SHORT = {
    "tailwind": N_("» tailwind 5 cards"),
    "headwind": N_("« headwind 3 cards"),
    "crosswind": N_("≡ crosswind no slipstream"),
    "wet": N_("~ wet crash"),
}


def weather_here(course) -> set[str]:
    """The weather kinds on this race's squares (narrator.weather_kinds): a legend names only those."""
    from ..play.narrator import weather_kinds  # (when a legend is drawn: not at start-up)

    return set(weather_kinds(course))


def weather_short(course) -> str:
    """The weather under the track, only the kinds this race has."""
    here = weather_here(course)
    return "  ".join(_(text) for kind, text in WEATHER_SHORT.items() if kind in here)


def track_legend(variant: str) -> str:
    from ..engine.rules import find

    terrain = "  ".join(f"{g} {n}" for g, n in legend_terrain(variant))
    if find(variant).uses_tokens:
        lines = [_("{terrain}  {start} start/finish line").format(terrain=terrain, start=START_GLYPH),
                 _("░ no lane (single-lane square)   /N jump ramp with number N")]
    else:
        lines = [_("Track: {terrain}  {start} start  {finish} finish").format(
                     terrain=terrain, start=START_GLYPH, finish=FINISH_GLYPH),
                 _("░ no lane there (single-file cobbles; two-lane squares on a three-lane stage)")]
    if find(variant).has_weather:
        lines.append(_("Weather: {weather}").format(
            weather="  ".join(f"{w.glyph} {_(w.name)} ({_(w.effect)})" for w in WEATHER.values())))
    # the two views of a stage, one above the other (a new player read them as one; a BMX circuit is drawn whole)
    if find(variant).has_weather:
        lines.append(_("Top rows: the weather, then the whole stage, a cell a square; below, the squares around the "
                       "riders under their tiles' letters and weather (upper case: a tile's other side; _2: the dark "
                       "side of Peloton tile 2); <3 and 2>: riders out of view"))
    elif not find(variant).uses_tokens:
        lines.append(_("Top rows: the whole stage, a cell a square; below, the squares around the riders under their "
                       "tiles' letters (upper case: a tile's other side; _2: the dark side of Peloton tile 2); <3 and "
                       "2>: riders out of view"))
    if find(variant).uses_tokens:
        lines.append(_("Riders: team letter + > (one rider per player)"))
    elif find(variant).has_weather:
        lines.append(_("Riders: team letter + S (Sprinteur) or R (Rouleur); lower case = crashed"))
    else:
        lines.append(_("Riders: team letter + S (Sprinteur) or R (Rouleur)"))
    # a symbol stays with its word where a line wraps ("▓ finish", never "▓" then "finish"):
    # the space after a word of one or two cells (a glyph, a letter) is a no-break one (ui/nobreak.py)
    return "\n".join(re.sub(r"(?:(?<=\s)|^)(\S{1,2}) (?=\S)", "\\1\u00a0", line) for line in lines)


def rules_legend() -> str:
    """The symbols of every rule set for the rules reference: each rule set's legend
    in turn, every line once, and a line another one says more of left out (classic's
    riders, which meteo's line says with its crashed riders)."""
    from ..engine.rules import find

    lines: list[str] = []
    for variant in ("classic", "meteo", "bmx"):
        new = [line for line in track_legend(variant).split("\n") if line not in lines]
        if find(variant).uses_tokens:  # its track line has no heading of its own: the rule set's name
            new[0] = f"{find(variant).title}: {new[0]}"
        lines += new
    return "\n".join(line for line in lines if not any(o != line and o.startswith(line) for o in lines))


def curtain_legend(variant: str, jersey: bool = False, no_lane: bool = False, course=None,
                   on_grid: bool = True) -> list[str]:
    """The symbols this race can show, in words, for the curtain (a new player
    reads them there between two turns): most needed first, every line within
    78 cells, so the curtain keeps as many whole lines as it has room for.
    With the race's `course`, only the terrain it has; `on_grid`: a rider is
    still on the grid (its place, "G2", said only then)."""
    from ..engine.rules import find

    rules = find(variant)
    if rules.uses_tokens:
        lines = [_("B> <B: a rider (team letter, arrow: its way) · ✓: token down this turn"),
                 _("G1: start place 1 · Bag: tokens left in the bag · Fat: fatigue tokens taken") if on_grid
                 else _("Bag: tokens left in the bag · Fat: fatigue tokens taken")]
    else:
        # (the boards head the exhaustion column "E held/played", or "E" beside another column)
        lines = [_("BS BR: a rider, team letter + S (Sprinteur) or R (Rouleur) · bs: crashed") if rules.has_weather
                 else _("BS BR: a rider, team letter + S (Sprinteur) or R (Rouleur) · ✓: card down"),
                 _("G2: grid place 2, behind the start · E 1/0: exhaustion cards held/played") if on_grid
                 else _("E 1/0: exhaustion cards held/played")]
        if rules.has_weather:  # the weather on the track, before the grid and the boards
            shown = weather_here(course) if course is not None and course.weather else set(WEATHER)
            weather = "  ".join(f"{w.glyph} {short}" for (kind, w), short in
                                zip(WEATHER.items(), _short_weather(), strict=True) if kind in shown)
            lines[1:1] = [_("Weather: {weather}  · ✓: card down").format(weather=weather)]
        # before the track's symbols: a pile that stays as it was after its player drew
        # ("Deck 15" once they hold 4 cards) puzzles more than a terrain glyph, drawn on the track itself
        # (a pile that changed at a draw would tell the card kept: see widgets.board)
        lines.append(_("Others' Deck, Recycled: as before this round's draws, until the reveal"))
    if jersey:
        lines.append(_("◆: the yellow jersey, the leader of the tour"))
    terrain = "  ".join(f"{g} {n}" for g, n in legend_terrain(variant, course))
    # a course with no terrain to name (BMX's flat ABCD): no gap where it would be ("Track:   ║")
    named = terrain or "\0"
    track = (_("{terrain}  {start} start  {finish} finish").format(terrain=named, start=START_GLYPH,
                                                                   finish=FINISH_GLYPH) if not rules.uses_tokens
             else _("Track: {terrain}  {start} start/finish line").format(terrain=named, start=START_GLYPH))
    track = track.replace("\0  ", "").replace("\0", "").strip()
    extras = []  # after the terrain, on its line while there is room, else on a line of their own
    if rules.uses_tokens and course is not None and course.ramp is not None:  # as the lap says it beside the loop
        extras.append(f"/{course.ramp[1]} {pgettext('lap legend', 'ramp')}")
    if no_lane:  # the track draws ░ where a square has fewer lanes than the widest
        extras.append(_("░ no lane there"))
    for said in extras:
        if cell_len(f"{track}  {said}") <= 78:
            track = f"{track}  {said}"
        else:
            lines.append(track)
            track = said  # (on a line of its own, after the terrain: the less needed)
    lines.append(track)
    return lines


def _short_weather() -> tuple[str, ...]:
    """The weather's names as short as the curtain's legend needs them (78 cells a line):
    in the order of palette.WEATHER (tailwind, headwind, crosswind, wet road)."""
    return (pgettext("weather, short", "tailwind"), pgettext("weather, short", "headwind"),
            pgettext("weather, short", "crosswind"), pgettext("weather, short", "wet road"))


def _rules(variant: str | None):
    """The rule set named `variant` (None for the menus before one is chosen)."""
    from ..engine.rules import find

    return find(variant) if variant else None


def _tokens(variant: str | None) -> bool:
    rules = _rules(variant)
    return rules is not None and rules.uses_tokens


def _weather(variant: str | None) -> bool:
    rules = _rules(variant)
    return rules is not None and rules.has_weather


def _scripted(variant: str | None) -> bool:
    rules = _rules(variant)
    return rules is not None and rules.scripted_teams


def hand_word(variant: str | None) -> str:
    """What a player holds: cards, or BMX tokens from the bag (a word, for the race screen's own use)."""
    return _("tokens") if _tokens(variant) else _("cards")


HELP = {  # the prose of each topic; the keys of the screen are listed from its bindings
    "stages": N_("""[b]Choose the stage[/b]
The stages this rule set can race, grouped by kind, then by the boxes whose tiles they need.  Beside the list, the highlighted stage in words; under it, its profile (the road's height, square by square) and its tiles (a letter each; upper case: the tile's other side).  Kind (k) shows one kind of stage at a time, then every kind again; Boxes (x) only the stages your boxes can lay (the base box, or with the Peloton box).  Edit a copy (e) opens the highlighted stage in the stage builder, to change it and save it as your own; Build a stage starts from nothing, Random stage makes a new stage of the kind shown.  Your own stages (built here, or YAML files in your stages folder) are listed with the others."""),
    "menus": N_("""[b]Menus[/b]
  ↑ ↓          move
  Enter        choose
  Esc          back"""),
    "saved": N_("""[b]Saved races[/b]
Every race in progress or finished, newest first.  {open} resumes a race in progress or replays a finished one; {replay} replays; {branch} goes on from a backup (the race one or two actions back) as a new race file, a branch, leaving the race as it is.  A damaged save (or one from a newer flamme-tui) is listed with what is wrong: {open} shows what was lost and the backups it can go on from.  {delete} deletes a race and its backups, after asking."""),
    "editor": N_("""[b]Build a stage[/b]
The list holds every tile of the base box (letters) and the Peloton box (digits), both sides: the side in bold is the one laid next.  A stage starts on a start tile, ends on a finish tile and uses each tile once, with one side up; the line under the title says what is still wrong (a tile used twice, a tile from a box you do not own, no finish tile yet).
▶ points at the selected tile: the one Enter lays and Space turns over.  Beside a tile, ✓: laid in the stage; ✗: laid more than once.
  ↑ ↓          move in the tile list
  Enter or click  lay the tile at the end of the stage
  Space        turn the tile over (its other side comes up)
  Backspace    take the last tile back
  f            turn the last tile laid over
  x            the boxes you own: base, or base and Peloton
  n            name the stage (its file is named after it)
  s            save it among your stages and race it
  c            copy its one-line code (fr1:...)
  p            paste a code: start from that stage
With the mouse, the words beside the list (turn, take back, ...) do what their keys do."""),
    "builder": N_("""[b]BMX circuit[/b]
  a b c d      flip tile A, B, C or D (upper case: classic track; lower case: bumpy passage, canyon, descent, marsh)
  r            jump ramp on/off
  [ ]          move the ramp
  + -          ramp number 1-5
  f            weather forecast on/off
  Enter        continue to the teams (young children: per player there)"""),
    "learn": N_("""[b]Learn to play[/b]
A short race against scripted teams that teaches one idea a round.  Read the step, then choose: every card says where it takes your rider (→ square) and the one thing to know about it (blocked: a full square; blocked?: the riders ahead move first and may fill it; finish; +E, in BMX +F: it ends in the wind; +E 30%: its chance when the others' cards decide).  After each reveal the lesson says what happened to your riders and why.
  1-9          choose (a rider to draw first, a card; in the breakaway a rider to bid, a bid)
  ↑↓           scroll the step's text and what happened
  Enter        start the race; at the end, back to the lessons
  Esc          leave the lesson: Learn to play goes on from there
  x            skip the lesson
On the lessons menu, r starts the highlighted lesson again."""),
    "podium": N_("""[b]Race over[/b]
The podium, then the full ranking with where each rider stopped (how many squares past the line, or still to go), each team's statistics, a few awards and the race chart: how many squares each rider was behind the leader, round by round.
Race again keeps the teams and the course, with a new seed.  A saved race (every race is, unless saving failed) can be replayed round by round, now or later from Saved races on the title menu.
Coach ({coach}): each person's three costliest cards against the expert bot's choice, judged from that seat's view then, with squares, exhaustion, win chance and why; 1-9 replay that round."""),
    "tour": N_("""[b]New tour[/b]
A tour is a series of stages raced by the same teams.  Each stage goes on until every rider has crossed the line; a rider's time is a minute for each round after the first rider crossed, less 10 seconds for each square past the line, with pack time and 10 seconds off for the 1st and 2nd.  Times add up into the general classification (the leader wears the yellow jersey ◆); Tour Points (3/2/1 to the teams of each stage's first three riders, and of the final GC's top three) decide the winning team.  Between stages each rider keeps half of its exhaustion cards, and the teams take the grid fewest Tour Points first (a random grid fills from the back: the team with the most starts in front).
Choose a tour, or pick the stages yourself."""),
    "tour-result": N_("""[b]Stage result[/b]
The stage's times are gaps to its winner (+0:40: forty seconds behind).  A rider's time is a minute for each round after the first rider crossed, less 10 seconds for each square past the line (riders crossing in one round on an unbroken run of squares take the time of its front rider); -10s: the 10 seconds its first two riders take off.  The bars draw the gaps and the points at a glance (+3: the points this stage gave).  The general classification adds up every stage's times; its leader wears the yellow jersey (◆), shown with the rider on the track and the boards during the next stage.  Tour Points: 3/2/1 to the teams of each stage's first three riders (one team may score twice), and of the GC's top three after the last stage.  The team classification adds the team's two GC times (shown, no points).
Coach ({coach}): each person's three costliest cards of this stage against the expert bot's choice, with why; 1-9 replay that round in the tour's replay.
The tour is saved: from the title menu, Resume goes on with the next stage (after another race, Saved races has the tour)."""),
    "tour-podium": N_("""[b]Tour over[/b]
The GC's podium, the winner by Tour Points (a tie goes to the team of the better GC rider) and every classification.  Tour again keeps the teams and the stages, with a new seed; the replay shows the whole tour, stage by stage."""),
    "rules": "",
}

# the keys a topic's prose names, each a placeholder of its text: (binding id, default keys),
# written as the player binds them (the key bar and "Keys on this screen" agree with them)
HELP_KEYS = {
    "saved": {"open": ("saved.open", "enter"), "replay": ("saved.replay", "p"), "branch": ("saved.branch", "b"),
              "delete": ("saved.delete", "d,delete")},
    "podium": {"coach": ("podium.coach", "c")},
    "tour-result": {"coach": ("tour-result.coach", "c")},
}


def _tour_stages_help(key: KeyOf) -> str:
    return "\n".join([
        _("[b]Pick the stages[/b]"),
        key_row("Enter", _("add the highlighted stage, raced as classic")),
        key_row(key("tour-stages.meteo", "m"), _("add it as meteo (the weather expansion)")),
        key_row(key("tour-stages.random", "r"), _("add a new random stage (medium, hilly), by its code")),
        key_row(key("tour-stages.drop", "backspace,delete"), _("take the last stage off")),
        key_row(key("tour-stages.save", "w"), _("save the tour under a name: it joins the tour menu")),
        key_row(key("tour-stages.go", "ctrl+s"), _("on to the teams")),
    ])


def _teams_help(variant: str | None, key: KeyOf) -> str:
    lines = [_("[b]Teams[/b]"),
             key_row("tab", _("the next field (Shift+Tab: the one before); a name is typed once Tab reaches it")),
             key_row("Enter", _("in a name or the seed: the next field; on a list: open it")),
             key_row("← →", _("on a list: its previous or next choice, without opening it (in a name: the cursor)")),
             key_row(key("teams.start", "ctrl+s"), _("start the race (or Tab to [b]Start race[/b] and press Enter)")),
             key_row(key("teams.fill", "ctrl+f"), _("fill the free seats with bots (or the [b]Fill with bots[/b] button)")),
             _("""The screen opens on Players, its first list.  The focused field is highlighted, with ▶ beside its row.
Fill with bots: every seat nobody set becomes a bot (hard, or the bot level last chosen on this screen); the first seat, a seat with a name typed or its Plays chosen, and the bots already there stay as they are.  Unless you chose the number of players, the table is filled up to the most teams; fewer: Players, with ← →.
The names, colours and players set up last come back with the next New race (until you quit).
Names: up to 30 characters, shown in full on the race screens.
Colours stay unique: choosing another seat's colour swaps the two (the screen says so).
Seed: left empty, the race gets a random one, told at the podium (at a table of several players nobody should know it before: it decides every deck); or a whole number from 0 to 999999: the same seed, teams and course give the same race.  [b]New seed[/b] empties the field.""")]
    if _tokens(variant):
        lines.append(_("Young children: fatigue tokens added to that player's bag."))
    else:
        lines.append(_("Handicap: extra exhaustion cards in both riders' decks of that team.") + "\n"
                     + _("Grid: random, or the players place their riders in turn."))
    lines.append(_("Plays: a person (Human), a bot (easy to expert), or one of the Peloton expansion's scripted teams:")
                 if _scripted(variant) else _("Plays: a person (Human), a bot (easy to expert)."))
    if _scripted(variant):
        lines.append(scripted_rows(SCRIPTED_NAMES))
        lines.append(_(SCRIPTED_RULES))
    if not _tokens(variant):
        lines.append(_("Up to 6 teams (the Peloton expansion): with 5 or 6 a Peloton stage races its 5-6 version, and a "
                       "start too small for every rider becomes tile 1.") + "\n"
                     + _("Breakaway: on a Peloton stage, bids for a head start before round 1."))
    return "\n".join(lines)


def _settings_help(key: KeyOf) -> str:
    return "\n".join([
        _("[b]Settings[/b]"),
        _("Saved at once in the settings file (its path is shown on the screen)."),
        key_row(_("Space or Enter"), _("switch, open a list")),
        _("Hint key in races: {key} (or Hint in the palette) shows what the expert would play and why; for one "
          "person racing against bots, or for everyone at the table (the race log says who asks); the podium says "
          "\"with hints\".").format(key=_escaped(key("race.hint", "h"))),
        _("Key bindings: type the new keys (comma-separated Textual key names, e.g. \"f5\" or \"ctrl+s,f5\") and "
          "press Enter; empty restores the default.  A key the screen already uses (the race's number keys choose, "
          "for one) is refused."),
    ])


def _escaped(key: str) -> str:
    """A key named in a paragraph of the help (markup): a player may bind `[`."""
    return key_word(key).replace("[", "\\[")


def _confirm(key: KeyOf) -> str:
    return key("race.confirm", "enter")


def _click() -> str:
    return pgettext("key name", "click")


def _place_help(key: KeyOf) -> str:
    return "\n".join([
        _("[b]Starting grid[/b]"),
        _("Players place their riders in turn on the free places behind the start line."),
        key_row("← → ↑ ↓", _("move the cursor [] over the free places")),
        key_row(_click(), _("a free place on the track")),
        key_row(_confirm(key), _("place the rider")),
        key_row(key("race.random", "r"), _("a random free place")),
    ])


def _breakaway_help(key: KeyOf) -> str:
    return "\n".join([
        _("[b]The breakaway[/b] (Peloton)"),
        _("Each team of players picks the rider it bids with, which draws 4 cards and keeps 1 face down (the other 3 "
          "go face up under its deck); every first bid is revealed together, then every second bid.  The best total "
          "breaks away (with 5 or 6 teams the best two) to the breakaway square; ties go to the rider further back on "
          "the grid, on one square to the higher lane.  A winner loses its two bid cards and takes 2 exhaustion cards; "
          "the others take their bids back.  Every bidder then shuffles all its cards."),
        key_row(_("1-4 or ← →"), _("select")),
        key_row(_confirm(key), _("confirm")),
        key_row(_click(), _("select, then confirm")),
    ])


def _draw_help(key: KeyOf) -> str:
    return "\n".join([
        _("[b]Which rider draws first?[/b]"),
        _("You see the first rider's cards, pick one, and only then draw for the other rider."),
        key_row("1 2", _("that rider draws at once")),
        key_row(f"← → {_confirm(key)}", _("select, then confirm")),
        key_row(_click(), _("select, then confirm")),
        _("[b]Since your last look[/b] (under the choice, then under the cards while there is room): each round "
          "revealed since your last turn, in short: every rider's card and move (from→to, slipstream included), "
          "exhaustion (+E), crashes (down); the race log on the right has every line."),
    ])


def _curtain_help(variant: str | None, key: KeyOf) -> str:
    lift = key("curtain.lift", "enter")
    if _tokens(variant):
        return "\n".join([
            _("[b]Pass the keyboard[/b]"),
            _("Only the named player should look at the screen now: the next screen shows that player's tokens."),
            key_row(lift, _("show my tokens"))])
    return "\n".join([
        _("[b]Pass the keyboard[/b]"),
        _("Only the named player should look at the screen now: the next screen shows that player's cards."),
        key_row(lift, _("show my cards"))])


HINT_ROW = N_("a hint: what the expert would play and why (Settings: Hint key in races)")
PROFILE_ROW = N_("the stage profile, with every rider on it")


def _pick_help(variant: str | None, key: KeyOf) -> str:
    confirm, change, hint = _confirm(key), key("race.change", "u,backspace"), key("race.hint", "h")
    if _tokens(variant):
        return "\n".join([
            _("[b]Pick a token[/b]"),
            _("You drew 3 speed tokens from your bag (4 on a descent); keep 1 (2 on a descent: their values add up).  "
              "The others go back into the bag."),
            key_row("1-4", _("play that token at once (the review catches a slip); on a descent select two, then "
                             "{confirm}").format(confirm=_escaped(confirm))),
            key_row(f"← → {confirm}", _("select, then play (face down until all have played)")),
            key_row(_click(), _("select; click the selected token again to play it")),
            key_row(hint, _(HINT_ROW)),
            _("Then a review: {confirm} passes the keyboard, {change} takes the token back to change it (the log and "
              "the table are told that you changed it, never to what).").format(confirm=_escaped(confirm),
                                                                                 change=_escaped(change)),
            _("[b]Aids[/b] (Settings; off = the real table): each token says where it takes your rider (\"3 →12\": "
              "square 12), every other rider standing still (the others move too: the round may end elsewhere), and "
              "▼▼ marks it on the track; under the tokens, the selected one in words. Under a token, \"+F\": it ends "
              "in the wind, a fatigue token whatever the others play; \"+F?\": the others' tokens or the die decide."),
        ])
    text = "\n".join([
        _("[b]Pick a card[/b]"),
        key_row("1-5" if _weather(variant) else "1-4", _("play that card at once (the review catches a slip)")),
        key_row(f"← → {confirm}", _("select (a heavy border marks it), then play (face down until all have played)")),
        key_row(_click(), _("select; click the selected card again to play it")),
        key_row(hint, _(HINT_ROW)),
        key_row(key("race.profile", "s"), _(PROFILE_ROW)),
        _("After the second card, a review (\"Sprinteur 9 · Rouleur 6\"): {confirm} passes the keyboard, {change} (or "
          "a number) takes the second card back to change it; the race log and the next players are told that you "
          "changed it, never to what. The first card is down once the second rider has drawn, as at the table; after "
          "{confirm} nothing changes any more.").format(confirm=_escaped(confirm), change=_escaped(change)),
        _(PICK_AIDS),
    ])
    if _weather(variant):
        text += "\n" + _("Weather changes the draw: » tailwind 5 cards, « headwind 3 cards.")
    return text


PICK_AIDS = N_("""[b]Aids[/b] (Settings; off = the real table): each card says where it takes the rider ("9 →12": square 12), every other rider standing still (the others move too, so the round may end elsewhere), and on its second line the one thing to know: "blocked" (the squares ahead are full whatever the others play: XX on the track), "crash!" (so blocked on a wet road), "crash?" (the riders ahead move first and may block it on a wet road), "moves 5" (a climb, a descent, a supply zone or standing up changes it), "→14?" (it stops short of 14 only if the riders there stay). The riders ahead move first, so in a pack their cards decide whether a card is blocked: the words under the cards say so for the selected card ("riders ahead may fill 12", "12 full: riders ahead may leave it"); in its bottom border, "+E" if it ends in the wind (an exhaustion card whatever the others play) and its chance when the others' cards decide ("+E 30%": in about 3 rounds of 10, the others' cards drawn at random from their hands; "+E<10%", "+E>90%"). ▼▼ on the track marks the selected card's square and your other rider's card; the selected card is also said in words under the cards.""")


def _reveal_help(variant: str | None, key: KeyOf) -> str:
    if _tokens(variant):
        steps = _("All tokens are revealed together; riders move front first, then the die "
                  "(catch-up) and the fatigue tokens, one step at a time.")
    else:
        steps = _("All cards are revealed together; riders move front first, then slipstream "
                  "and exhaustion, one step at a time.")
    lines = [
        _("[b]Reveal and movement[/b]"), steps,
        key_row(_(" or ").join([key("race.next", "space"), "→"]), _("next step")),
        key_row("←", _("previous step")),
        key_row(_confirm(key), _("skip to the end of the round, then continue")),
        key_row(key("race.auto", "a"), _("play the steps automatically (on/off)")),
        key_row(key("race.pace", "p"), _("the pace of the steps: off (keys only), slow, normal, fast (saved in the "
                                         "settings)")),
    ]
    if not _tokens(variant):  # (a BMX lap is on screen whole: no profile, no scrolling)
        lines += [key_row(key("race.profile", "s"), _(PROFILE_ROW)),
                  key_row(f"{key('race.back', 'left_square_bracket')} {key('race.on', 'right_square_bracket')}",
                          _("scroll the track (small terminals)"))]
    return "\n".join(lines)


def topic_text(topic: str, variant: str | None = None, key: KeyOf = as_bound) -> str:
    if topic == "teams":
        return _teams_help(variant, key)
    if topic == "tour-stages":
        return _tour_stages_help(key)
    phases = {"curtain": _curtain_help, "pick": _pick_help, "reveal": _reveal_help}
    if topic in phases:
        return phases[topic](variant, key)
    others = {"place": _place_help, "breakaway": _breakaway_help, "draw": _draw_help, "settings": _settings_help}
    if topic in others:
        return others[topic](key)
    text = _(HELP.get(topic, ""))
    if topic in HELP_KEYS:
        text = text.format(**{name: _escaped(key(*binding)) for name, binding in HELP_KEYS[topic].items()})
    return text


RACE_TOPICS = {"place", "draw", "pick", "curtain", "reveal", "podium", "breakaway"}


def peloton_in(setup) -> bool:
    """Whether a race's set-up uses the Peloton expansion: its scripted teams, the
    breakaway, more than four teams, or a stage with three lanes, cobbles or supply zones."""
    from ..engine.terrain import COBBLE, SUPPLY

    if setup is None or not hasattr(setup, "scripted"):  # (BMX has none of it)
        return False
    course = setup.course
    squares = course.terrain[:course.length]
    return (any(setup.scripted) or setup.breakaway or len(setup.teams) > 4 or 3 in course.lanes[:course.length]
            or COBBLE in squares or SUPPLY in squares)


def scripted_rows(kinds) -> str:
    """The scripted teams racing (kinds from a set-up's `scripted`), a key row each."""
    shown = [kind for kind in SCRIPTED_NAMES if kind in kinds]
    return "\n".join(key_row(_("{name} team").format(name=SCRIPTED_NAMES[kind]), _(SCRIPTED_ABOUT[kind]))
                     for kind in shown)


def help_for(topic: str, variant: str | None = None, key: KeyOf = as_bound, tour: bool = False, setup=None) -> str:
    """The help of one screen or phase, for one rule set (markup), its keys as bound now (`key`);
    `tour`: a tour's stage (the Grand Tour rules too); `setup`: the race's (the Peloton
    expansion's rules and its scripted teams when it uses them)."""
    parts = [topic_text(topic, variant, key)]
    if variant and topic in RACE_TOPICS:
        parts.append(track_legend(variant))
        parts.append(_({"classic": RULES_CLASSIC, "meteo": RULES_METEO, "bmx": RULES_BMX}.get(variant, "")))
        if peloton_in(setup):
            parts.append(_(RULES_PELOTON))
            if any(setup.scripted):
                parts.append(scripted_rows(setup.scripted) + "\n" + _(SCRIPTED_RULES))
        if tour:
            parts.append(_(RULES_TOUR))
    parts.append(_global_keys(key))
    return "\n\n".join(p for p in parts if p)
