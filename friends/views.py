"""The friends pages (docs/rules.md 11): /friends/ (friends, followers, search, invites and
nudges, the choices), public profiles /u/<handle>/, notifications, and the POSTs that
follow, unfollow, block, invite and nudge. Every change goes through friends/graph.py."""

from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.common.limits import creation_limit
from games.common.responses import message_page, refusal
from players.models import Profile

from . import graph, presence, streaks
from .forms import HandleForm
from .graph import Refused
from .models import Block, Member, Notification, Nudge
from .notices import forget_unread, notify, text


def _back(request, fallback: str):
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback)


def _account(account_id: int):
    from django.contrib.auth import get_user_model

    if not get_user_model().objects.filter(pk=account_id, is_active=True).exists():
        raise Http404
    return account_id


@login_required
@require_GET
def friends_page(request):
    me = request.user.pk
    ids = graph.friend_ids(me)
    following = set(graph.Follow.objects.filter(follower_id=me).values_list("followee_id", flat=True))
    followers = set(graph.Follow.objects.filter(followee_id=me).values_list("follower_id", flat=True))
    blocked = list(Block.objects.filter(blocker_id=me).values_list("blocked_id", flat=True))
    everyone = graph.people({*ids, *following, *followers, *blocked})
    today = timezone.now().date()
    nudged = set(Nudge.objects.filter(sender_id=me, day=today).values_list("receiver_id", flat=True))
    shared = streaks.friend_streaks(me, ids, today)
    friends = sorted(
        ({"person": everyone[i], "streak": shared.get(i, 0), "nudged": i in nudged} for i in ids),
        key=lambda f: f["person"].name.casefold(),
    )
    member = Member.objects.filter(account_id=me).first()
    return render(
        request,
        "friends/friends.html",
        {
            "friends": friends,
            "followers": [everyone[i] for i in followers - following],
            "following": [everyone[i] for i in following - followers],
            "blocked": [everyone[i] for i in blocked],
            "online": presence.online_friends(me),
            "member": member,
            "handle_form": None if member else HandleForm(),
            "found": request.GET.get("q") is not None and graph.find(request.GET["q"], me),
            "query": request.GET.get("q"),
        },
    )


@login_required
@require_POST
def choose_handle(request):
    if Member.objects.filter(account_id=request.user.pk).exists():
        return refusal(request, _("Your handle is chosen already: it cannot be changed."), 400, _("Handle"))
    form = HandleForm(request.POST)
    if form.is_valid():
        try:
            with transaction.atomic():
                Member.objects.create(account=request.user, handle=form.cleaned_data["handle"])
            return redirect("friends")
        except IntegrityError:
            form.add_error("handle", _("That handle was just taken: pick another."))
    return render(request, "friends/handle.html", {"handle_form": form}, status=400)


@login_required
@require_POST
def choices(request):
    member = Member.objects.filter(account_id=request.user.pk).first()
    if member is None:
        return refusal(request, _("Choose your handle first."), 400, _("Friends"))
    member.findable = request.POST.get("findable") == "on"
    member.notify_push = request.POST.get("notify_push") == "on"
    member.notify_email = request.POST.get("notify_email") == "on"
    member.save(update_fields=["findable", "notify_push", "notify_email"])
    return redirect(reverse("friends") + "?saved=1")


def _act(request, action, account_id: int, fallback: str):
    try:
        action(request.user.pk, _account(account_id))
    except Refused as error:
        return refusal(request, str(error), 400, _("Friends"))
    if request.htmx:  # a button on a finish screen or a board: it becomes the new state
        me = request.user.pk
        context = {"target_id": account_id, "follows": graph.follows(me, account_id)}
        context["friends_now"] = context["follows"] and graph.follows(account_id, me)
        return render(request, "friends/parts.html#follow_state", context)
    return _back(request, fallback)


ACTIONS = {"follow": graph.follow, "unfollow": graph.unfollow, "block": graph.block, "unblock": graph.unblock}


@login_required
@require_POST
@creation_limit("follow")  # follows, unfollows, blocks and unblocks share one limit
def change(request, action: str, account_id: int):
    """Follow, unfollow, block or unblock (the URL says which: friends/urls.py)."""
    return _act(request, ACTIONS[action], account_id, reverse("friends"))


