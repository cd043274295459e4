"""Every colour's letter is unique within a race, on every screen: the command
line's races (red, blue, green, black, white, pink) showed Blue and Black both
as `B` in replays."""

from __future__ import annotations

from flamme_tui.play.races import COLOURS
from flamme_tui.ui.palette import TEAM_COLOURS, rider_label, team_colour


def test_the_command_line_s_colours_have_letters_of_their_own():
    letters = [team_colour(c).letter for c in COLOURS]
    assert len(set(letters)) == len(letters), dict(zip(COLOURS, letters))
    assert rider_label("blue.S", "S") != rider_label("black.S", "S")


def test_no_two_colours_share_a_letter_whatever_the_ids():
    ids = [c.id for c in TEAM_COLOURS] + list(COLOURS) + ["grey", "gold", "bronze", "b", "blue2", "teal", "x"]
    letters = {team_colour(i).letter: i for i in ids}
    assert len(letters) == len(set(ids))
    assert all(team_colour(i).letter == team_colour(i).letter for i in ids)  # the same letter every time
