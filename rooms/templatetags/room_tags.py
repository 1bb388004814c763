import segno
from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from rooms import fragments

register = template.Library()


@register.simple_tag
def room_message(outcome=None, error=None, game=None):
    """The room's message line: the same builder as a live answer's."""
    return fragments.message(outcome, error, game=game)


@register.filter
def racer(seat, colours):
    """The seat's colour class (rooms/fragments.py colours: by when it joined)."""
    return f"racer-c{(colours or {}).get(seat.pk, 0)}"


@register.simple_tag
def qr_code(url: str, label: str = "") -> SafeString:
    """The room link (or `label`'s link, a profile's) as a QR code a friend's phone camera opens:
    inline SVG drawn on the server (segno), dark on light whatever the colour scheme, since
    cameras need it so."""
    label = label or gettext("QR code of the room link %(url)s") % {"url": url}
    svg = segno.make(url, error="m").svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="qr")
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))
