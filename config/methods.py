"""The HTTP methods a page answers. A page is read with GET; HEAD is a GET without its body
(Django's `require_safe`: `require_GET` answered HEAD with 405, which breaks link checkers and
uptime probes); OPTIONS says which methods the page takes, without looking anything up."""

from functools import wraps

from django.http import HttpResponse
from django.views.decorators.http import require_safe

PAGE_METHODS = "GET, HEAD, OPTIONS"


def page(view):
    """Decorate a view that only displays: GET, HEAD and OPTIONS; anything else is 405."""
    safe = require_safe(view)

    @wraps(view)
    def answer(request, *args, **kwargs):
        if request.method == "OPTIONS":
            return HttpResponse(status=204, headers={"Allow": PAGE_METHODS})
        return safe(request, *args, **kwargs)

    return answer
