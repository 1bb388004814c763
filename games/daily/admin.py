from django.contrib import admin, messages
from django.core.cache import cache
from django.db.models import Case, F, Value, When

from games.models import SoloRun

from .models import Daily, ReviewedRun
from .review import CERTAINTY, reason_text


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ["date", "level", "puzzle", "created_at"]
    list_filter = ["level"]
    date_hierarchy = "date"
    raw_id_fields = ["puzzle"]


class ReviewFilter(admin.SimpleListFilter):
    """Held runs first: the list opens on what waits for a decision."""

    title = "review"
    parameter_name = "review"

    def lookups(self, request, model_admin):
        return [("held", "Under review"), ("cleared", "Cleared"), ("voided", "Voided"), ("all", "All ranked runs")]

    def queryset(self, request, queryset):
        value = self.value() or "held"
        return queryset if value == "all" else queryset.filter(review=value)

    def choices(self, changelist):
        value = self.value() or "held"
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


def _decide(modeladmin, request, queryset, review: str, said: str):
    ids = list(queryset.values_list("pk", flat=True))
    changed = SoloRun.objects.filter(pk__in=ids).update(review=review, revision=F("revision") + 1)
    for daily_id in set(queryset.values_list("daily_id", flat=True)):
        cache.delete(f"daily-board-{daily_id}")  # the board shows the decision at once
    modeladmin.message_user(request, f"{changed} run(s) {said}.", messages.SUCCESS)


@admin.action(description="Clear: put on the board")
def clear(modeladmin, request, queryset):
    _decide(modeladmin, request, queryset, SoloRun.Review.CLEARED, "cleared")


@admin.action(description="Void: keep off the board for good")
def void(modeladmin, request, queryset):
    _decide(modeladmin, request, queryset, SoloRun.Review.VOIDED, "voided")


@admin.register(ReviewedRun)
class ReviewedRunAdmin(admin.ModelAdmin):
    """The review list (issue 23): ranked daily finishes held by games/daily/review.py."""

    list_display = [
        "id",
        "player",
        "daily",
        "elapsed",
        "mistakes",
        "hints",
        "assisted",
        "review",
        "reason",
        "finished_at",
    ]
    list_filter = [ReviewFilter, "daily__level"]
    search_fields = ["player__display_name"]
    actions = [clear, void]
    readonly_fields = ["log", "board"]
    raw_id_fields = ["player", "puzzle", "daily"]

    def get_queryset(self, request):
        return (
            super().get_queryset(request).filter(daily__isnull=False, practice=False).select_related("player", "daily")
        )

    def get_ordering(self, request):
        """The surest evidence first (games/daily/review.py CERTAINTY), then the newest."""
        surest = Case(
            *[When(review_reason__startswith=f"{kind}:", then=Value(rank)) for kind, rank in CERTAINTY.items()],
            default=Value(len(CERTAINTY)),
        )
        return [surest.asc(), "-finished_at"]

    @admin.display(description="Reason")
    def reason(self, obj):
        return reason_text(obj.review_reason)
