from django.contrib import admin

from .models import Daily


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ["date", "level", "puzzle", "created_at"]
    list_filter = ["level"]
    date_hierarchy = "date"
    raw_id_fields = ["puzzle"]
