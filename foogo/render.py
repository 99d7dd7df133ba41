"""Pictures of positions: SVG for notebooks and files, PNG through matplotlib.

`board_svg(board, ...)` draws a board with coordinates, star points, stones, the last move and
the ko point, and optionally an ownership shading (+1 black .. -1 white per point) and a number
per point (a search's visits or win rates). `Board` and `Game` show themselves with it in Jupyter
(`_repr_svg_`). `search_svg(board, result)` draws a search's root map: visits and win rates of
the moves it tried, with its ownership. `save(path, board, ...)` writes .svg or .png.

A picture is first a list of shapes (`scene`), then SVG text or a matplotlib figure: both outputs
draw the same shapes. Every shape carries its GTP vertex where it has one, so tests and programs
can read a picture back (`<circle class="stone black" data-vertex="D4">`).

What it needs of a board: `size`, `geometry` (points, name), `color_at`, `last_move` and
`ko_point`, so it imports nothing of foogo but geometry and sits left of board.py in the data flow.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass, field

import numpy as np

from .files import write_whole
from .geometry import BLACK, COLUMNS, PASS, WHITE, is_star_point

CELL = 32  # pixels between lines
MARGIN = 32  # room for the coordinates
DPI_RANGE = (10, 1000)  # save's dpi for a PNG: a 9x9 picture of 320 pixels at 100 dpi; 10**6 took all memory


@dataclass
class Shape:
    """One element of a picture: kind circle, rect, line or text, in pixels, with SVG-ish attributes."""

    kind: str
    x: float
    y: float
    w: float = 0.0  # circle: radius; rect: side; line: x2; text: font size
    h: float = 0.0  # line: y2
    fill: str = "none"
    stroke: str = "none"
    opacity: float = 1.0
    text: str = ""
    css: str = ""  # SVG class
    vertex: str = ""  # GTP name of the point it belongs to, if any


@dataclass
class Scene:
    """A picture as shapes on a canvas of width x height pixels, drawn in order: what both SVG and PNG draw."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)


def _xy(size: int, row: int, col: int) -> tuple[float, float]:
    """Pixel centre of (row, col), row 0 at the bottom (A1), as boards are drawn."""
    return MARGIN + col * CELL, MARGIN + (size - 1 - row) * CELL


