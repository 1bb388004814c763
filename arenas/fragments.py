"""The arena table's rows, built with escaped format strings (no template engine on the hot
path): a change of the table is pushed to every open arena page, each with its viewer's own
rows (2,000 pages a change in bench/arena.py; ~1 ms a page through the template's includes).
The page's template renders the same functions (arenas/templatetags/arena_tags.py), so a page
and a push cannot drift apart."""

from __future__ import annotations

import functools

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from games.common.responses import escaped as _e


def row(line, finished: bool = False) -> SafeString:
    """One table row (arenas/table.py Row): the viewer's own marked, fire and berserk shown;
    on a finished arena's page the name links to that player's rooms."""
    return _row(get_language(), bool(finished), line.place, line.mine, line.name, line.entry)


@functools.lru_cache(maxsize=20_000)  # a row unchanged since the last change is not built again
def _row(language, finished, place, mine, name, entry) -> SafeString:
    fire = entry.firsts >= 2
    classes = ("is-mine" if mine else "") + (" on-fire" if fire else "")
    current = ' aria-current="true"' if mine else ""
    shown = f'<a href="?player={entry.pk}#history">{_e(name)}</a>' if finished else _e(name)
    if fire:
        shown += (
            f' <span class="fire-badge" title="{_e(gettext("On fire: points count double"))}" data-fire>×2'
            f'<span class="visually-hidden"> {_e(gettext("on fire"))}</span></span>'
        )
    if entry.state == "withdrawn":
        shown += f' <span class="hint-text">{_e(gettext("withdrawn"))}</span>'
    recent = "".join(
        f'<span class="room-points{" fire" if fire_ else ""}{" berserk" if berserk else ""}">{points}'
        + (f'<abbr title="{_e(gettext("berserk"))}">B</abbr>' if berserk else "")
        + "</span> "
        for points, fire_, berserk in entry.recent
    )
    return mark_safe(
        f'<tr class="{classes}"{current} data-arena-row="{_e(name)}"><td>{place}</td><td>{shown}</td>\n'
        f'<td class="recent-rooms" data-recent>{recent}</td><td><strong>{entry.points}</strong></td></tr>'
    )


def rows(lines, finished: bool = False) -> SafeString:
    return mark_safe("".join(row(line, finished) for line in lines))


def around(lines, finished: bool = False) -> SafeString:
    """The viewer's place below the top, with a neighbour each side, after a gap ("" if none)."""
    if not lines:
        return mark_safe("")
    gap = '<tr class="board-gap" aria-hidden="true"><td colspan="4">…</td></tr>'
    return mark_safe(f"<tbody>{gap}{rows(lines, finished)}</tbody>")
