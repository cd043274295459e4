"""flamme-tui: Flamme Rouge (Classic, Meteo, BMX) for hot-seat play in the terminal."""

__version__ = "0.1.0"

# Facts the command line needs before anything heavy is imported.
VARIANTS = ("classic", "meteo", "bmx")
DEFAULT_STAGE = "avenue-corso-paseo"