def scene(board, ownership=None, values=None, show_last: bool = True) -> Scene:
    """The shapes of a board picture (a Game draws its board). ownership: size*size values in
    [-1, 1] (+1 black), indexed row * size + col from A1; values: {GTP vertex: text} written on
    points (e.g. visits). ValueError for ownership that is not size*size finite numbers, or a value on a
    vertex that is not a point of the board."""
    board = getattr(board, "board", board)  # a Game: its current position
    n = board.size
    g = board.geometry
    ownership = _ownership(ownership, n)
    values = {g.name(_point(g, vertex)): text for vertex, text in (values or {}).items()}
    side = 2 * MARGIN + (n - 1) * CELL
    out = Scene(side, side)
    add = out.shapes.append
    add(Shape("rect", 0, 0, side, fill="#dcb35c", css="wood"))
    for k in range(n):
        x0, y0 = _xy(n, k, 0)
        x1, _ = _xy(n, k, n - 1)
        add(Shape("line", x0, y0, x1, y0, stroke="#000", css="grid"))
        xa, ya = _xy(n, 0, k)
        _, yb = _xy(n, n - 1, k)
        add(Shape("line", xa, ya, xa, yb, stroke="#000", css="grid"))
    for k in range(n):
        x, y_top = _xy(n, n - 1, k)
        _, y_bottom = _xy(n, 0, k)
        for y in (y_top - 0.6 * MARGIN, y_bottom + 0.75 * MARGIN):
            add(Shape("text", x, y, 12, text=COLUMNS[k], fill="#000", css="coord"))
        x_left, y = _xy(n, k, 0)
        x_right, _ = _xy(n, k, n - 1)
        for x in (x_left - 0.65 * MARGIN, x_right + 0.65 * MARGIN):
            add(Shape("text", x, y + 4, 12, text=str(k + 1), fill="#000", css="coord"))
    for row in range(n):
        for col in range(n):
            if is_star_point(n, row, col):
                x, y = _xy(n, row, col)
                add(Shape("circle", x, y, 3, fill="#000", css="star"))
    if ownership is not None:
        for row in range(n):
            for col in range(n):
                v = float(ownership[row * n + col])
                if abs(v) >= 0.05:
                    x, y = _xy(n, row, col)
                    s = 0.5 * CELL
                    add(Shape("rect", x - s / 2, y - s / 2, s, fill="#000" if v > 0 else "#fff",
                              opacity=round(min(abs(v), 1.0) * 0.8, 3), css="owner",
                              vertex=f"{COLUMNS[col]}{row + 1}"))
    for row in range(n):
        for col in range(n):
            p = int(g.points[row * n + col])
            c = board.color_at(g.name(p))
            if c in (BLACK, WHITE):
                x, y = _xy(n, row, col)
                black = c == BLACK
                add(Shape("circle", x, y, 0.47 * CELL, fill="#000" if black else "#fff", stroke="#000",
                          css="stone black" if black else "stone white", vertex=g.name(p)))
    last = board.last_move
    if show_last and last is not None and last != PASS:
        name = g.name(last)
        row, col = int(name[1:]) - 1, COLUMNS.index(name[0])
        x, y = _xy(n, row, col)
        mark = "#fff" if board.color_at(name) == BLACK else "#000"
        add(Shape("circle", x, y, 0.2 * CELL, stroke=mark, css="last", vertex=name))
    ko = board.ko_point
    if ko is not None:
        row, col = int(ko[1:]) - 1, COLUMNS.index(ko[0])
        x, y = _xy(n, row, col)
        s = 0.4 * CELL
        add(Shape("rect", x - s / 2, y - s / 2, s, stroke="#000", css="ko", vertex=ko))
    for vertex, text in (values or {}).items():
        row, col = int(vertex[1:]) - 1, COLUMNS.index(vertex[0])
        x, y = _xy(n, row, col)
        stone = board.color_at(vertex)
        colour = "#fff" if stone == BLACK else "#c00000"
        add(Shape("text", x, y + 4, 11, text=str(text), fill=colour, css="value", vertex=vertex))
    return out


def _ownership(ownership, n: int) -> np.ndarray | None:
    """ownership as n*n floats (a flat sequence or an n x n array, A1 first); ValueError otherwise."""
    if ownership is None:
        return None
    try:
        values = np.asarray(ownership, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"ownership must be {n}x{n} numbers, got {type(ownership).__name__}") from None
    if values.size != n * n or not np.isfinite(values).all():
        raise ValueError(f"ownership must be {n * n} finite numbers ({n}x{n}), got {values.size}"
                         + ("" if values.size != n * n else ", some not finite"))
    return values


def _point(g, vertex) -> int:
    """The board point a values key names (any case); ValueError for pass or a vertex off the board."""
    p = g.parse(vertex)
    if p == PASS:
        raise ValueError("values: pass is not a point of the board")
    return p


