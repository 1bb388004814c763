from allauth.account import views as allauth_views
from django.urls import include, path, re_path
from django.views.generic import RedirectView

from friends.signup import signup

from . import views

urlpatterns = [
    path("account/", views.account, name="account"),
    path("account/data.json", views.download, name="account_download"),
    path("account/browsers/<int:profile_id>/unlink/", views.unlink, name="account_unlink"),
    path("account/delete/", views.delete, name="account_delete"),
    # allauth's views, the ones that send a code behind our per-IP limit too
    path(
        "accounts/login/code/",
        views.code_requests_limited(allauth_views.request_login_code),
        name="account_request_login_code",
    ),
    path("accounts/login/", views.code_requests_limited(allauth_views.login), name="account_login"),
    # allauth's sign-up with the display name filled in and the handle asked (friends/signup.py)
    path("accounts/signup/", views.code_requests_limited(signup), name="account_signup"),
    # The pages where a code is entered: a new code is behind the same limit, an expired one said
    path(
        "accounts/login/code/confirm/",
        views.code_page(allauth_views.confirm_login_code, "login"),
        name="account_confirm_login_code",
    ),
    path(
        "accounts/confirm-email/",
        views.code_page(allauth_views.email_verification_sent, "verify"),
        name="account_email_verification_sent",
    ),
    path(
        "accounts/reauthenticate/code/confirm/",
        views.code_page(allauth_views.confirm_reauthentication_code, "reauthenticate"),
        name="account_confirm_reauthentication_code",
    ),
    # Every other view that mails: adding an address (a verification mail) and re-signing in
    # by code, behind the same per-IP limit (allauth's per-address limits stay on)
    path("accounts/email/", views.code_requests_limited(allauth_views.email), name="account_email"),
    path(
        "accounts/reauthenticate/code/",
        views.code_requests_limited(allauth_views.request_reauthentication_code),
        name="account_request_reauthentication_code",
    ),
    # Accounts here have no password (a code, or a passkey): the password views, reset mails
    # included, do not exist (issue 45: the reset view mailed any address 5 times a minute).
    path("accounts/password/change/", views.no_passwords, name="account_change_password"),
    path("accounts/password/set/", views.no_passwords, name="account_set_password"),
    path("accounts/password/reset/", views.no_passwords, name="account_reset_password"),
    path("accounts/password/reset/done/", views.no_passwords, name="account_reset_password_done"),
    path("accounts/password/reset/key/done/", views.no_passwords, name="account_reset_password_from_key_done"),
    re_path(
        r"^accounts/password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        views.no_passwords,
        name="account_reset_password_from_key",
    ),
    # allauth's security index (where it goes after a passkey is added) is our passkeys list
    path("accounts/2fa/", RedirectView.as_view(pattern_name="mfa_list_webauthn"), name="mfa_index"),
    path("accounts/", include("allauth.urls")),
]
