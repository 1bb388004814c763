"""The Dutch catalog as tests see it: the strings the code marks for translation (found the
way `make messages` finds them, without GNU gettext), the .po file and the compiled .mo."""

import ast
import fnmatch
import gettext
import re
from pathlib import Path

from django.conf import settings
from django.utils.translation.template import templatize

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

# Django's makemessages keywords (xgettext's defaults plus Django's own): name -> how its
# arguments map to (context, msgid, plural).
KEYWORDS = {
    "_": "s",
    "gettext": "s",
    "gettext_lazy": "s",
    "gettext_noop": "s",
    "ngettext": "sp",
    "ngettext_lazy": "sp",
    "pgettext": "cs",
    "pgettext_lazy": "cs",
    "npgettext": "csp",
    "npgettext_lazy": "csp",
}


def ignored() -> list[str]:
    """The folders `make messages` leaves out (Makefile's MESSAGES_IGNORE): one list."""
    line = next(text for text in (ROOT / "Makefile").read_text().splitlines() if text.startswith("MESSAGES_IGNORE"))
    return re.findall(r"--ignore=(\S+)", line) + [".*", "locale", "node_modules"]


def source_files():
    skip = ignored()
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(fnmatch.fnmatch(part, pattern) for part in parts for pattern in skip):
            continue
        if path.suffix in (".py", ".html", ".txt") and path.is_file():
            yield path


def _entry(kind: str, args: list[str]):
    values = dict(zip(kind, args, strict=True))
    return values.get("c"), values["s"], values.get("p")


def python_strings(source: str):
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        kind = KEYWORDS.get(name)
        if kind is None or len(node.args) < len(kind):
            continue
        args = [a.value for a in node.args[: len(kind)] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(args) == len(kind):
            yield _entry(kind, args)


_CALL = re.compile(r"\b(n?p?gettext|_)\(((?:\s*u?(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\s*,?)+)")
_STRING = re.compile(r"u?('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def template_strings(source: str):
    # Django's own translation of a template into the Python-like text xgettext reads.
    for match in _CALL.finditer(templatize(source)):
        args = [ast.literal_eval(s) for s in _STRING.findall(match.group(2))]
        kind = KEYWORDS[match.group(1)]
        if len(args) >= len(kind):
            yield _entry(kind, args[: len(kind)])


def marked_strings() -> dict:
    """{(context, msgid): plural} of every string the code marks, with where it was found."""
    found: dict[tuple, tuple] = {}
    for path in source_files():
        text = path.read_text()
        strings = python_strings(text) if path.suffix == ".py" else template_strings(text)
        for context, msgid, plural in strings:
            found.setdefault((context, msgid), (plural, str(path.relative_to(ROOT))))
    found.pop((None, ""), None)
    return found


def po_entries() -> list[dict]:
    """The .po file's entries: context, msgid, plural, msgstr (a list for plurals), flags."""
    entries: list[dict] = []
    current: dict = {}
    key = None
    for line in PO.read_text().splitlines() + [""]:
        if line.startswith("#,"):
            current["flags"] = line[2:].replace(" ", "").split(",")
        elif m := re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d)\])?) (\".*\")$", line):
            field, value = m.group(1), ast.literal_eval(m.group(3))
            key = (field, m.group(2))
            if field.startswith("msgstr"):
                current.setdefault("msgstr", {})[int(m.group(2) or 0)] = value
            else:
                current[field] = value
        elif line.startswith('"') and key:
            value = ast.literal_eval(line)
            if key[0].startswith("msgstr"):
                current["msgstr"][int(key[1] or 0)] += value
            else:
                current[key[0]] += value
        elif not line.strip():
            if "msgid" in current:
                entries.append(current)
            current, key = {}, None
    return [e for e in entries if e["msgid"]]


def mo_catalog() -> dict:
    with MO.open("rb") as f:
        return gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]  # where it keeps the messages (not in the stubs)
