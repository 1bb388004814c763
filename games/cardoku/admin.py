from django.contrib import admin

from .models import CardokuGame


@admin.register(CardokuGame)
class CardokuGameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "player",
        "deal_code",
        "layout_kind",
        "status",
        "score",
        "units",
        "discards",
        "cards_placed",
        "cards_left",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "layout_kind", "show_moves", "show_restrictions", "started_at"]
    search_fields = ["player__display_name", "deal_code"]
    date_hierarchy = "started_at"
    raw_id_fields = ["player"]
    # The state is the truth (replayed from its moves); the number columns are copies of it.
    readonly_fields = [
        "deal_code",
        "layout_kind",
        "state",
        "step",
        "score",
        "units",
        "discards",
        "cards_placed",
        "cards_left",
        "started_at",
        "updated_at",
        "finished_at",
    ]
    list_select_related = ["player"]
