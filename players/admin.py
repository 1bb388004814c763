from django.contrib import admin

from games.models import SoloRun
from games.sudoku.bests import detach, refresh_accounts

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "account", "created_at", "last_seen", "solo_run_count"]
    search_fields = ["display_name", "account__email"]
    list_filter = ["created_at"]
    readonly_fields = ["token", "created_at", "last_seen", "account"]

    # A profile deleted here takes its runs along: its account's bests on the boards across
    # accounts (games/sudoku/bests.py) are recomputed from the runs of its other profiles.
    def delete_model(self, request, obj):
        account_id = obj.account_id
        detach(SoloRun.objects.filter(player=obj))  # their rows leave their bands before the cascade
        super().delete_model(request, obj)
        refresh_accounts([account_id])

    def delete_queryset(self, request, queryset):
        accounts = set(queryset.values_list("account_id", flat=True))
        detach(SoloRun.objects.filter(player__in=queryset))
        super().delete_queryset(request, queryset)
        refresh_accounts(accounts)

    @admin.display(description="Solo runs")
    def solo_run_count(self, obj):
        return obj.solo_runs.count()
