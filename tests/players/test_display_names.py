"""Display names cannot be invisible or reorder the text around them (issue 12, section 7)."""

import pytest
from django.urls import reverse

from players.forms import DisplayNameForm
from players.models import Profile
from tests.conftest import client_for


def clean(name):
    form = DisplayNameForm({"display_name": name})
    return form.cleaned_data["display_name"] if form.is_valid() else None


@pytest.mark.parametrize(
    "name",
    [
        "\u200b",
        "\u200b\u200b\u200b",
        "\u202e",
        "\u2066\u2069",
        "\ufeff",
        "\u200d",
        "\u200c\u200d",
        " \u200b \u2060 ",
        "\u3164",
        "\u2800\u2800",
        "\u00ad",
        "\u200e\u200f",
        # issue 28, item 9: marks and selectors with nothing to attach to, private use
        "\u034f",
        "\ufe0e\ufe0f",
        "\U000e0100",
        "\u17b4\u17b5",
        "\u180b\u180c",
        "\u0301\u20dd",  # a combining acute and an enclosing circle (Me)
        "\ue000",
        "\U000e0001\U000e0041",  # language tag characters (Cf)
    ],
)
def test_names_empty_after_removing_invisible_characters_are_refused(name):
    assert clean(name) is None


@pytest.mark.parametrize(
    "name, stored",
    [
        ("\u202eAda", "Ada"),  # right-to-left override stripped
        ("Ada\u202e\u2066 lol", "Ada lol"),
        ("A\u200bd\u200ba", "Ada"),
        ("\u200fGrace\u200e", "Grace"),
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),  # emoji family
        ("Zoë  Smith", "Zoë Smith"),
        ("שרה", "שרה"),
        ("Zoe\u0301", "Zoe\u0301"),  # a combining mark after a letter stays
        ("\u2764\ufe0f", "\u2764\ufe0f"),  # an emoji with its variation selector
        ("\u0915\u093f", "\u0915\u093f"),  # Devanagari: a letter and its vowel sign (Mc)
    ],
)
def test_bidi_controls_and_zero_width_characters_are_stripped(name, stored):
    assert clean(name) == stored


def test_control_characters_are_still_refused():
    assert clean("Ada\x07") is None and clean("Ada\x7fx") is None


def test_an_invisible_name_is_refused_by_the_page_and_changes_nothing(player_client, player):
    response = player_client.post(reverse("profile"), {"display_name": "\u200b\u202e"})
    assert response.status_code == 400 and b"at least one visible character" in response.content
    player.refresh_from_db()
    assert player.display_name == "Ada"
    assert player_client.post(reverse("profile"), {"display_name": "\u202eEve"}).status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Eve"


@pytest.mark.parametrize(("language", "prompt"), [("en", "Pick your name"), ("nl", "Kies je naam")])
def test_the_header_never_shows_the_placeholder_name(db, language, prompt):
    """Issue 27, defect 10: the header said "Player 6455" while the name prompt offered
    "Nimble Bison"; a player still on the placeholder is asked to pick a name instead."""
    unnamed = Profile.objects.create(display_name="Player 6455")
    html = client_for(unnamed).get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    header = html.split('class="who', 1)[1].split("</a>", 1)[0]
    assert prompt in header and "Player 6455" not in header
    named = Profile.objects.create(display_name="Ada")
    header = client_for(named).get(reverse("home")).content.decode().split('class="who', 1)[1].split("</a>", 1)[0]
    assert "Ada" in header and "Pick your name" not in header
