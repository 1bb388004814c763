"""Display settings follow the account (issue 44): signing in on another browser brings the
account's settings there; an account without any takes the browser's."""

import pytest
from django.test import Client

from players.models import Profile
from tests.accounts.test_sign_in import player_token, sign_in, sign_up
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_signing_in_brings_the_accounts_settings_to_the_browser(smtp):
    laptop = Profile.objects.create(display_name="Ada", display={"palette": "standard", "pad_side": "left"})
    sign_up(client_for(laptop), smtp)  # an account without settings takes the browser's
    laptop.refresh_from_db()
    assert laptop.display == {"palette": "standard", "pad_side": "left"}

    phone = Profile.objects.create(display_name="Player 1234", display={"pad": "row"})
    phone_client = client_for(phone)
    sign_in(phone_client, smtp)
    phone.refresh_from_db()
    assert phone.account_id == laptop.account_id
    assert phone.display == {"palette": "standard", "pad_side": "left"}  # the account's win
    page = phone_client.get("/").content.decode()
    assert 'data-palette="standard"' in page and 'data-pad-side="left"' in page

    fresh = Client()  # a browser with no profile yet: a new one for the account, with its settings
    sign_in(fresh, smtp)
    assert Profile.objects.get(token=player_token(fresh)).display == {"palette": "standard", "pad_side": "left"}
