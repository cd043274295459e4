"""One square numbering everywhere: counted from the start line, the grid as G1.., N to go."""

from flamme_tui import config
from flamme_tui.play import narrator as squares


def test_classic_stage_counts_from_the_start_line_to_the_line_square():
    course = config.load_course("avenue-corso-paseo")
    assert squares.label(course, course.grid) == "1"  # the first square past the start line
    assert squares.label(course, course.grid - 1) == "G1"  # just behind it
    assert squares.label(course, 0) == f"G{course.grid}"
    assert squares.line_square(course) == 68  # "68 squares from start to finish"
    assert squares.to_go(course, course.finish - 1) == 1
    assert squares.to_go_text(course, course.finish - 9) == "9 to go"
    assert squares.to_go_text(course, course.finish + 1) == "2 past the line"
    assert squares.where(course, course.grid + 11) == "square 12 · 57 to go"


def test_bmx_lap_square_28_is_the_line_and_lanes_have_names():
    course = config.compile_bmx_circuit("aBcd", 4, None)
    assert squares.line_square(course) == 28
    assert squares.label(course, course.finish) == "29"  # one past the line: never "square 32"
    assert squares.lane_word("bmx", 0) == "inner lane"
    assert squares.lane_word("classic", 0) == "right lane" and squares.lane_word("meteo", 1) == "left lane"
