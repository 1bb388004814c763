from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from .forms import DisplayNameForm
from .leaderboards import solo_boards
from .showdowns import showdown_summary


@require_GET
def leaderboards(request):
    return render(request, "stats/leaderboards.html", {"boards": solo_boards(request.player),
                                                           "showdowns": showdown_summary(request.player)})


@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            request.player.display_name = form.cleaned_data["display_name"]
            request.player.save(update_fields=["display_name"])
            return redirect(request.POST.get("next") if request.POST.get("next", "").startswith("/")
                            and not request.POST.get("next", "").startswith("//") else "profile")
        return render(request, "stats/profile.html", {"form": form}, status=400)
    form = DisplayNameForm(initial={"display_name": request.player.display_name})
    return render(request, "stats/profile.html", {"form": form, "saved": request.GET.get("saved")})
