"""The ghost lanes a race shows beside the player's board (a Solo Run's ghost, a public
race's ghosts): presents what the view loaded, never queries."""

import json

from django import template

from rooms.fragments import BOXES, GRID, silhouette_paths

from ..models import Track
from ..presenters import ghost_data

register = template.Library()

FIRST_GHOST_COLOUR = 3  # after the room's seats' colours (a public race with ghosts has 1-2 players)


@register.inclusion_tag("replays/ghosts.html")
def ghost_lanes(ghosts):
    """`ghosts`: Tracks (loaded with their puzzle) or the dicts ghost_data made of them
    (Room.ghosts keeps those). Each lane starts empty; static/js/ghost.js plays it on the
    page's clock."""
    found = [ghost_data(g) if isinstance(g, Track) else g for g in ghosts or []]
    lanes = []
    for n, ghost in enumerate(found):
        classes = ["g" if i in ghost["givens"] else "" for i in range(81)]
        given, _filled = silhouette_paths(classes)
        lanes.append({**ghost, "given_path": given, "colour": (FIRST_GHOST_COLOUR + n) % 5})
    return {"lanes": lanes, "data": json.dumps({"ghosts": found}, separators=(",", ":")), "grid": GRID, "boxes": BOXES}
