import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from players.models import Profile

pytestmark = pytest.mark.django_db


def test_the_admin_lists_accounts_with_their_browsers_and_finds_them_by_address_or_name():
    User = get_user_model()
    admin = User.objects.create_superuser("root", "root@example.com", "a long admin password 1")
    ada = User.objects.create_user("ada", email="ada@example.com")
    grace = User.objects.create_user("grace", email="grace@example.com")
    Profile.objects.create(display_name="Ada L", account=ada)
    Profile.objects.create(display_name="Ada L", account=ada)
    Profile.objects.create(display_name="Hopper", account=grace)
    client = Client()
    client.force_login(admin)
    page = client.get("/admin/auth/user/?q=Hopper").content.decode()
    assert "grace@example.com" in page and "ada@example.com" not in page
    page = client.get("/admin/auth/user/?q=ada@example.com").content.decode()
    assert "ada@example.com" in page and "grace@example.com" not in page
    detail = client.get(f"/admin/auth/user/{ada.pk}/change/").content.decode()
    assert detail.count("Ada L") >= 2  # both linked browsers
