from django.contrib import admin

from .models import DominoGame


@admin.register(DominoGame)
class DominoGameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "player",
        "level",
        "status",
        "score",
        "lives",
        "stones_placed",
        "jokers_used",
        "end_reason",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "level", "end_reason", "lives", ("finished_at", admin.DateFieldListFilter)]
    search_fields = ["player__display_name", "=id", "=seed", "=puzzle__id"]
    raw_id_fields = ["player", "puzzle"]
    date_hierarchy = "started_at"
    list_select_related = ["player"]
    readonly_fields = ["state", "seed", "moves", "deadline"]
