"""The bounds of every number and text that game data can hold.

One home for each limit: the data-file models (config/) and the save
models (saves/) both take them from here, so anything the data files can
describe a save can hold, and a crafted save can ask for nothing larger.
The bounds are far above what the rulebooks use and far below what would
make building a race slow: the point is that nothing is built from an
unchecked number.

This module imports nothing of the program but engine/course.py's constants.
"""

from __future__ import annotations

from .engine.course import MOVE_TABLE, PADDING

# Teams and riders
# seats: up to 6 teams of two riders, or 12 players racing one rider each (PELOTON.md)
MIN_TEAMS, MAX_TEAMS = 1, 12
MAX_RIDERS = 12  # riders in one race: six teams of two, or twelve players racing one each
MAX_COLOURS = 6  # team colours racing at once (the Peloton expansion's six)
MAX_BMX_RIDERS = 4
MAX_TEAM_NAME = 40  # characters (the menus let a player type 16)
TEAM_COLOUR = r"^[a-z][a-z0-9_-]{0,19}$"  # a colour id is also the prefix of rider ids

# Cards and decks.  A move is looked up in the course's table of card values
# and must stay inside the course's padding past the finish.
MAX_CARD = min(MOVE_TABLE - 1, PADDING // 3)  # a card value, an Attack card's move, a token
MAX_DECK = 60  # cards in one deck (the rulebook: 15), extra cards, attack cards
MAX_HAND = 12  # cards drawn at once (the rulebook: 4; meteo tailwind 5)
MAX_HANDICAP = 10  # extra exhaustion cards per team (the menus offer 0-5)
MAX_TOKENS = 100  # weather tokens in the bag, bmx speed tokens, fatigue supply
MAX_YOUNG = 3  # bmx young-children variant: fatigue tokens added to a bag
MAX_DIE_FACES = 20
MAX_BIDS = 4  # breakaway bids per rider (the rules: 2)

# Courses
MAX_COURSE = 400  # squares (the longest rulebook stage has 78)
MAX_STAGE_TILES = 60  # tiles on one course (a classic box has 21)
MAX_TILE_SQUARES = 20
MAX_STAGE_NAME = 60  # characters
MAX_DESCRIPTION = 400
MAX_TOUR_STAGES = 21  # stages of a tour (a grand tour has 21)
MAX_TOUR_NAME = 80  # characters
# a rules case (conformance.py) may put a rider far past its squares (flat road, FORMAT.md):
# the course built for it is this long at most (over 12 times the longest stage), so that a
# case file of its bound's size, every case so long, still runs in seconds
MAX_CASE_SQUARES = 1_000
MAX_USER_STAGES = 500  # stage files read from the user's folder (the first by name): a list stays quick

# A race and its record
MAX_SEED = 2**63 - 1  # seeds are 0..MAX_SEED or -MAX_SEED..-1
MAX_ROUNDS = 500  # a race that lasts longer is stopped (races.play_out)
MAX_ACTIONS = 40 * MAX_ROUNDS  # the action log: at most a few actions per rider per round
MAX_ACTION_TEXT = 40  # characters of one action in the log ("play blue.S 9")
MAX_BOT_NAME = 20
MAX_LABEL = 200  # other texts of a save: app version, race id, dates, phase
