"""flamme-tui: Flamme Rouge (Classic, Meteo, BMX) for hot-seat play in the terminal."""

__version__ = "0.1.0"

# Facts the command line needs before anything heavy is imported.
VARIANTS = ("classic", "meteo", "bmx")
DEFAULT_STAGE = "avenue-corso-paseo"
# Seeds a race may have, in the app, on the command line and in a save: 0..MAX_SEED
# (Python seeds N and -N alike, so negative seeds would only repeat races).
MAX_SEED = 999_999
