"""The admin's accounts: each with its linked profiles (browsers) and their last seen; search
by address and by display name."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Max

from players.models import Profile

User = get_user_model()


class LinkedProfiles(admin.TabularInline):
    model = Profile
    fk_name = "account"
    fields = ["display_name", "browser", "system", "created_at", "last_seen", "unlinked"]
    readonly_fields = ["display_name", "browser", "system", "created_at", "last_seen", "unlinked"]
    extra = 0
    can_delete = False
    verbose_name = "linked browser"

    def has_add_permission(self, request, obj=None):
        return False


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    inlines = [LinkedProfiles]
    list_display = ["email", "name", "browsers", "seen", "is_staff", "date_joined"]
    search_fields = ["email", "username", "profiles__display_name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(seen=Max("profiles__last_seen"))

    @admin.display(description="Display name")
    def name(self, obj):
        profile = obj.profiles.order_by("-last_seen").first()
        return profile.display_name if profile else ""

    @admin.display(description="Linked browsers")
    def browsers(self, obj):
        return obj.profiles.filter(unlinked=False).count()

    @admin.display(description="Last seen", ordering="seen")
    def seen(self, obj):
        return obj.seen
