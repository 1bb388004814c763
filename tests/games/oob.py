"""Applies an htmx answer's out-of-band swaps to a page, as htmx does (each top-level
element of the answer replaces the page's element with the same id), so tests can check
that a page plus a move's answer equals the page rendered afresh."""

import re

VOID = {"input", "br", "img", "meta", "link", "hr"}
OOB = ' hx-swap-oob="true"'


def element_span(html: str, element_id: str) -> tuple[int, int]:
    """Start and end offsets of the element with this id (our markup: quoted ids)."""
    at = html.index(f' id="{element_id}"')
    start = html.rindex("<", 0, at)
    opening = re.match(r"<([\w-]+)", html[start:])
    if opening is None:
        raise ValueError(f"no tag around #{element_id}")
    tag = opening.group(1)
    if tag in VOID:
        return start, html.index(">", at) + 1
    depth = 0
    pattern = re.compile(rf"<(/?){tag}[\s>]")
    for match in pattern.finditer(html, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return start, html.index(">", match.start()) + 1
    raise ValueError(f"no end for #{element_id}")


def top_level_ids(answer: str) -> list[str]:
    ids, pos = [], 0
    while pos < len(answer):
        match = re.compile(r'<([\w-]+)[^>]*? id="([^"]+)"').match(answer, pos)
        assert match, f"not an element with an id at {answer[pos : pos + 80]!r}"
        ids.append(match.group(2))
        pos = element_span(answer, match.group(2))[1]
    return ids


def apply(page: str, answer: str) -> str:
    """`page` after htmx swaps every top-level element of `answer` in by id."""
    for element_id in top_level_ids(answer):
        start, end = element_span(answer, element_id)
        new = answer[start:end].replace(OOB, "", 1)
        assert OOB in answer[start:end], f"#{element_id} is not out of band"
        old_start, old_end = element_span(page, element_id)
        page = page[:old_start] + new + page[old_end:]
    return page
