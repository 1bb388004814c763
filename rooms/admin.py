from django.contrib import admin, messages

from . import actions as A
from .models import Room, RoomEvent, Seat
from .services import perform


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["player", "joined_at", "ready", "status", "score", "mistakes", "hints", "progress", "finish_seconds", "place"]
    readonly_fields = fields
    can_delete = False


class EventInline(admin.TabularInline):
    model = RoomEvent
    extra = 0
    fields = ["version", "created_at", "kind", "seat", "data", "message_id"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["code", "game", "state", "host", "level", "player_count", "created_at", "scheduled_for",
                    "host_timezone", "starts_at", "finished_at"]
    list_filter = ["state", "game", "level", ("scheduled_for", admin.EmptyFieldListFilter)]
    date_hierarchy = "created_at"
    search_fields = ["code", "host__display_name", "seats__player__display_name"]
    readonly_fields = ["code", "version", "scheduled_for", "host_timezone", "created_at", "last_activity", "puzzle", "seed", "starts_at",
                       "finished_at", "expired_at", "expiry_reason"]
    inlines = [SeatInline, EventInline]
    actions = ["expire_rooms"]

    @admin.display(description="Players")
    def player_count(self, obj):
        return obj.seats.count()

    @admin.action(description="Close / expire the selected rooms")
    def expire_rooms(self, request, queryset):
        # Through the one write path, so connected players see the room close.
        for room in queryset:
            perform(room.code, None, A.Expire("Closed by the site staff."))
        self.message_user(request, f"Expired {queryset.count()} room(s).", messages.SUCCESS)
