"""flamme-tui: Flamme Rouge (Classic, Meteo, BMX) for hot-seat play in the terminal."""

__version__ = "0.1.0"
