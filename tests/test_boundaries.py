"""The benchmarks and the tests stand apart: code both need lives in the product packages, so neither
``bench`` nor ``tests`` imports the other (a benchmark must run from an installed product, and a test
must not depend on timing code)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


def crossings(package: str, forbidden: str) -> set[str]:
    """The imports of ``forbidden`` (or its modules) anywhere in ``package``."""
    return {f"{path.relative_to(ROOT)} imports {module}"
            for path in (ROOT / package).rglob("*.py")
            for module in imported_modules(path)
            if module == forbidden or module.startswith(forbidden + ".")}


@pytest.mark.parametrize(("package", "forbidden"), [("bench", "tests"), ("tests", "bench")])
def test_neither_bench_nor_tests_imports_the_other(package: str, forbidden: str) -> None:
    assert sorted(crossings(package, forbidden)) == []


def test_the_scan_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text("def f():\n    from tests.render import ring\n    import bench.registry\n")
    assert imported_modules(source) == {"tests.render", "bench.registry"}
