def player(request):
    return {"player": getattr(request, "player", None)}
