from django.contrib import admin

from .models import Puzzle, SoloRun
from .sudoku.bests import detach, refresh_accounts


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

    # A run edited, moved to another profile or deleted here changes its accounts' bests on
    # the boards across accounts (games/sudoku/bests.py): the accounts before and after are refreshed,
    # the one it left first (its row may hold the run, which is another account's now). A
    # deleted run's row is taken off first (detach), its band recounted.
    def save_model(self, request, obj, form, change):
        before = _accounts(SoloRun.objects.filter(pk=obj.pk)) if change else set()
        super().save_model(request, obj, form, change)
        refresh_accounts(before)
        refresh_accounts(_accounts(SoloRun.objects.filter(pk=obj.pk)) - before)

    def delete_model(self, request, obj):
        before = _accounts(SoloRun.objects.filter(pk=obj.pk))
        detach(SoloRun.objects.filter(pk=obj.pk))  # its row leaves its band before the cascade
        super().delete_model(request, obj)
        refresh_accounts(before)

    def delete_queryset(self, request, queryset):
        before = _accounts(queryset)
        detach(queryset)
        super().delete_queryset(request, queryset)
        refresh_accounts(before)


def _accounts(runs) -> set:
    return set(runs.values_list("player__account_id", flat=True))
