"""Widgets of the app: the track strip (Line API), the BMX lap, boards, hands."""
