"""Production settings pass Django's deployment checks, and refuse to start unsafe."""

import os
import secrets
import subprocess
import sys

from django.conf import settings


def manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def production(**extra):
    return dict(
        {
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "showdown.example.com",
            # sign-in codes go out by email: production names its SMTP server
            "EMAIL_URL": "submission://showdown:secret@mail.example.com:587",
        },
        **extra,
    )


def test_check_deploy_passes_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **production())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_names_a_production_site_without_a_mail_server():
    """Without EMAIL_URL the codes would only be printed on the console: the deploy check says so."""
    env = production()
    env["EMAIL_URL"] = ""
    result = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode != 0 and "mail.E001" in result.stdout + result.stderr


def test_check_deploy_fails_on_a_weak_secret_key():
    """The check is live: a short secret key is reported (so the pass above means something)."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", **production(DJANGO_SECRET_KEY="short"))
    assert result.returncode != 0 and "security.W009" in result.stdout + result.stderr


def test_production_mode_without_a_secret_key_does_not_start():
    env = production()
    env.pop("DJANGO_SECRET_KEY")
    result = manage("check", **{**env, "DJANGO_SECRET_KEY": ""})
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr
