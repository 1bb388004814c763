"""htmx answers shared by every game and the rooms: out-of-band fragments (`oob`, `answer`),
and refusals: an htmx request gets the message alone, swapped into the page's flash line
whatever the form targeted (django-htmx's retarget and reswap); a plain request gets the
message page (`message_page`). Also the way on to a page (`go`) and a refused new game's
start page again (`start_again`)."""

from html import escape

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString, mark_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from games.engines.errors import Malformed, Refusal

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


def escaped(value) -> str:
    """`value` as text for the fragments' format strings: HTML-escaped, quotes too."""
    return escape(str(value), quote=True)


def fragment(html: str, out_of_band: bool) -> SafeString:
    """A fragment built from escaped parts, marked safe; `out_of_band`: with `oob`."""
    return oob(html) if out_of_band else mark_safe(html)


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


def start_again(request, template: str, context: dict, error: Refusal) -> HttpResponse:
    """The start page again after a refused new game, saying why (`context`): 400 for a
    malformed start, else 503 (`busy`): the bank is topping the level up (games/bank.py's
    BankEmpty, not imported here: the template tags reach this module and never a model)."""
    if isinstance(error, Malformed):
        return render(request, template, context, status=400)
    return busy(render(request, template, context, status=503))


def message_page(request, title: str, message: str, status: int, error: bool = False) -> HttpResponse:
    """The message page: `message` under `title` (`error`: shown as one)."""
    return render(request, "message.html", {"title": title, "message": message, "error": error}, status=status)


def refusal(request, message: str, status: int, title: str) -> HttpResponse:
    """`flash` for htmx; otherwise the message page under `title`."""
    if request.htmx:
        return flash(request, message, status)
    return message_page(request, title, message, status, error=True)


def go(request, url: str) -> HttpResponse:
    """To `url`: a page load for an htmx request (HX-Redirect), a redirect for a plain one."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
