"""``junkyard track``, a tool of Junkyard Races: draw a track as a PNG, list the built-in tracks, or check
a track file.

    junkyard track NAME --out FILE.png [--size N]   NAME: a track name, an alias, or a .track file
    junkyard track --list
    junkyard track --check FILE

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 done, 1 a problem with a track file or a file that cannot be
written, 2 wrong usage (a track name that is none of the built-in ones too).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from render.races.board import track_png
from render.races.geometry import MAX_CELL
from rules.races.track import Track, TrackError, builtin_tracks, get_track, load_track_text

MIN_SIZE, MAX_SIZE = 10, 80


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME", help="track name or alias (A, B), or a .track file to draw")
    parser.add_argument("--out", metavar="FILE.png", help="where to write the picture")
    parser.add_argument(
        "--size",
        type=int,
        metavar="N",
        help=f"hex size in pixels, {MIN_SIZE}-{MAX_SIZE} (default: chosen to fit the track, at most {MAX_CELL})",
    )
    parser.add_argument("--list", action="store_true", help="list the built-in tracks")
    parser.add_argument("--check", metavar="FILE", help="load a track file and list every problem in it")


def run(args: argparse.Namespace) -> int:
    chosen = [bool(args.name), bool(args.list), bool(args.check)]
    if sum(chosen) != 1:
        return _usage("give exactly one of: a track NAME, --list, or --check FILE")
    if args.list:
        return _list()
    if args.check:
        return _check(Path(args.check))
    return _draw(args.name, args.out, args.size)


def _usage(message: str) -> int:
    print(f"junkyard track: {message}", file=sys.stderr)
    return 2


def _read(path: Path) -> tuple[Track | None, list[str]]:
    """Load a track file; on failure the located problems (or why it could not be read)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{path}: cannot read the file: {exc}"]
    try:
        return load_track_text(text, str(path)), []
    except TrackError as exc:
        return None, [str(p) for p in exc.problems]
    except Exception as exc:  # a loader bug must still end in a message, not a traceback
        return None, [f"{path}: the loader failed: {type(exc).__name__}: {exc}"]


def _summary(track: Track) -> str:
    steps, _ = track.shortest_lap()
    lap = f"shortest lap {steps} steps" if steps else "no lap over both crossings"
    return (
        f"{track.name} (track {track.alias}): {len(track.track_cells)} track cells, "
        f"{len(track.stream_cells)} stream cells, {len(track.bridges)} bridge cells, {lap}"
    )


def _check(path: Path) -> int:
    track, problems = _read(path)
    if track is None:
        for line in problems:
            print(line)
        print(f"{len(problems)} problem(s) in {path}")
        return 1
    print(f"{path}: ok: {_summary(track)}")
    return 0


def _list() -> int:
    try:
        tracks = builtin_tracks()
    except TrackError as exc:
        for p in exc.problems:
            print(p)
        return 1
    if not tracks:
        print("no built-in tracks")
        return 1
    for t in sorted(tracks.values(), key=lambda t: t.alias):
        print(f"{t.alias:>3}  {t.name}: {t.description}" if t.description else f"{t.alias:>3}  {t.name}")
    return 0


def _draw(name: str, out: str | None, size: int | None) -> int:
    if not out:
        return _usage("--out FILE.png is needed to draw a track")
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        return _usage(f"--size must be {MIN_SIZE} to {MAX_SIZE} pixels, not {size}")
    path = Path(name)
    if name.endswith(".track") or path.is_file():
        track, problems = _read(path)
        if track is None:
            for line in problems:
                print(line)
            return 1
    else:
        try:
            track = get_track(name)
        except KeyError as exc:
            return _usage(exc.args[0] if exc.args else str(exc))
        except TrackError as exc:
            for p in exc.problems:
                print(p)
            return 1
    data = track_png(track, size)
    try:
        Path(out).write_bytes(data)
    except OSError as exc:
        print(f"junkyard track: cannot write {out}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({len(data) // 1024} KB): {track.name} (track {track.alias})")
    return 0
