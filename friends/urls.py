from django.urls import path

from . import views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("friends/handle/", views.choose_handle, name="friends_handle"),
    path("friends/choices/", views.choices, name="friends_choices"),
    path("friends/find/", views.find, name="friends_find"),
    path("friends/follow/<int:account_id>/", views.change, {"action": "follow"}, name="friends_follow"),
    path("friends/unfollow/<int:account_id>/", views.change, {"action": "unfollow"}, name="friends_unfollow"),
    path("friends/block/<int:account_id>/", views.change, {"action": "block"}, name="friends_block"),
    path("friends/unblock/<int:account_id>/", views.change, {"action": "unblock"}, name="friends_unblock"),
    path("friends/invite/<int:account_id>/", views.invite, name="friends_invite"),
    path("friends/nudge/<int:account_id>/", views.nudge, name="friends_nudge"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/<int:notification_id>/accept/", views.accept, name="friends_accept"),
    path("u/<str:handle>/", views.public_profile, name="public_profile"),
]