@login_required
@require_POST
@creation_limit("invite")
def invite(request, account_id: int):
    """Invite a friend to the room the player sits in (its lobby): an in-site notification,
    and a push or an email as the friend chose."""
    from rooms.models import Room, Seat

    me, code = request.user.pk, request.POST.get("room", "").strip().upper()[:12]
    room = Room.objects.filter(code=code).first()
    if room is None:
        return refusal(request, _("No room %(code)s.") % {"code": code or "?"}, 404, _("Invite"))
    if not Seat.objects.filter(room=room, player__account_id=me).exists():
        return refusal(request, _("You can invite friends only to a room you are in."), 403, _("Invite"))
    if room.state != Room.State.LOBBY or room.public:
        return refusal(request, _("This room is not open for invites: only a lobby is."), 400, _("Invite"))
    if not graph.is_friend(me, account_id) or graph.blocked_between(me, account_id):
        return refusal(request, _("You can invite friends only (players who follow you back)."), 403, _("Invite"))
    notify(account_id, Notification.Kind.INVITE, me, room.code)
    name = graph.people([account_id])[account_id].name
    return (
        refusal(request, _("Invited %(name)s.") % {"name": name}, 200, _("Invite"))
        if request.htmx
        else redirect("room", code=room.code)
    )


@login_required
@require_POST
def nudge(request, account_id: int):
    me = request.user.pk
    if not graph.is_friend(me, account_id):
        return refusal(request, _("You can nudge friends only."), 403, _("Nudge"))
    try:
        with transaction.atomic():
            Nudge.objects.create(sender_id=me, receiver_id=account_id, day=timezone.now().date())
    except IntegrityError:
        return refusal(request, _("You nudged this friend today already: once a day."), 429, _("Nudge"))
    notify(account_id, Notification.Kind.NUDGE, me)
    return _back(request, reverse("friends"))


@login_required
@require_GET
def notifications(request):
    me = request.user.pk
    items = list(Notification.objects.filter(account_id=me)[:50])
    names = graph.people({n.actor_id for n in items})
    rows = [{"n": n, "actor": names[n.actor_id], **text(n, names[n.actor_id].name)} for n in items]
    Notification.objects.filter(account_id=me, read_at__isnull=True).exclude(kind=Notification.Kind.INVITE).update(
        read_at=timezone.now()
    )
    forget_unread(me)
    return render(request, "friends/notifications.html", {"rows": rows})


@login_required
@require_GET
def accept(request, notification_id: int):
    """An invite's link: read, then to the room's page, where the player joins."""
    n = Notification.objects.filter(pk=notification_id, account_id=request.user.pk, kind="invite").first()
    if n is None:
        raise Http404
    Notification.objects.filter(pk=n.pk).update(read_at=n.read_at or timezone.now())
    forget_unread(request.user.pk)
    return redirect("room", code=n.room_code)


def _stats(account_id: int, profile: Profile) -> dict:
    from games.daily.play import streak
    from stats import ratings
    from stats.charts import line_chart
    from stats.panels import recent_results

    now = timezone.now()
    history = ratings.history(account_id)
    chart = line_chart([c.after for c in history], lambda v: f"{v:.0f}", lower_is_better=False, what=_("ratings"))
    current, longest = streak(profile, now.date())
    return {
        "rating": ratings.current_rating(account_id, now),
        "rating_chart": chart,
        "streak": current,
        "longest_streak": longest,
        "recent": recent_results(profile, limit=8),
        "bests": streaks.solo_bests(account_id),
    }


@require_GET
def public_profile(request, handle: str):
    from .handles import fold

    member = Member.objects.filter(handle=fold(handle)).first()
    viewer = request.user.pk if request.user.is_authenticated else None
    if member is None or (viewer is not None and graph.blocked_between(viewer, member.account_id)):
        return _no_such_player(request, _("Nobody has the handle @%(handle)s.") % {"handle": handle[:40]})
    account_id = member.account_id
    profile = Profile.objects.filter(account_id=account_id).order_by("-last_seen").first()
    if profile is None:
        raise Http404
    context = {
        "member": member,
        "person": graph.people([account_id])[account_id],
        "is_me": viewer == account_id,
        "follows": viewer is not None and graph.follows(viewer, account_id),
        "followed_back": viewer is not None and graph.follows(account_id, viewer),
        "friends_count": len(graph.friend_ids(account_id)),
        "profile_url": request.build_absolute_uri(reverse("public_profile", args=[member.handle])),
        **_stats(account_id, profile),
    }
    return render(request, "friends/profile.html", context)


@require_GET
def find(request):
    query = request.GET.get("q", "")
    member = graph.find(query, request.user.pk if request.user.is_authenticated else None)
    if member is None:
        return _no_such_player(request, _("Nobody findable has the handle @%(handle)s.") % {"handle": query[:40]})
    return redirect("public_profile", handle=member.handle)


def _no_such_player(request, message: str):
    return message_page(request, _("No such player"), message, 404)
