from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.engines.text import _

from . import actions as A
from . import api
from .models import Room, RoomEvent, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = readonly_fields = (
        "player",
        "joined_at",
        "ready",
        "status",
        "score",
        "mistakes",
        "progress",
        "finish_seconds",
        "place",
    )
    can_delete = False


LOG_PREVIEW = 10  # newest moves shown on the room page; the whole log is one link away, paginated


@admin.register(RoomEvent)
class RoomEventAdmin(admin.ModelAdmin):
    """The move log, paginated (a finished room can hold hundreds of moves: listing them
    inline made its admin page hundreds of kB)."""

    list_display = readonly_fields = ("room", "version", "created_at", "kind", "seat", "data", "message_id")
    list_filter = ["kind"]
    search_fields = ["room__code"]
    list_select_related = ["room", "seat__player"]
    list_per_page = 100
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = [
        "code",
        "game",
        "state",
        "host",
        "level",
        "player_count",
        "created_at",
        "scheduled_for",
        "host_timezone",
        "starts_at",
        "finished_at",
    ]
    list_filter = ["state", "game", "level", ("scheduled_for", admin.EmptyFieldListFilter)]
    date_hierarchy = "created_at"
    search_fields = ["code", "host__display_name", "seats__player__display_name"]
    readonly_fields = [
        "move_log",
        "code",
        "version",
        "scheduled_for",
        "host_timezone",
        "created_at",
        "last_activity",
        "puzzle",
        "seed",
        "starts_at",
        "finished_at",
        "expired_at",
        "expiry_reason",
    ]
    inlines = [SeatInline]
    actions = ["expire_rooms"]

    @admin.display(description="Move log")
    def move_log(self, obj):
        if obj.pk is None:
            return "-"
        url = reverse("admin:rooms_roomevent_changelist") + f"?room__id__exact={obj.pk}"
        newest = list(obj.events.select_related("seat__player").order_by("-version")[:LOG_PREVIEW])
        rows = format_html_join(
            "", "<li>v{} {} {}</li>", ((e.version, e.kind, e.seat.player if e.seat else "") for e in newest)
        )
        return format_html(
            '<a href="{}">All {} moves (paginated)</a><ol reversed>{}</ol>', url, obj.events.count(), rows
        )

    @admin.display(description="Players")
    def player_count(self, obj):
        return obj.seats.count()

    @admin.action(description="Close / expire the selected rooms")
    def expire_rooms(self, request, queryset):
        # Through the one write path, so connected players see the room close.
        for room in queryset:
            api.act(room.code, None, A.Expire(_("Closed by the site staff.")))
        self.message_user(request, f"Expired {queryset.count()} room(s).", messages.SUCCESS)
