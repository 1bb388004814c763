"""htmx answers shared by every game and the rooms: out-of-band fragments (`oob`, `answer`),
and refusals: an htmx request gets the message alone, swapped into the page's flash line
whatever the form targeted (django-htmx's retarget and reswap); a plain request gets the
message page."""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django_htmx.http import reswap, retarget

OOB = ' hx-swap-oob="true"'
# A move's answer is out-of-band swaps only: no main swap, and settled at once (htmx's
# default 20 ms settle delay would show a swapped element's new attributes that much later).
ANSWER_SWAP = "none settle:0ms"


def oob(fragment: str) -> SafeString:
    """`fragment` with `hx-swap-oob="true"` on its first (top-level) element, right after
    the tag name."""
    end = fragment.index("<") + 1
    while end < len(fragment) and fragment[end] not in " />\t\n":
        end += 1
    return mark_safe(fragment[:end] + OOB + fragment[end:])


def answer(html: str, status: int = 200) -> HttpResponse:
    """An htmx answer made of out-of-band fragments (the games' move answers)."""
    return reswap(HttpResponse(html, status=status), ANSWER_SWAP)  # type: ignore[arg-type]  # django-htmx types bare swap styles; htmx takes modifiers too


def flash(request, message: str, status: int) -> HttpResponse:
    """The message alone, for the page's flash line (#flash)."""
    response = render(request, "message.html#message", {"message": message, "error": True}, status=status)
    return reswap(retarget(response, "#flash"), "innerHTML")


def busy(response: HttpResponse) -> HttpResponse:
    """A 503 for an empty puzzle bank: the level is being topped up (games/bank.py)."""
    response["Retry-After"] = "5"
    return response


def refusal(request, message: str, status: int, title: str) -> HttpResponse:
    """`flash` for htmx; otherwise the message page under `title`."""
    if request.htmx:
        return flash(request, message, status)
    return render(request, "message.html", {"title": title, "message": message, "error": True}, status=status)
