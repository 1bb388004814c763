"""Small line charts drawn on the server as SVG geometry (no chart library in the browser).
Pure: numbers in, coordinates and labels out; the template draws them."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

WIDTH, HEIGHT = 360, 150
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 8, 72, 14, 14  # the right margin holds the guide labels


@dataclass
class Chart:
    width: int
    height: int
    line: str  # SVG path of the values, oldest first
    area: str  # the same path closed to the baseline, for a soft fill
    dots: list = field(default_factory=list)  # {"x", "y", "label", "best", "last"}
    guides: list = field(default_factory=list)  # {"y", "label", "kind"}: best and average lines
    summary: str = ""  # the chart in words, for screen readers


def line_chart(values, fmt=str, lower_is_better=True, what="results", mark_last=False) -> Chart | None:
    """A chart of values in the order given (oldest first), with the best and average marked.
    `mark_last`: the newest value is the one just played (the Solo Run finish), and its dot
    says so. None when there is nothing to draw."""
    values = [float(v) for v in values]
    if not values:
        return None
    lo, hi = min(values), max(values)
    span = hi - lo or max(abs(hi) * 0.2, 1.0)
    lo, hi = lo - span * 0.15, hi + span * 0.15
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i):
        return round(PAD_LEFT + (inner_w * i / (len(values) - 1) if len(values) > 1 else inner_w / 2), 1)

    def y(v):
        return round(PAD_TOP + (hi - v) / (hi - lo) * inner_h, 1)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    line = "M" + " L".join(f"{px} {py}" for px, py in points)
    base = HEIGHT - PAD_BOTTOM
    area = f"{line} L{points[-1][0]} {base} L{points[0][0]} {base} Z"
    best = min(values) if lower_is_better else max(values)
    average = sum(values) / len(values)
    dots = [
        {"x": px, "y": py, "label": fmt(v), "best": v == best, "last": False}
        for (px, py), v in zip(points, values, strict=True)
    ]
    if mark_last:
        dots[-1]["last"] = True
        dots[-1]["label"] = _("This run: %(value)s") % {"value": dots[-1]["label"]}
    guides = [{"y": y(best), "label": _("Best %(value)s") % {"value": fmt(best)}, "kind": "best"}]
    if len(values) > 1:
        guides.append({"y": y(average), "label": _("Avg %(value)s") % {"value": fmt(average)}, "kind": "average"})
        # Labels closer than a line of text would overlap: move the average's aside.
        if abs(guides[1]["y"] - guides[0]["y"]) < 13:
            guides[1]["text_y"] = guides[0]["y"] + (13 if guides[1]["y"] >= guides[0]["y"] else -13)
    for guide in guides:
        guide.setdefault("text_y", guide["y"])
        guide["text_y"] = min(max(guide["text_y"], PAD_TOP), base)
    summary = _("Your last %(count)s %(what)s, oldest to newest: %(values)s. Best %(best)s, average %(average)s.") % {
        "count": len(values),
        "what": what,
        "values": ", ".join(fmt(v) for v in values),
        "best": fmt(best),
        "average": fmt(average),
    } + (" " + _("This run: %(value)s.") % {"value": fmt(values[-1])} if mark_last else "")
    return Chart(WIDTH, HEIGHT, line, area, dots, guides, summary)
