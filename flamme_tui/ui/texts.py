"""Words shown by the app: the rules reference and the help of each phase (markup)."""

from __future__ import annotations

from .palette import FINISH_GLYPH, START_GLYPH, WEATHER, legend_terrain

GLOBAL_KEYS = """[b]Everywhere[/b]
  ?            this help
  q, ctrl+q    quit (a race in progress asks first)
  Esc          back (menus), close (this help)"""

RULES_CLASSIC = """[b]Classic[/b]
Each player has two riders: a Rouleur (R, cards 3-7) and a Sprinteur (S, cards 2,3,4,5,9).
[b]Energy:[/b] pick the rider that draws first, draw 4 cards from its deck, keep 1 face down, the other 3 go face up under the deck (recycled, everybody may see them). Then the other rider.
[b]Movement:[/b] all cards are revealed; the rider in front moves first (lane 0, the right-hand lane, before lane 1). A rider moves exactly its card; a full square sends it to the nearest free place behind. On a descent (v) a rider moves at least 5, from a supply zone (s) at least 4. An ascent (^) limits a move to 5 squares; from further away a rider stops at the foot of the climb.
[b]End of round:[/b] slipstream: a group with exactly one empty square in front of the next group moves up one square (not on ascents). Then every rider with nobody on the square ahead takes an exhaustion card (E, worth 2) into its recycled cards.
[b]Finish:[/b] the race ends when a rider crosses the finish line; the furthest rider wins."""

RULES_METEO = """[b]Meteo[/b] (classic plus the weather on the straights)
  » tailwind: a rider standing on it draws 5 cards.  « headwind: draws 3 cards.
  ≡ crosswind: no slipstream to or from its squares.
  ~ wet road: a rider blocked (moved less than its card) and stopping on it crashes.
A crashed rider lies down (lower-case letters on the track); a square full of crashed riders blocks the road. A crashed rider still plays a card: it stands up and moves 2 less."""

RULES_BMX = """[b]BMX[/b] (one rider each, speed tokens from a bag)
Every turn each rider draws 3 tokens from its bag (4 on a descent) and keeps 1 (2 on a descent, their values add up); the others go back in the bag. Played tokens leave the game.
Riders move front first. Then the die: 1 closes one-square gaps between groups, 2 closes gaps of 1 or 2 squares (catch-up); a blank face does nothing. A rider with both lanes ahead empty takes a fatigue token (worth 1) into its bag, 2 on a bumpy passage.
Terrain: ~ bumpy passage, # canyon (single-lane middle), " marsh (single lane), v descent.
A jump ramp /N throws a rider who crosses it with a token N, N squares further.
The race ends after the turn in which a rider crosses the line; the furthest rider wins."""

RULES = "\n\n".join((RULES_CLASSIC, RULES_METEO, RULES_BMX))


WEATHER_SHORT = "» tailwind 5 cards  « headwind 3 cards  ≡ crosswind no slipstream  ~ wet crash"


def track_legend(variant: str) -> str:
    from ..engine.rules import find

    terrain = "  ".join(f"{g} {n}" for g, n in legend_terrain(variant))
    if find(variant).uses_tokens:
        lines = [f"{terrain}  {START_GLYPH} start/finish line",
                 "░ no lane (single-lane square)   /N jump ramp with number N"]
    else:
        lines = [f"Track: {terrain}  {START_GLYPH} S start  {FINISH_GLYPH} F finish"]
    if find(variant).has_weather:
        lines.append("Weather: " + "  ".join(f"{w.glyph} {w.name} ({w.effect})" for w in WEATHER.values()))
    lines.append("Riders: team letter + S (Sprinteur) or R (Rouleur); lower case = crashed")
    return "\n".join(lines)


HELP = {
    "menus": """[b]Menus[/b]
  ↑ ↓          move          Enter   choose
  Esc          back""",
    "teams": """[b]Teams[/b]
  Tab / shift+Tab   move between fields
  Enter             open a list, or press the focused button
  ctrl+s / Start    start the race
Seed: the same seed, teams and stage give the same race.
Handicap: extra exhaustion cards in both riders' decks of that team.
Young children (BMX): fatigue tokens added to that player's bag.
Peloton / Muscle team (classic): scripted teams that play their top card
each round, start at the front and take no exhaustion.  Muscle: a
Sprinteur deck with an extra 5.  Peloton: one Rouleur deck with two
Attack cards for both riders; Attack moves the front rider 2, the rear 9.""",
    "builder": """[b]BMX circuit[/b]
  a b c d      flip tile A, B, C or D (upper case: classic track;
               lower case: bumpy passage, canyon, descent, marsh)
  r            jump ramp on/off       [ ]   move the ramp
  + -          ramp number 1-5        f     weather forecast on/off
  Enter        continue to the teams  (young children: per player there)""",
    "place": """[b]Starting grid[/b]
Players place their riders in turn on the free places behind the start line.
  ← → ↑ ↓      move the cursor [] over the free places
  click        a free place on the track
  Enter        place the rider     r   a random free place""",
    "curtain": """[b]Pass the keyboard[/b]
Only the named player should look at the screen now.
  Enter        show my cards""",
    "draw": """[b]Which rider draws first?[/b]
You see the first rider's cards, pick one, and only then draw for the other rider.
  1 2 or ← →   select        Enter   confirm        click  select / confirm""",
    "pick": """[b]Pick a card[/b]
  1-5 or ← →   select a card (a heavy border marks it)
  Enter        play the selected card (face down until all have played)
  click        select; click the selected card again to play it
A card says "moves 5" when the terrain changes how far the rider goes;
▼▼ on the track marks where it would go if nothing blocked it.""",
    "reveal": """[b]Reveal and movement[/b]
All cards are revealed together; riders move front first, one step at a time.
  Space or →   next step       ←   previous step
  Enter        skip to the end of the round, then continue
  a            play the steps automatically (on/off)
  [ ]          scroll the track (small terminals)""",
    "podium": """[b]Race over[/b]
  r   race again (same teams and course, new seed)
  n   new race     q   quit""",
    "rules": "",
}


def help_for(topic: str, variant: str | None = None) -> str:
    parts = [HELP.get(topic, "")]
    from ..engine.rules import find

    rules = find(variant) if variant else None
    if topic == "pick" and rules is not None and rules.has_weather:
        parts.append("Weather changes the draw: » tailwind 5 cards, « headwind 3 cards.")
    if topic == "pick" and rules is not None and rules.uses_tokens:
        parts.append("BMX: keep 1 token (2 on a descent: select both, then Enter).")
    if variant:
        parts.append(track_legend(variant))
        parts.append({"classic": RULES_CLASSIC, "meteo": RULES_METEO, "bmx": RULES_BMX}.get(variant, ""))
    parts.append(GLOBAL_KEYS)
    return "\n\n".join(p for p in parts if p)
