from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "account", "created_at", "last_seen", "solo_run_count"]
    search_fields = ["display_name", "account__email"]
    list_filter = ["created_at"]
    readonly_fields = ["token", "created_at", "last_seen", "account"]

    @admin.display(description="Solo runs")
    def solo_run_count(self, obj):
        return obj.solo_runs.count()
