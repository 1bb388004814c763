"""The Content-Security-Policy header and the templates it relies on (issue 12, section 7).
tests/browser/test_csp.py loads every page in Chromium and finds no violation."""

import re
from pathlib import Path

from django.conf import settings
from django.urls import reverse

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def directives(response):
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def test_every_page_sends_a_policy_with_scripts_from_self_only(client, db):
    for url in ("/", reverse("how_to_play"), reverse("room", args=["ZZZZZZ"]), "/cardoku/", "/domino/"):
        policy = directives(client.get(url))
        assert policy["script-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in str(policy)


def test_templates_have_no_inline_scripts_or_event_handlers():
    found = []
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        for match in re.finditer(r"<script\b[^>]*>", text):
            if "src=" not in match.group(0):
                found.append(f"{path.name}: {match.group(0)}")
        found += [
            f"{path.name}: {m.group(0)}" for m in re.finditer(r"\son[a-z]+\s*=|\shx-on[:-]|javascript:|<style\b", text)
        ]
    assert not found


def test_htmx_neither_evaluates_code_nor_inserts_its_indicator_style(client, db):
    html = client.get("/").content.decode()
    assert '"allowEval":false' in html and '"includeIndicatorStyles":false' in html
