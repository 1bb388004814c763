from allauth.account import views as allauth_views
from django.urls import include, path
from django.views.generic import RedirectView

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
    path("accounts/signup/", views.code_requests_limited(allauth_views.signup), name="account_signup"),
    # allauth's security index (where it goes after a passkey is added) is our passkeys list
    path("accounts/2fa/", RedirectView.as_view(pattern_name="mfa_list_webauthn"), name="mfa_index"),
    path("accounts/", include("allauth.urls")),
]