def to_svg(picture: Scene) -> str:
    """SVG text of a scene."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{picture.width:g}" height="{picture.height:g}" '
             f'viewBox="0 0 {picture.width:g} {picture.height:g}">']
    for s in picture.shapes:
        common = f'class="{s.css}"' + (f' data-vertex="{s.vertex}"' if s.vertex else "")
        paint = f'fill="{s.fill}" stroke="{s.stroke}"' + (f' opacity="{s.opacity:g}"' if s.opacity < 1 else "")
        if s.kind == "circle":
            parts.append(f'<circle {common} cx="{s.x:g}" cy="{s.y:g}" r="{s.w:g}" {paint}/>')
        elif s.kind == "rect":
            parts.append(f'<rect {common} x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.w:g}" {paint}/>')
        elif s.kind == "line":
            parts.append(f'<line {common} x1="{s.x:g}" y1="{s.y:g}" x2="{s.w:g}" y2="{s.h:g}" {paint}/>')
        else:
            parts.append(f'<text {common} x="{s.x:g}" y="{s.y:g}" font-size="{s.w:g}" text-anchor="middle" '
                         f'font-family="sans-serif" fill="{s.fill}">{html.escape(s.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def board_svg(board, ownership=None, values=None) -> str:
    """SVG of a board (see scene for ownership and values)."""
    return to_svg(scene(board, ownership, values))


def search_values(board, result, what: str = "visits") -> dict[str, str]:
    """{vertex: text} of a SearchResult's root moves: "visits" or "winrate" (percent, for the side
    that searched)."""
    g = board.geometry
    if what == "visits":
        return {g.name(p): str(n) for p, n in result.visits.items() if p >= 0 and n > 0}
    if what == "winrate":
        return {g.name(p): f"{100 * w:.0f}" for p, w in result.winrates.items()
                if p >= 0 and result.visits.get(p, 0) > 0}
    raise ValueError(f"what must be 'visits' or 'winrate', got {what!r}")


def search_svg(board, result, what: str = "visits") -> str:
    """SVG of a search's root map: the board, the search's ownership shading, and per tried move its
    visits or win rate."""
    return board_svg(board, ownership=result.ownership, values=search_values(board, result, what))


def save(path, board, ownership=None, values=None, dpi: int = 100) -> None:
    """Write a picture of a board (or a Game's) to `path`: SVG if it ends in .svg, PNG (drawn with
    matplotlib, at `dpi`: a whole number in DPI_RANGE) if .png. The picture is drawn before the file is
    touched, then written whole (files.write_whole): bad input (ValueError) leaves an earlier file as it was,
    and a path that is not a regular file is refused (files.NotRegularFile)."""
    text = str(path)
    kind = text.lower().rsplit(".", 1)[-1]
    if kind not in ("svg", "png"):
        raise ValueError(f"save writes .svg or .png files, not {text!r}")
    if kind == "png" and (isinstance(dpi, bool) or not isinstance(dpi, (int, np.integer))
                          or not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]):
        raise ValueError(f"dpi must be a whole number from {DPI_RANGE[0]} to {DPI_RANGE[1]}, got {dpi!r:.40}")
    picture = scene(board, ownership, values)
    write_whole(text, to_svg(picture).encode("utf-8") if kind == "svg" else _to_png(picture, int(dpi)))


def _to_png(picture: Scene, dpi: int) -> bytes:
    """A scene drawn as PNG with matplotlib's Agg canvas (not pyplot: no global figure, and a
    notebook's backend stays as it was)."""
    from matplotlib import patches
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(picture.width / dpi, picture.height / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, picture.width)
    ax.set_ylim(picture.height, 0)  # y down, as in SVG
    ax.set_axis_off()
    for s in picture.shapes:
        fill = None if s.fill == "none" else s.fill
        edge = None if s.stroke == "none" else s.stroke
        if s.kind == "circle":
            ax.add_patch(patches.Circle((s.x, s.y), s.w, facecolor=fill or "none", edgecolor=edge or "none",
                                        alpha=s.opacity))
        elif s.kind == "rect":
            ax.add_patch(patches.Rectangle((s.x, s.y), s.w, s.w, facecolor=fill or "none",
                                           edgecolor=edge or "none", alpha=s.opacity))
        elif s.kind == "line":
            ax.plot([s.x, s.w], [s.y, s.h], color=edge or "#000", linewidth=1)
        else:
            ax.text(s.x, s.y, s.text, fontsize=s.w * 72 / dpi, ha="center", va="baseline", color=s.fill)
    out = io.BytesIO()
    fig.savefig(out, dpi=dpi, format="png")
    return out.getvalue()
