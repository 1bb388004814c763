from allauth.account import views as allauth_views
from django.urls import include, path

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
    path("accounts/", include("allauth.urls")),
]
