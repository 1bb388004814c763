from django.contrib import admin

from .models import Puzzle, SoloRun


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ["id", "level", "clues", "technique_list", "created_at", "used_at"]
    list_filter = ["level", ("used_at", admin.EmptyFieldListFilter), "clues"]
    search_fields = ["givens", "seed"]
    readonly_fields = ["created_at"]

    @admin.display(description="Techniques")
    def technique_list(self, obj):
        return ", ".join(obj.techniques)


@admin.register(SoloRun)
class SoloRunAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "level", "state", "assisted", "score", "mistakes", "hints", "elapsed", "started_at"]
    list_filter = ["level", "state", "assisted"]
    search_fields = ["player__display_name"]
    raw_id_fields = ["player", "puzzle"]
    readonly_fields = ["board"]
