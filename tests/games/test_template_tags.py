"""Template tags only present (issue 10): no tag module reaches the database, directly or
through what it imports. Views load the data (stats/panels.py); tags draw it."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TAG_MODULES = sorted(
    str(p.relative_to(ROOT))
    for p in ROOT.glob("*/**/templatetags/*.py")
    if p.name != "__init__.py" and ".venv" not in p.parts
)
PROJECT = ("games", "rooms", "stats", "config")


def _module_file(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules `path` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(filter(None, [base, node.module or ""]))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import solo`
    return names


def _reached(start: Path) -> set[str]:
    """Every module the file imports, following the project's own modules."""
    seen, todo = set(), [start]
    while todo:
        for name in _imports(todo.pop()):
            if name in seen:
                continue
            seen.add(name)
            path = _module_file(name) if name.split(".")[0] in PROJECT else None
            if path is not None:
                todo.append(path)
    return seen


def test_there_are_tag_modules_to_check():
    assert "games/domino/templatetags/domino_tags.py" in TAG_MODULES and len(TAG_MODULES) >= 4


@pytest.mark.parametrize("path", TAG_MODULES)
def test_a_tag_module_reaches_no_model_and_no_write_path(path):
    reached = _reached(ROOT / path)
    data = {
        name
        for name in reached
        if name.startswith("django.db")
        or (
            name.split(".")[0] in PROJECT
            and name.split(".")[-1] in ("models", "solo", "records", "panels", "rows", "bank", "services", "live")
        )
    }
    assert not data, f"{path} reaches {sorted(data)}"


@pytest.mark.parametrize("language", ["en", "nl"])
def test_day_is_the_date_filter_in_the_pages_zone_and_language(language):
    import datetime as dt

    from django.template import engines
    from django.utils import timezone, translation

    both = engines["django"].from_string('{% load game_tags %}{{ t|day }}|{{ t|date:"j N Y" }}|{{ none|day }}')
    late = dt.datetime(2026, 10, 3, 23, 30, tzinfo=dt.UTC)  # 4 October in Amsterdam
    with translation.override(language):
        for zone in ("UTC", "Europe/Amsterdam"):
            with timezone.override(zone):
                ours, django, empty = both.render({"t": late, "none": None}).split("|")
                assert ours == django and empty == ""
        with timezone.override("Europe/Amsterdam"):
            assert both.render({"t": late}).startswith("4 okt 2026" if language == "nl" else "4 Oct. 2026")
