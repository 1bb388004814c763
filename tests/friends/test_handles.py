"""Handles (docs/rules.md 11): chosen once, unique without case, look-alike letters folded."""

import pytest

from friends import handles
from friends.forms import HandleForm
from tests.friends.people import browser_of, member


@pytest.mark.parametrize(
    "typed, handle",
    [("Ana", "ana"), ("@ana_99", "ana_99"), ("\u0430na", "ana"), ("ＡＮＡ", "ana"), ("\u03b1n\u03bf", "ano")],
)
def test_a_handle_is_folded_to_plain_latin_lower_case(typed, handle):
    assert handles.clean(typed) == handle


@pytest.mark.parametrize("typed", ["ab", "a" * 21, "ana!", "an a", "日本語", "", "admin", "Player7220"])
def test_a_handle_outside_the_shape_or_reserved_is_refused(typed):
    with pytest.raises(handles.BadHandle):
        handles.clean(typed)


@pytest.mark.django_db
def test_a_look_alike_of_a_taken_handle_is_taken():
    member("Ana")
    for typed in ("ana", "ANA", "\u0430na", "\u0430n\u0430"):
        form = HandleForm({"handle": typed})
        assert not form.is_valid()
        assert "taken" in form.errors["handle"][0]
    assert HandleForm({"handle": "anna"}).is_valid()


@pytest.mark.django_db
def test_a_handle_is_chosen_once():
    from tests.stats.rated_rooms import signed_in

    ana = signed_in("Ana")
    client = browser_of(ana)
    assert client.post("/friends/handle/", {"handle": "ana!"}).status_code == 400  # refused: nothing made
    assert client.post("/friends/handle/", {"handle": "ana"}).status_code == 302
    assert ana.account.member.handle == "ana"
    again = client.post("/friends/handle/", {"handle": "other"})
    assert again.status_code == 400 and "cannot be changed" in again.content.decode()
    ana.account.member.refresh_from_db()
    assert ana.account.member.handle == "ana"
