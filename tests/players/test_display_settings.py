"""Display settings (issue 44): saved per player from /settings/ and rendered by the server as
data attributes on <html> of every page, so the CSS reads them before the first paint."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from players import display
from players.forms import DisplayForm
from players.models import Profile
from tests.conftest import client_for

pytestmark = pytest.mark.django_db
DEFAULTS = {
    "data-palette": "cb-safe",
    "data-contrast": "normal",
    "data-pad": "phone",
    "data-pad-side": "right",
    "data-text": "normal",
    "data-reader": "off",
}


def html_attributes(response) -> dict[str, str]:
    """The data attributes of the page's <html> element."""
    found = re.search(r"<html\b[^>]*>", response.content.decode())
    assert found, "no <html> tag"
    tag = found.group(0)
    return dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', tag))


def test_a_new_visitor_gets_the_defaults_and_no_profile(client):
    response = client.get(reverse("display_settings"))
    assert response.status_code == 200
    assert html_attributes(response) == DEFAULTS
    assert html_attributes(client.get("/how-to-play/")) == DEFAULTS
    assert Profile.objects.count() == 0  # looking creates nothing


def test_saved_settings_are_rendered_on_every_page(player, player_client):
    response = player_client.post(reverse("display_settings"), {"palette": "standard", "pad": "numpad"})
    assert response.status_code == 302 and response["Location"] == "/settings/?saved=1"
    player.refresh_from_db()
    assert player.display == {"palette": "standard", "pad": "numpad"}  # the defaults are not stored
    for page in ("/", "/how-to-play/", reverse("display_settings")):
        assert html_attributes(player_client.get(page)) == {
            **DEFAULTS,
            "data-palette": "standard",
            "data-pad": "numpad",
        }
    page = player_client.get(reverse("display_settings")).content.decode()
    assert re.search(r'<input type="radio" name="pad" value="numpad"[^>]*checked', page)


def test_a_post_changes_only_the_settings_it_names(player, player_client):
    player_client.post(reverse("display_settings"), {"pad": "row", "pad_side": "left", "text": "large"})
    player_client.post(reverse("display_settings"), {"contrast": "high"})
    player.refresh_from_db()
    assert player.display == {"pad": "row", "pad_side": "left", "text": "large", "contrast": "high"}
    player_client.post(reverse("display_settings"), {"pad": "phone", "contrast": "normal"})  # back to defaults
    player.refresh_from_db()
    assert player.display == {"pad_side": "left", "text": "large"}


@pytest.mark.parametrize("data", [{"pad": "diagonal"}, {"palette": "standard", "contrast": "max"}, {"reader": "yes"}])
def test_a_value_that_is_no_choice_is_refused_and_changes_nothing(player, player_client, data):
    player.display = {"pad": "numpad"}
    player.save()
    response = player_client.post(reverse("display_settings"), data)
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    player.refresh_from_db()
    assert player.display == {"pad": "numpad"}


def test_the_htmx_answer_is_the_form_saying_saved(player, player_client, htmx_headers):
    response = player_client.post(reverse("display_settings"), {"text": "large"}, **htmx_headers)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert 'id="settings-form"' in body and "Saved." in body
    assert re.search(r'name="text" value="large"[^>]*checked', body)
    refused = player_client.post(reverse("display_settings"), {"text": "huge"}, **htmx_headers)
    assert refused.status_code == 400 and "<html" not in refused.content.decode()


def test_the_skip_links_post_comes_back_to_the_game_page(player, player_client, run):
    game = reverse("solo_run", args=[run.pk])
    page = player_client.get(game).content.decode()
    assert 'name="reader" value="on"' in page and "Screen-reader mode" in page
    response = player_client.post(reverse("display_settings"), {"reader": "on", "next": game})
    assert response.status_code == 302 and response["Location"] == game
    again = player_client.get(game)
    assert html_attributes(again)["data-reader"] == "on"
    assert 'name="reader" value="off"' in again.content.decode()  # and the way out of it
    player.refresh_from_db()
    assert player.display == {"reader": "on"}


def test_only_game_pages_carry_the_screen_reader_skip_link(player_client):
    assert 'name="reader"' not in player_client.get("/").content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_next_never_leaves_the_site(player_client, target):
    response = player_client.post(reverse("display_settings"), {"reader": "on", "next": target})
    assert response["Location"] == "/settings/?saved=1"


def test_a_linked_accounts_settings_are_every_browsers(player):
    account = get_user_model().objects.create_user("ada", "ada@example.com")
    phone = Profile.objects.create(display_name="Ada", account=account)
    player.account = account
    player.save()
    client = client_for(player)
    client.force_login(account)
    client.post(reverse("display_settings"), {"palette": "standard", "pad_side": "left"})
    phone.refresh_from_db()
    assert phone.display == {"palette": "standard", "pad_side": "left"}
    other = Profile.objects.create(display_name="Grace")
    assert other.display == {}


def test_stored_values_that_are_no_longer_choices_render_as_defaults():
    assert display.current({"pad": "spiral", "palette": "standard", "unknown": "x"}) == {
        **display.DEFAULTS,
        "palette": "standard",
    }
    assert display.current(None) == display.DEFAULTS
    assert display.changed({"pad": "row"}, {"pad": "spiral", "text": "large"}) == {"pad": "row", "text": "large"}


def test_the_form_offers_exactly_the_stored_choices_default_first():
    form = DisplayForm()
    assert list(form.fields) == list(display.CHOICES)
    for name, values in display.CHOICES.items():
        assert tuple(value for value, _label in form.fields[name].choices) == values
