"""flamme-tui: Flamme Rouge (Classic, Meteo, BMX) for hot-seat play in the terminal."""

__version__ = "0.1.0"

# Facts the command line needs before anything heavy is imported.
VARIANTS = ("classic", "meteo", "bmx")
DEFAULT_STAGE = "avenue-corso-paseo"
# Seeds a race may have, in the app, on the command line and in a save: 0..MAX_SEED
# (Python seeds N and -N alike, so negative seeds would only repeat races).
MAX_SEED = 999_999
# How long the expert bot may think over one decision (bots.budget; the
# settings file and the command line check against these).
BOT_SECONDS = 1.0
MIN_BOT_SECONDS, MAX_BOT_SECONDS = 0.01, 60.0
MAX_BOT_ROLLOUTS = 1_000_000
