"""How the time of every reader of user files grows with the file's size.

    flamme-tui bench --readers          (or: python -m flamme_tui.bench_readers)

Each reader (save, settings, stage, tour, conformance case file, data file)
reads crafted files of 1x, 4x and 16x a size (by default 16x is the
reader's size bound, files.py), each of a shape meant to be slow: many
small tokens, many keys, nesting at the cap, long strings, unterminated
strings full of escaped quotes (what made the JSON depth check quadratic),
many errors (one line number looked up per error), many conformance cases.
It prints the CPU time per KB: a reader whose time is linear in its input shows
the same figure in the three columns.  The last column is 16x's figure over
1x's: about 1 when linear, about 16 when quadratic.

A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from . import files
from .i18n import _

KIB = 1024
SCALES = (1, 4, 16)


def fill(size: int, head: bytes, unit: bytes, tail: bytes = b"") -> bytes:
    """head + as many units as fit in `size` bytes + tail."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def numbered(size: int, head: bytes, pattern: bytes, sep: bytes = b"", tail: bytes = b"") -> bytes:
    """head + pattern % 0, pattern % 1, ... (joined by sep) up to `size` bytes + tail."""
    parts: list[bytes] = []
    used = len(head) + len(tail)
    i = 0
    while True:
        part = (sep if parts else b"") + pattern % i
        if used + len(part) > size:
            break
        parts.append(part)
        used += len(part)
        i += 1
    return head + b"".join(parts) + tail


Shape = Callable[[int], bytes]

# JSON: saves and the settings file
JSON_SHAPES: dict[str, Shape] = {
    "escaped quotes, unterminated": lambda n: fill(n, b'{"a": "', b'\\"'),
    "open strings and brackets": lambda n: fill(n, b"", b'["\\'),
    "small tokens": lambda n: fill(n, b'{"actions": [', b"0,", b"0]}"),
    "nesting at the cap": lambda n: fill(n, b'{"a": [', b"[[[[[[[[[[]]]]]]]]]],", b"0]}"),
    "many keys": lambda n: numbered(n, b"{", b'"k%d": 0', b",", b"}"),
    "long string": lambda n: fill(n, b'{"title": "', b"x", b'"}'),
}

# YAML: stages, tours, case files, data files
YAML_SHAPES: dict[str, Shape] = {
    "small tokens (flow)": lambda n: fill(n, b"name: x\ntiles: [", b"0, ", b"0]\n"),
    "small tokens (block)": lambda n: fill(n, b"name: x\ntiles:\n", b"- 0\n"),
    "many keys": lambda n: numbered(n, b"", b"k%d: 0\n"),
    "many keys (flow)": lambda n: numbered(n, b"{", b"k%d: 0", b", ", b"}\n"),
    "nesting at the cap": lambda n: fill(n, b"name: [", b"[[[[[[0]]]]]], ", b"0]\n"),
    "long string": lambda n: fill(n, b"name: '", b"x", b"'\n"),
    "long plain lines": lambda n: fill(n, b"name: x\ndescription: x\n", b"  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"),
    "comments": lambda n: fill(n, b"", b"# xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", b"name: x\n"),
    "many errors in a list": lambda n: numbered(n, b"name: x\nstages:\n", b"  - {stage: s%d, x: 1}\n"),
}

CASE_SHAPES: dict[str, Shape] = {
    **YAML_SHAPES,
    "many cases": lambda n: numbered(n, b"cases:\n", b"- {name: c%d}\n"),
    "many cases, one name": lambda n: fill(n, b"cases:\n", b"- {name: c}\n"),
}


class Reader(NamedTuple):
    name: str
    kind: files.FileKind
    suffix: str
    read: Callable[[Path], object]
    shapes: dict[str, Shape]


