"""The app's icons (static/icons/), drawn from shapes alone so they come out the same anywhere:
`python -m api.web.icons` writes them again. The committed PNGs are its output;
tests/web/test_app_shell.py checks they still match what it draws.

The logo of the top bar — a green W tile and a yellow T tile — over a row of five small squares,
a line of a shared result. "any" icons have rounded corners; maskable ones fill the square and
keep everything inside the central circle that any mask leaves visible (40 % of the size around
the centre).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).parent / "static" / "icons"
SIZES = (192, 512)
SUPERSAMPLE = 4

BACKGROUND = (19, 17, 27, 255)  # --bg of the dark theme
GREEN = (95, 168, 90, 255)  # --correct
YELLOW = (201, 169, 60, 255)  # --present
GREY = (74, 70, 96, 255)  # --absent
WHITE = (255, 255, 255, 255)

# The letters, in a tile's own unit square.
W = [
    (0.12, 0.22), (0.27, 0.22), (0.36, 0.60), (0.45, 0.30), (0.55, 0.30), (0.64, 0.60),
    (0.73, 0.22), (0.88, 0.22), (0.72, 0.80), (0.58, 0.80), (0.50, 0.52), (0.42, 0.80),
    (0.28, 0.80),
]  # fmt: skip
T = [
    (0.18, 0.22), (0.82, 0.22), (0.82, 0.36), (0.58, 0.36), (0.58, 0.80), (0.42, 0.80),
    (0.42, 0.36), (0.18, 0.36),
]  # fmt: skip
LINE = (GREEN, YELLOW, GREY, GREY, GREEN)


def _tile(
    draw: ImageDraw.ImageDraw, x: float, y: float, size: float, colour: tuple[int, ...]
) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size * 0.16, fill=colour)


def _letter(
    draw: ImageDraw.ImageDraw, shape: list[tuple[float, float]], x: float, y: float, size: float
) -> None:
    draw.polygon([(x + u * size, y + v * size) for u, v in shape], fill=WHITE)


def draw(size: int, maskable: bool) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=BACKGROUND)
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, fill=BACKGROUND)
    # The content's width: its corners stay inside the safe circle when maskable.
    width = big * (0.54 if maskable else 0.72)
    gap = width * 0.06
    tile = (width - gap) / 2
    small_gap = width * 0.03
    small = (width - 4 * small_gap) / 5
    height = tile + gap * 1.6 + small
    left = (big - width) / 2
    top = (big - height) / 2
    _tile(pen, left, top, tile, GREEN)
    _letter(pen, W, left, top, tile)
    _tile(pen, left + tile + gap, top, tile, YELLOW)
    _letter(pen, T, left + tile + gap, top, tile)
    row = top + tile + gap * 1.6
    for i, colour in enumerate(LINE):
        _tile(pen, left + i * (small + small_gap), row, small, colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def icons() -> dict[str, Image.Image]:
    out = {}
    for size in SIZES:
        out[f"icon-{size}.png"] = draw(size, maskable=False)
        out[f"icon-maskable-{size}.png"] = draw(size, maskable=True)
    return out


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, image in icons().items():
        image.save(ICONS / name, optimize=True)
        print(ICONS / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
