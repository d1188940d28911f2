"""``python -m bench [--json] [--list] [NAME ...]``: run the registered benchmarks and print their figures."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import traceback
from collections.abc import Sequence

import bench
from bench.registry import BENCHMARKS

_NOT_BENCHMARKS = {"__main__", "registry"}


def load_all() -> None:
    """Import every benchmark module of the package so its functions register themselves."""
    for info in pkgutil.iter_modules(bench.__path__):
        if info.name not in _NOT_BENCHMARKS:
            importlib.import_module(f"bench.{info.name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Run the benchmarks and print figures.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="run only benchmarks whose name contains NAME")
    parser.add_argument("--json", action="store_true",
                        help="print one flat JSON object {figure: value} (a figure two benchmarks share is "
                             "prefixed with its benchmark's name)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    parser.add_argument("--soak", type=int, metavar="N", help="play N checked Junkyard Races races and stop")
    args = parser.parse_args(argv)
    if args.soak is not None:
        from bench.drivers import soak

        return 1 if soak(args.soak) else 0
    load_all()
    chosen = [n for n in sorted(BENCHMARKS) if not args.names or any(w in n for w in args.names)]
    if args.list:
        print("\n".join(chosen))
        return 0
    if not chosen:
        print("no benchmark matches", file=sys.stderr)
        return 1
    results: dict[str, dict[str, object]] = {}
    failed = False
    for name in chosen:
        try:
            figures = dict(BENCHMARKS[name]())
        except Exception as exc:  # report and go on with the others
            failed = True
            figures = {"error": f"{type(exc).__name__}: {exc}"}
            if not args.json:
                traceback.print_exc()
        results[name] = figures
        if not args.json:
            for key, value in figures.items():
                print(f"{name}.{key}: {value}")
            sys.stdout.flush()
    if args.json:
        print(json.dumps(flatten(results), sort_keys=True))
    return 1 if failed else 0


def flatten(results: dict[str, dict[str, object]]) -> dict[str, object]:
    """One level of figures, {"apply_us": …, "render_ms": …}; clashing names keep their benchmark's prefix."""
    counts: dict[str, int] = {}
    for figures in results.values():
        for key in figures:
            counts[key] = counts.get(key, 0) + 1
    flat: dict[str, object] = {}
    for name, figures in results.items():
        for key, value in figures.items():
            flat[key if counts[key] == 1 and key != "error" else f"{name}.{key}"] = value
    return flat


if __name__ == "__main__":
    sys.exit(main())
