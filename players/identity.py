"""Whose records count for a player: the one answer every leaderboard, history, personal
best and total goes through (docs/rules.md section 6).

An anonymous profile's records are its own. A profile linked to an account counts the
records of every profile of that account (each browser the player signed in on): the rows
keep pointing at the profile that played them, and a read filters by
`player__account_id=`, one indexed join, so no row is copied and none is counted twice.
"""

from django.db.models import Q, QuerySet

from .models import Profile


def record_filter(profile, field: str = "player") -> Q:
    """The filter on a record's profile field (`player` by default) that selects the records
    counting for `profile`; a guest (who has none) matches nothing."""
    account_id = getattr(profile, "account_id", None)
    if account_id is not None:
        return Q(**{f"{field}__account_id": account_id})
    return Q(**{field: profile})


def record_profiles(profile) -> QuerySet[Profile]:
    """The profiles whose records count for `profile`: itself when anonymous, every profile
    of its account when signed in."""
    account_id = getattr(profile, "account_id", None)
    if account_id is not None:
        return Profile.objects.filter(account_id=account_id)
    if profile is None or profile.pk is None:
        return Profile.objects.none()
    return Profile.objects.filter(pk=profile.pk)


def set_name(player, name: str) -> None:
    """One display name per account: a linked profile's new name is every linked profile's."""
    player.display_name = name
    player.save(update_fields=["display_name"])
    if player.account_id is not None:
        record_profiles(player).update(display_name=name)
