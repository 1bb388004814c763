"""A player's display settings (issue 44): the colours, the contrast, the digit pad's order and
side, the text size and the screen-reader race mode.

Stored on the Profile (`display`, only what differs from the defaults) and rendered by base.html
as data attributes on <html> (data-palette, data-contrast, data-pad, data-pad-side, data-text,
data-reader), so the CSS and the scripts read them before the first paint, with no flash.
"""

# Each setting's values, the default first. The palette is colour-blind safe by default: it
# costs the other players nothing (Okabe-Ito is as clear to them as the standard one).
CHOICES: dict[str, tuple[str, ...]] = {
    "palette": ("cb-safe", "standard"),
    "contrast": ("normal", "high"),
    "pad": ("phone", "numpad", "row"),
    "pad_side": ("right", "left"),
    "text": ("normal", "large"),
    "reader": ("off", "on"),
}
DEFAULTS = {name: values[0] for name, values in CHOICES.items()}


def current(stored) -> dict[str, str]:
    """Every setting's value: the stored one when it is still a valid choice, else the default
    (a value from an older version, or a hand-edited row, never reaches a page)."""
    stored = stored if isinstance(stored, dict) else {}
    return {name: stored[name] if stored.get(name) in values else DEFAULTS[name] for name, values in CHOICES.items()}


def changed(stored, given) -> dict[str, str]:
    """What to store after `given` (a posted form's values, some settings only): the valid
    values win, the defaults are dropped (a row holds only the player's own choices)."""
    merged = current(stored) | {name: value for name, value in given.items() if value in CHOICES.get(name, ())}
    return {name: value for name, value in merged.items() if value != DEFAULTS[name]}


def attributes(settings: dict[str, str]) -> dict[str, str]:
    """The <html> data attributes of `settings`: name -> value ("pad_side" -> "data-pad-side")."""
    return {"data-" + name.replace("_", "-"): value for name, value in settings.items()}


# The pages with a board to race on: their skip link turns the screen-reader mode on (or off).
GAME_PAGES = {"solo_run", "room", "cardoku_game", "domino_game"}  # a daily is a Solo Run
