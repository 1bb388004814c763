from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from .linking import fresh_at_sign_out, link_at_sign_in


@receiver(user_logged_in)
def _link(sender, request, user, **kwargs):
    if request is not None:
        link_at_sign_in(request, user)


@receiver(user_logged_out)
def _unlink(sender, request, user, **kwargs):
    if request is not None:
        fresh_at_sign_out(request)
