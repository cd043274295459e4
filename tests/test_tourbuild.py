"""Tours built in the app (play/tourbuild.py, issue 28 item 4), without
Textual: library, user and random stages in a tour, checked as a tour file
is, saved as a user tour file (never over a file) that reads back."""

from __future__ import annotations

import pytest

from flamme_tui import config, stagegen
from flamme_tui.config import ConfigError
from flamme_tui.play import tourbuild, tours


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAMME_TUI_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_tour_of_library_user_and_random_stages_saves_and_reads_back(data):
    (data / "stages").mkdir()
    (data / "stages" / "mine.yaml").write_text("name: Mine\ntiles: abcdefghijklmnopqrsTu\n")
    code = tourbuild.random_leg("mountain", seed=7)
    assert code == stagegen.stage_code(stagegen.random_stage(7, "medium", "mountain", ("base",)))
    assert tourbuild.leg_name(code) == f"Random stage {code}" and tourbuild.leg_name("mine") == "Mine"
    legs = [("avenue-corso-paseo", "classic"), (code, "classic"), ("mine", "meteo")]
    spec = tourbuild.tour_spec("Mon Tour: été #1", legs)
    tid, path = tourbuild.save_tour(spec)
    assert tid == "mon-tour-ete-1" and path == data / "tours" / "mon-tour-ete-1.yaml"
    back = tours.load_tour(tid)  # read as every tour file is, by its id
    assert back == spec and [(leg.stage, leg.variant) for leg in back.stages] == legs
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    # the random stage's code is the whole course: the same stage every time
    assert config.load_stage(back.stages[1].stage).tiles == code.removeprefix("fr1:")


def test_a_tour_is_checked_as_a_file_is(data):
    with pytest.raises(ConfigError, match="stages: tuple should have at least 1 item"):
        tourbuild.tour_spec("Empty", [])
    with pytest.raises(ConfigError, match=r"stages\[1\].stage: unknown stage 'nowhere'"):
        tourbuild.tour_spec("T", [("avenue-corso-paseo", "classic"), ("nowhere", "classic")])
    with pytest.raises(ConfigError, match=r"stages\[0\].stage: .*tile 'b' used twice"):
        tourbuild.tour_spec("T", [("fr1:abbu", "classic")])
    with pytest.raises(ConfigError, match="name: control character"):
        tourbuild.tour_spec("\x1b[2J", [("avenue-corso-paseo", "classic")])
    with pytest.raises(ConfigError, match=r"stages\[0\].variant"):
        tourbuild.tour_spec("T", [("avenue-corso-paseo", "bmx")])
    assert not (data / "tours").exists()


def test_saving_never_overwrites_nor_hides_a_tour(data):
    spec = tourbuild.tour_spec("Mine", [("avenue-corso-paseo", "classic")])
    (data / "tours").mkdir()
    (data / "tours" / "mine.yaml").write_text("kept")
    with pytest.raises(ConfigError, match="a tour file 'mine.yaml' is already there"):
        tourbuild.save_tour(spec)
    assert (data / "tours" / "mine.yaml").read_text() == "kept"
    shipped = tours.builtin_tours_dir()
    sid = sorted(shipped.glob("*.yaml"))[0].stem
    name = tours.load_tour(sid).name
    if config.slugify(name) != sid:  # a name that slugs to the shipped id
        name = sid
    with pytest.raises(ConfigError, match="is a shipped tour's id"):
        tourbuild.save_tour(tourbuild.tour_spec(name, [("avenue-corso-paseo", "classic")]))
    with pytest.raises(ConfigError, match="needs a letter or a digit"):
        tourbuild.save_tour(tourbuild.tour_spec("!!", [("avenue-corso-paseo", "classic")]))
    assert [p.name for p in (data / "tours").iterdir()] == ["mine.yaml"]


def test_a_tour_written_out_keeps_its_description_in_every_language():
    """tour_yaml writes a tour as its file holds it: the `fr:` and `es:` blocks too."""
    import yaml

    spec = tours.load_tour("3-petit-tour")
    assert spec.fr is not None and spec.es is not None
    again = tours.TourSpec.model_validate(yaml.safe_load(tourbuild.tour_yaml(spec)))
    assert again == spec
    bare = tourbuild.tour_spec("Mine", [("avenue-corso-paseo", "classic")], "Flat.")
    assert "fr:" not in tourbuild.tour_yaml(bare) and bare.fr is None
