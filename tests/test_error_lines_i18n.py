"""The error lines of the file readers, the settings, the data files and
`flamme-tui conformance` are said in the player's language (issue 26 item 3),
the file and the field as written, and a missing file is known as missing
whatever the language (ReadError.code, not its words)."""

from __future__ import annotations

import errno

import pytest

from flamme_tui import conformance, files, i18n, saves, settings


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang, said", [("en", "file not found"), ("fr", "fichier introuvable"),
                                        ("es", "archivo no encontrado")])
def test_a_missing_file_is_said_in_the_language_and_known_as_missing(tmp_path, lang, said):
    i18n.set_language(lang)
    with pytest.raises(files.ReadError) as caught:
        files.read_bytes(tmp_path / "nothing.yaml", files.STAGE_FILE)
    assert caught.value.reason == said and caught.value.code == files.MISSING
    # the settings know it is missing in any language: the defaults, silently
    assert settings.load(tmp_path / "settings.json") == (settings.Settings(), None)


@pytest.mark.parametrize("lang, said", [
    ("fr", "pas un fichier ordinaire (un dossier)\u00a0; réglages par défaut utilisés"),
    ("es", "no es un archivo normal (una carpeta); se usan los ajustes por defecto")])
def test_a_bad_settings_file_is_one_line_in_the_language(tmp_path, lang, said):
    path = tmp_path / "settings.json"
    path.mkdir()
    i18n.set_language(lang)
    loaded, line = settings.load(path)
    assert loaded == settings.Settings()
    assert line is not None and line.endswith(said) and "settings.json" in line and "\n" not in line


def test_a_conformance_file_with_an_alias_is_refused_in_french(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text("cases:\n  - &a {name: x}\n")
    i18n.set_language("fr")
    lines: list[str] = []
    assert conformance.main([str(path)], out=lines.append) == 2
    assert "cases.yaml" in lines[0] and "les ancres (&a) ne sont pas permises" in lines[0]


def test_a_conformance_failure_names_its_field_as_written(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text("""cases:
  - name: one step
    variant: classic
    track: {squares: "..........", finish: 9}
    riders: [{id: red.S, square: 0, lane: 0}]
    play: {red.S: 3}
    expect: {final: {red.S: [4, 0]}}
""")
    i18n.set_language("es")
    lines: list[str] = []
    assert conformance.main([str(path)], out=lines.append) == 1
    assert "final red.S: se esperaba [4, 0], se obtuvo [3, 0]" in lines[0]


def test_a_save_that_is_not_there_is_said_in_spanish(tmp_path):
    i18n.set_language("es")
    with pytest.raises(saves.SaveError, match="gone.json.*no existe"):
        saves.load(tmp_path / "gone.json")


def test_a_full_disk_is_said_in_french():
    i18n.set_language("fr")
    assert saves.save_problem(OSError(errno.ENOSPC, "No space left on device")) == "le disque est plein"


def test_serve_says_it_cannot_listen_in_french(capsys):
    from flamme_tui.ui.serve import serve

    i18n.set_language("fr")
    assert serve("256.256.256.256", 8000) == 2
    err = capsys.readouterr().err
    assert err.startswith("flamme-tui\u00a0: impossible de servir sur 256.256.256.256:8000\u00a0: ") and err.count("\n") == 1
