from django.contrib import admin

from .models import CardokuGame

# Copies of the state's numbers (the state is the truth, replayed from its moves).
NUMBERS = ["score", "units", "discards", "cards_placed", "cards_left"]


@admin.register(CardokuGame)
class CardokuGameAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "deal_code", "layout_kind", "status", *NUMBERS, "started_at", "finished_at"]
    list_filter = ["status", "layout_kind", "show_moves", "show_restrictions", "started_at"]
    search_fields = ["player__display_name", "deal_code"]
    date_hierarchy = "started_at"
    raw_id_fields = ["player"]
    # The state and its copies are read-only: the game changes only by its moves.
    readonly_fields = ["deal_code", "layout_kind", "state", "step", *NUMBERS, "started_at", "updated_at", "finished_at"]
    list_select_related = ["player"]
