import re
import secrets
import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import NAME_MAX_LENGTH

# Zero-width joiners stay (emoji sequences and some scripts need them) but never count as
# visible; every other format character (bidi overrides, isolates and marks, zero-width space,
# word joiner, BOM, soft hyphen) is removed, so a name cannot reorder the text around it in a
# standings row or look empty. Hangul fillers and the braille blank render as nothing too.
JOINERS = {"\u200c", "\u200d"}
BLANK_LOOKING = set("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """Does `ch` draw something of its own? Letters, numbers, punctuation and symbols do;
    marks (Mn, Me, Mc: combining marks, variation selectors, the Khmer inherent vowels), format
    and control characters, separators, private-use and unassigned code points do not
    (U+034F, U+FE0F, U+E0100, U+17B4 and U+180B made invisible names)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=NAME_MAX_LENGTH, strip=True)

    def clean_display_name(self):
        kept = "".join(
            ch for ch in self.cleaned_data["display_name"] if unicodedata.category(ch) != "Cf" or ch in JOINERS
        )
        name = " ".join(kept.split())
        if not any(visible(ch) for ch in name):
            raise forms.ValidationError(_("Pick a name with at least one visible character."))
        if any(unicodedata.category(ch) == "Cc" for ch in name):
            raise forms.ValidationError(_("Names cannot contain control characters."))
        return name


# models.default_name: a profile nobody has named yet.
DEFAULT_NAME = re.compile(r"Player \d{4}")
ADJECTIVES = (
    "Swift",
    "Clever",
    "Lucky",
    "Brave",
    "Calm",
    "Bright",
    "Quiet",
    "Bold",
    "Merry",
    "Nimble",
    "Sunny",
    "Keen",
    "Witty",
    "Gentle",
    "Jolly",
    "Steady",
)
ANIMALS = (
    "Otter",
    "Falcon",
    "Panda",
    "Fox",
    "Heron",
    "Lynx",
    "Badger",
    "Koala",
    "Puffin",
    "Gecko",
    "Walrus",
    "Marten",
    "Robin",
    "Bison",
    "Crane",
    "Hare",
)


def friendly_name() -> str:
    """A name to start from, friendlier than "Player 1234" (fits NAME_MAX_LENGTH)."""
    return f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"


def _setting(label, choices) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, required=False, choices=choices, widget=forms.RadioSelect)


class DisplayForm(forms.Form):
    """The display settings (players/display.py), the default first in each. Every field is
    optional: a post changes only the settings it names (the game pages' skip link sends
    `reader` alone)."""

    palette = _setting(_("Colours"), [("cb-safe", _("Colour-blind safe")), ("standard", _("Standard"))])
    contrast = _setting(_("Contrast"), [("normal", _("Normal")), ("high", _("High contrast"))])
    pad = _setting(
        _("Digit pad"),
        [
            ("phone", _("Phone: 1 2 3 on top")),
            ("numpad", _("Keyboard numpad: 7 8 9 on top")),
            ("row", _("One row: 1 to 9")),
        ],
    )
    pad_side = _setting(_("Pad side"), [("right", _("Right hand")), ("left", _("Left hand"))])
    text = _setting(_("Text size"), [("normal", _("Normal")), ("large", _("Large"))])
    reader = _setting(_("Screen-reader race mode"), [("off", _("Off")), ("on", _("On"))])
