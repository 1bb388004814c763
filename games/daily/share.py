"""The daily's share card and its page (issue 43): /daily/card/<run>.png, the PNG of a ranked
finish (games/daily/card.py), and /daily/shared/<run>/, the page a shared link opens, with the
card as its og:image and the way to today's dailies. Both show only what the share line says:
no name, no grid."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import cache_control

from config.methods import page
from games.models import SoloRun

from . import card, play


def shared_run(run_id: int) -> SoloRun:
    """A finished ranked daily run that was not voided, else 404 (practice, unfinished)."""
    run = (
        SoloRun.objects.select_related("daily")
        .filter(pk=run_id, daily__isnull=False, practice=False, state=SoloRun.State.FINISHED)
        .exclude(review=SoloRun.Review.VOIDED)
        .first()
    )
    if run is None or run.elapsed is None:
        raise Http404
    return run


def card_streak(run: SoloRun) -> int:
    """The streak the share line gives: the run's player's current streak on the daily's date."""
    assert run.daily is not None  # shared_run gives daily runs only
    return play.streak(run.player, run.daily.date)[0]


@page
@cache_control(public=True, max_age=3600)
def daily_card(request, run_id: int):
    run = shared_run(run_id)
    link = request.build_absolute_uri(reverse("daily")).split("://", 1)[-1]
    png = card.render(card.card_texts(run, card_streak(run), link))
    return HttpResponse(png, content_type="image/png")


@page
def daily_shared(request, run_id: int):
    run = shared_run(run_id)
    streak = card_streak(run)
    return render(
        request,
        "daily/shared.html",
        {
            "run": run,
            "share": play.share_line(run, streak),
            "card_url": request.build_absolute_uri(reverse("daily_card", args=[run.pk])),
            "page_url": request.build_absolute_uri(reverse("daily_shared", args=[run.pk])),
        },
    )
