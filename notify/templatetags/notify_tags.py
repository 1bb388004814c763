from django import template

from notify.keys import identity

register = template.Library()


@register.simple_tag
def vapid_public_key() -> str:
    """The applicationServerKey a browser subscribes with (base64url)."""
    return identity().public_key
