"""Refusals for htmx views, shared by every game and the rooms: an htmx request gets the
message alone, swapped into the page's flash line whatever the form targeted (django-htmx's
retarget and reswap); a plain request gets the message page."""

from django.http import HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget


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