def _save_shapes() -> dict[str, Shape]:
    """The JSON shapes, and a real save whose action log is long, its checksum
    recomputed (so the whole save is checked and replayed up to the first
    action that does not fit)."""
    from . import saves
    from .play.races import RaceSpec
    from .play.session import Session

    session = Session.new(RaceSpec(), 1, {0: "easy", 1: "easy"})
    session.play_bots()
    with tempfile.TemporaryDirectory() as folder:
        doc = json.loads(saves.save(session, Path(folder) / "real.json").read_text())

    def long_log(n: int) -> bytes:
        body = dict(doc, actions=[], rounds=[])
        base = len(json.dumps(body))
        body["actions"] = list(doc["actions"]) + ["play blue.S 9"] * max(1, (n - base - 100) // 17)
        body["checksum"] = saves._checksum(body)
        return json.dumps(body).encode()

    return {**JSON_SHAPES, "real save, long log, checksum redone": long_log}


def readers() -> list[Reader]:
    from . import config, conformance, saves, settings
    from .play import tours

    def save(path: Path) -> object:
        return saves.load_record(path)

    def stage(path: Path) -> object:
        return config.check_stage_file(path, catalog=config.load_tiles())  # a catalog: no cache

    def data(path: Path) -> object:
        return config._problems(config.TileCatalog, path)

    return [
        Reader("save", files.SAVE_FILE, ".json", save, _save_shapes()),
        Reader("settings", settings.SETTINGS_FILE, ".json", settings.load, JSON_SHAPES),
        Reader("stage", files.STAGE_FILE, ".yaml", stage, YAML_SHAPES),
        Reader("tour", files.DATA_FILE, ".yaml", tours.check_tour_file, YAML_SHAPES),
        Reader("case file", files.CASE_FILE, ".yaml", conformance.load_cases, CASE_SHAPES),
        Reader("data file", files.DATA_FILE, ".yaml", data, YAML_SHAPES),
    ]


def time_read(reader: Reader, path: Path) -> float:
    """CPU seconds of the fastest of two reads (errors are the readers' answers).
    CPU time, not wall time: on a busy machine the wall clock counts the time
    other programs took."""
    best = float("inf")
    for _attempt in range(2):
        start = time.process_time()
        try:
            reader.read(path)
        except Exception:  # noqa: BLE001 - a refusal is an answer; its time is what counts
            pass
        best = min(best, time.process_time() - start)
    return best


def run(base_kb: int | None = None, only: str | None = None, out: Callable[[str], object] = print) -> int:
    """Print ms per KB for every reader and shape at 1x, 4x and 16x."""
    chosen = [r for r in readers() if only is None or r.name == only]
    if not chosen:
        out(_("flamme-tui: bench: no reader called {name}").format(name=repr(only)))
        return 2
    with tempfile.TemporaryDirectory() as folder:
        for reader in chosen:
            base = reader.kind.max_bytes // SCALES[-1]
            if base_kb is not None:
                base = min(base, base_kb * KIB)
            sizes = [base * s for s in SCALES]
            out(_("{reader} (bound {bound}): ms per KB at {sizes}; 16x/1x").format(
                reader=reader.name, bound=_("{n} KB").format(n=reader.kind.max_bytes // KIB),
                sizes=", ".join(_("{n} KB").format(n=size // KIB) for size in sizes)))
            for shape, make in reader.shapes.items():
                per_kb: list[float] = []
                for size in sizes:
                    data = make(size)
                    path = Path(folder) / f"{len(per_kb)}{reader.suffix}"
                    path.write_bytes(data)
                    per_kb.append(time_read(reader, path) * 1000 / (len(data) / KIB))
                ratio = per_kb[-1] / per_kb[0] if per_kb[0] > 0 else float("nan")
                out(f"  {shape:40} " + " ".join(f"{v:9.3f}" for v in per_kb) + f"  {ratio:6.1f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flamme_tui.bench_readers", description=__doc__.split("\n")[0])
    parser.add_argument("--kb", type=int, metavar="KB",
                        help="the 1x size in KB (default: a sixteenth of each reader's bound)")
    parser.add_argument("--reader", help="only this reader (save, settings, stage, tour, case file, data file)")
    args = parser.parse_args(argv)
    return run(args.kb, args.reader)


if __name__ == "__main__":
    sys.exit(main())
