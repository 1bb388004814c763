"""The daily's share card (issue 43): a PNG of a ranked finish, for the share sheet and a chat's
link preview (og:image). Like Wordle's grid it shows the result without the answer: the date,
the level, the time, Classic or Assisted, the mistakes and the streak, and where to play. The
card is drawn from `card_texts` alone, which never reads the puzzle: no digit of the grid can
reach the picture."""

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.formats import date_format
from django.utils.translation import gettext
from PIL import Image, ImageDraw, ImageFont

from games.common.times import format_seconds
from games.models import SoloRun

SIZE = (1200, 630)  # the og:image size link previews show whole
# DejaVu Sans (Debian's fonts-dejavu-core, on the site's image); Pillow's own scalable font where
# it is missing, so a card is drawn everywhere.
FONTS = Path("/usr/share/fonts/truetype/dejavu")
INK, MUTED, PAPER, ACCENT, GOLD = "#14213d", "#5b6478", "#f7f8fc", "#2d5bd7", "#ffb020"


@dataclass(frozen=True)
class CardTexts:
    """Everything the card says, already in words: its only input."""

    title: str
    date: str
    level: str
    stats: tuple[tuple[str, str], ...]  # (label, value): time, mistakes, streak
    kind: str  # Classic or Assisted
    link: str


def card_texts(run: SoloRun, streak: int, link: str) -> CardTexts:
    """The words of `run`'s card: a finished ranked daily run (the caller checks)."""
    daily = run.daily
    assert daily is not None  # share.shared_run gives daily runs only
    return CardTexts(
        title=gettext("Sudoku Showdown daily"),
        date=date_format(daily.date, "j F Y"),
        level=daily.get_level_display(),
        stats=(
            (gettext("Time"), format_seconds(run.elapsed or 0)),
            (gettext("Mistakes"), str(run.mistakes)),
            (gettext("Streak"), str(streak)),
        ),
        kind=gettext("Assisted") if run.assisted else gettext("Classic"),
        link=link,
    )


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def render(texts: CardTexts) -> bytes:
    """The card as PNG bytes (1200x630)."""
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    width, height = SIZE
    draw.rectangle((0, 0, width, 14), fill=ACCENT)
    _mark(draw, 72, 70, 84)
    draw.text((180, 72), texts.title, font=_font(44, bold=True), fill=INK)
    draw.text((180, 128), f"{texts.date} · {texts.level}", font=_font(32), fill=MUTED)
    # Three tiles: label above, the number big.
    tile_w, gap, top = 330, 39, 230
    for i, (label, value) in enumerate(texts.stats):
        left = 72 + i * (tile_w + gap)
        draw.rounded_rectangle(
            (left, top, left + tile_w, top + 190), radius=24, fill="#ffffff", outline="#dfe3ee", width=2
        )
        draw.text((left + 32, top + 28), label.upper(), font=_font(26, bold=True), fill=MUTED)
        draw.text((left + 32, top + 72), value, font=_font(80, bold=True), fill=INK)
    badge = _font(30, bold=True)
    right = 72 + draw.textlength(texts.kind, font=badge) + 48
    draw.rounded_rectangle((72, 460, right, 516), radius=28, fill=ACCENT)
    draw.text((96, 470), texts.kind, font=badge, fill="#ffffff")
    draw.text((72, height - 80), texts.link, font=_font(30), fill=ACCENT)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _mark(draw: ImageDraw.ImageDraw, x: int, y: int, size: int) -> None:
    """The site's mark (templates/base.html): a 3x3 of squares, the middle one gold. No digits."""
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 5, fill=ACCENT)
    cell, pad = size * 6 // 32, size * 5 // 32
    for row in range(3):
        for col in range(3):
            left, top = x + pad + col * size * 8 // 32, y + pad + row * size * 8 // 32
            colour = GOLD if (row, col) == (1, 1) else PAPER
            draw.rounded_rectangle((left, top, left + cell, top + cell), radius=max(2, cell // 4), fill=colour)
