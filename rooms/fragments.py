"""A room's live fragments, built with escaped format strings (no template engine on the
hot path): the standings every socket of a room shares, and the small answer a Showdown
move gets. The room page renders the same functions' output, so a page and a push
cannot drift apart."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from games.common.responses import escaped as _e
from games.common.times import format_seconds
from games.sudoku import fragments as sudoku

GRID = "M1 0V9M2 0V9M4 0V9M5 0V9M7 0V9M8 0V9M0 1H9M0 2H9M0 4H9M0 5H9M0 7H9M0 8H9"
BOXES = "M3 0V9M6 0V9M0 3H9M0 6H9"
_SQUARES = [f"M{i % 9} {i // 9}h1v1h-1z" for i in range(81)]  # one cell's square, by index


def silhouette_paths(classes: list[str]) -> tuple[str, str]:
    """SVG path data for a silhouette's start squares ('g') and filled squares ('f'): two
    attributes instead of 81 elements, in every standings push to every socket."""
    given = "".join(_SQUARES[i] for i, kind in enumerate(classes) if kind == "g")
    filled = "".join(_SQUARES[i] for i, kind in enumerate(classes) if kind == "f")
    return given, filled


COLOURS = 5  # one per seat of a full room (MAX_PLAYERS): static/css/site.css .racer-c0 to .racer-c4


def colours(seats) -> dict[int, int]:
    """Each seat's colour (seat pk -> 0..4), by when it joined: the same for every viewer,
    in the standings, the silhouettes, the lobby and the toasts."""
    ordered = sorted(seats, key=lambda s: (s.joined_at, s.pk))
    return {seat.pk: i % COLOURS for i, seat in enumerate(ordered)}


def event_sentence(seat, note: str | None) -> str:
    """What a seat's change of status says as a toast to everyone in the room ("" while
    playing): "Ana finished 1:35", "Ben is out", "Cleo left"."""
    name = seat.player.display_name
    if seat.status == "left":
        return gettext("%(name)s left") % {"name": name}
    if seat.status == "eliminated":
        return gettext("%(name)s is out") % {"name": name}
    if seat.status == "finished":
        if note:
            return gettext("%(name)s: %(note)s") % {"name": name, "note": note}
        return gettext("%(name)s finished %(time)s") % {"name": name, "time": format_seconds(seat.finish_seconds)}
    return ""


def standing_row(place: int, seat, game, room, colour: int = 0) -> str:
    name = _e(seat.player.display_name)
    note = game.status_note(seat)
    # The status comes first and stands out: a phone's one-line strip cuts the end off.
    if note:
        state = _e(note)
    elif seat.status == "finished":
        state = _e(gettext("finished %(time)s") % {"time": format_seconds(seat.finish_seconds)})
    elif seat.status == "eliminated":
        state = _e(pgettext("standings", "eliminated"))
    elif seat.status == "left":
        state = _e(pgettext("standings", "left"))
    else:
        state = ""
    head = f'<span class="state">{state}</span> · ' if state else ""
    # static/js/party.js toasts the sentence when it sees the status change.
    event = _e(event_sentence(seat, note))
    percent = round(100 * seat.progress / seat.to_fill) if seat.to_fill else 0
    given, filled = silhouette_paths(game.shown_silhouette(room, seat))
    # (Texts are translated outside the f-strings: xgettext does not look inside them.)
    place_label = _e(gettext("Place %(place)s") % {"place": place})
    progress_label = _e(gettext("%(name)s progress") % {"name": seat.player.display_name})
    silhouette_label = _e(
        gettext("%(name)s: %(done)s of %(total)s %(unit)s")
        % {
            "name": seat.player.display_name,
            "done": seat.progress,
            "total": seat.to_fill,
            "unit": gettext(game.shown_unit(room)),
        }
    )
    return (
        f'<li class="standing status-{_e(seat.status)} racer-c{colour}" data-seat="{seat.pk}"'
        f' data-status="{_e(seat.status)}" data-event="{event}">'
        f'<span class="place" aria-label="{place_label}">{place}</span>'
        f'<div class="racer"><strong class="name">{name}</strong>'
        f'<span class="line">{head}{_e(game.shown_line(room, seat))}</span>'
        f'<progress max="{seat.to_fill}" value="{seat.progress}" aria-label="{progress_label}">'
        f'{percent}%</progress></div>'
        f'<svg class="silhouette" role="img" aria-label="{silhouette_label}"'
        f' viewBox="0 0 9 9"><path class="g" d="{given}"/><path class="f" d="{filled}"/>'
        f'<path class="grid" d="{GRID}"/><path class="boxes" d="{BOXES}"/></svg></li>'
    )


def standings(room, ranked, game) -> SafeString:
    """The standings panel: `ranked` is [(place, seat)] from the game type."""
    colour = colours([seat for _place, seat in ranked])
    rows = "".join(standing_row(place, seat, game, room, colour[seat.pk]) for place, seat in ranked)
    title = _e(gettext("Standings"))
    return mark_safe(
        f'<section id="standings" class="panel standings" aria-label="{title}" data-version="{room.version}">'
        f'<h2>{title}</h2><ol class="standing-list">{rows}</ol></section>'
    )


def message(outcome=None, error: str | None = None, element_id: str = "room-message", game=None) -> SafeString:
    """The room's message line: a refusal, or what the last move did (its game type says
    whether that is good news; a refusal alone needs no game type)."""
    kind = game.message_kind(outcome, error) if game else sudoku.message_kind(outcome, error)
    text = error or (outcome.message if outcome is not None else None)
    return sudoku.message(text, kind=kind, element_id=element_id)
