"""The reports of a `foogo stats` run, from its chunks: the terminal table, results.json,
results.csv, histograms.csv, results.md and three PNG plots."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from .chunks import plan
from .request import FORMAT
from .rundir import RunDir, write_atomic
from .tally import Tally, black_share, summarize


def results(manifest: dict, chunks: dict, komi: list[float]) -> dict:
    """The report of a run from its chunks: the manifest, whether every chunk is in, and the figures
    of each group that has any (a pure function of its arguments: no timings)."""
    tallies: dict[int, Tally] = {}
    for key in sorted(chunks):
        r = chunks[key]
        tallies.setdefault(key[0], Tally()).add(Tally(r["count"], r["lo"], r["counts"], r["moves"], r["capped"]))
    groups = []
    for g in manifest["groups"]:
        if g in tallies:
            size = g if manifest["mode"] == "random" else manifest["size"]
            groups.append({"group": g, **summarize(tallies[g], komi, size)})
    planned = plan(manifest)
    return {"format": FORMAT, "manifest": manifest, "komi": komi,
            "complete": all((g, f) in chunks for g, f, _ in planned),
            "group_name": "size" if manifest["mode"] == "random" else "playouts_per_move",
            "groups": groups}


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def format_table(report: dict) -> str:
    """The terminal report: one block of score figures and one of black's win rates, a row per group."""
    name = "size" if report["group_name"] == "size" else "po/move"
    m = report["manifest"]
    title = (f"foogo stats: random playouts from the empty board, seed {m['seed']}" if m["mode"] == "random"
             else f"foogo stats: self-play on {m['size']}x{m['size']}, game komi {m['game_komi']}, seed {m['seed']}")
    if not report["complete"]:
        title += "  (PARTIAL: not every chunk is in)"
    lines = [title, "black minus white area score, no komi; 95% intervals",
             f"{name:>7} {'n':>9} {'mean':>8} {'95% CI of mean':>18} {'std':>7} {'median':>7} "
             f"{'fair komi':>9} {'moves':>7} {'capped':>6}"]
    for g in report["groups"]:
        ci = f"[{g['ci95'][0]:+.2f}, {g['ci95'][1]:+.2f}]" if g["ci95"] else "-"
        std = f"{g['std']:7.2f}" if g["std"] is not None else f"{'-':>7}"
        lines.append(f"{g['group']:>7} {g['n']:>9} {g['mean']:>+8.3f} {ci:>18} {std} {g['median']:>+7.1f} "
                     f"{g['fair_komi']:>+9.2f} {g['moves_mean']:>7.1f} {g['capped']:>6}")
    lines.append("")
    lines.append("black win rate % [Wilson 95%] at komi; draws in parentheses where the komi allows them")
    komi = report["komi"]
    width = 19 + max((len(f" ({w['draws']})") for g in report["groups"] for w in g["win"]
                      if w["komi"] == int(w["komi"])), default=0)
    played = _played_komi(m)
    lines.append(f"{name:>7} " + " ".join(f"{'komi ' + _komi_text(k) + ('*' if k == played else ''):>{width}}"
                                          for k in komi))
    for g in report["groups"]:
        cells = []
        for w in g["win"]:
            low, high = (_pct(x).strip() for x in w["wilson95"])
            cell = f"{_pct(w['black_win_rate']).strip()} [{low},{high}]"
            if w["komi"] == int(w["komi"]):
                cell += f" ({w['draws']})"
            cells.append(f"{cell:>{width}}")
        lines.append(f"{g['group']:>7} " + " ".join(cells))
    if played is not None:
        lines.append(_recount_note(played, komi, "*"))
    lines.append("fair komi: the scores' mid-median: black's share (draws as half) falls through 1/2 between the")
    lines.append("  two scores around it, and is joined linearly there; any komi strictly between two neighbouring")
    lines.append("  scores gives the same games, so read black's share at a komi from the win rates above.")
    lines += capped_notes(report)
    return "\n".join(lines)


CAPPED_NOTE = 0.01  # the share of a group's playouts at the move cap past which its figures are flagged


def capped_notes(report: dict) -> list[str]:
    """A warning for each group whose playouts reached the move cap (playout.move_cap, 3 x size^2 moves) in more
    than CAPPED_NOTE of them: those are counted as they stood, unfinished, so its figures describe the cap, not
    the game (2x2's light playouts cycle: 44% capped, their mean +0.47 where finished ones score +4)."""
    return [f"WARNING: {g['capped']:,} of {g['n']:,} playouts of {report['group_name']} {g['group']} reached the "
            f"move cap and count as they stood: its figures are not the game's" for g in report["groups"]
            if g["n"] and g["capped"] > CAPPED_NOTE * g["n"]]


def _komi_text(k: float) -> str:
    return f"{k:g}"


def _played_komi(manifest: dict) -> float | None:
    """The komi a self-play run's games were played at; None for random playouts (scored at every komi alike)."""
    return manifest.get("game_komi") if manifest["mode"] == "selfplay" else None


def _recount_note(played: float, komi: list[float], mark: str) -> str:
    """What a self-play table's komi columns are: the games were played at one komi, and a column at another
    counts the same final positions at that komi (the players, aiming at another komi, might have played
    otherwise)."""
    if played in komi:
        return (f"{mark} the komi the games were played at; every other column\n  counts the same final positions "
                "at its komi, not games played at it")
    return (f"the games were played at komi {_komi_text(played)}; every column counts their final\n  positions at "
            "its komi, not games played at it")


def write_reports(run: RunDir, report: dict) -> list[str]:
    """Write results.json, results.csv, histograms.csv, results.md and the PNG plots into DIR
    (each atomically); return the paths."""
    paths = []
    write_atomic(run.file("results.json"), json.dumps(report, indent=1, allow_nan=False) + "\n")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = [report["group_name"], "n", "mean", "ci95_lo", "ci95_hi", "std", "median", "median_ci95_lo",
            "median_ci95_hi", "fair_komi", "moves_mean", "capped"]
    for k in report["komi"]:
        t = _komi_text(k)
        head += [f"win_rate_komi_{t}", f"wilson95_lo_komi_{t}", f"wilson95_hi_komi_{t}", f"draws_komi_{t}",
                 f"black_share_komi_{t}"]
    writer.writerow(head)
    for g in report["groups"]:
        row = [g["group"], g["n"], g["mean"], *(g["ci95"] or ["", ""]), "" if g["std"] is None else g["std"],
               g["median"], *g["median_ci95"], g["fair_komi"], g["moves_mean"], g["capped"]]
        for w in g["win"]:
            row += [w["black_win_rate"], *w["wilson95"], w["draws"], w["black_share"]]
        writer.writerow(row)
    write_atomic(run.file("results.csv"), out.getvalue())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([report["group_name"], "score", "count"])
    for g in report["groups"]:
        for i, c in enumerate(g["histogram"]["counts"]):
            if c:
                writer.writerow([g["group"], g["histogram"]["lo"] + i, c])
    write_atomic(run.file("histograms.csv"), out.getvalue())
    write_atomic(run.file("results.md"), format_markdown(report))
    paths += [run.file(n) for n in ("results.json", "results.csv", "histograms.csv", "results.md")]
    if report["groups"]:
        paths += write_plots(run, report)
    return paths


def format_markdown(report: dict) -> str:
    """The figures as a Markdown table (for the README) with the command that made them."""
    m = report["manifest"]
    name = "size" if report["group_name"] == "size" else "playouts/move"
    komi = report["komi"]
    played = _played_komi(m)
    lines = [f"Made by `{canonical_command(m)}`" + ("" if report["complete"] else " (partial)") + "\n",
             f"| {name} | n | mean B-W | 95% CI | std | fair komi | "
             + " | ".join(f"B wins @{_komi_text(k)}" + ("\\*" if k == played else "") for k in komi)
             + " | moves | capped |",
             "|" + "---:|" * (8 + len(komi))]
    for g in report["groups"]:
        ci = f"{g['ci95'][0]:+.2f} .. {g['ci95'][1]:+.2f}" if g["ci95"] else "-"
        std = f"{g['std']:.1f}" if g["std"] is not None else "-"
        wins = " | ".join(f"{100 * w['black_win_rate']:.2f}% [{100 * w['wilson95'][0]:.2f}, "
                          f"{100 * w['wilson95'][1]:.2f}]"  # Wilson's interval is not symmetric: no "±"
                          + (f" ({100 * w['draws'] / g['n']:.2f}% draws)" if w["draws"] else "") for w in g["win"])
        lines.append(f"| {g['group']} | {g['n']:,} | {g['mean']:+.3f} | {ci} | {std} | {g['fair_komi']:+.2f} | "
                     f"{wins} | {g['moves_mean']:.1f} | {g['capped']} |")
    notes = capped_notes(report) + ([_recount_note(played, komi, "\\*")] if played is not None else [])
    return "\n".join(lines) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "")


def canonical_command(manifest: dict, out: str = "DIR") -> str:
    """The `foogo stats` command line that makes (or continues) the run `manifest` describes."""
    m = manifest
    if m["mode"] == "random":
        sizes = m["groups"]
        text = (f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 and sizes == list(range(sizes[0], sizes[-1] + 1))
                else ",".join(map(str, sizes)))
        return (f"foogo stats --sizes {text} --playouts {m['playouts']} --seed {m['seed']} "
                f"--chunk {m['chunk']} --out {out}")
    return (f"foogo stats --selfplay --size {m['size']} --playouts-per-move {','.join(map(str, m['groups']))} "
            f"--games {m['games']} --game-komi {m['game_komi']:g} --seed {m['seed']} --chunk {m['chunk']} --out {out}")


def write_plots(run: RunDir, report: dict) -> list[str]:
    """histograms.png, mean_score.png and winrate_komi.png in DIR (matplotlib, Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    groups = report["groups"]
    random_mode = report["group_name"] == "size"
    label = (lambda g: f"{g}x{g}") if random_mode else (lambda g: f"{g} po/move")
    size = report["manifest"].get("size")
    subtitle = "random playouts" if random_mode else f"self-play {size}x{size}"
    paths = []

    def save(fig, name):
        FigureCanvasAgg(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110)
        write_atomic(run.file(name), "", buffer.getvalue())
        paths.append(run.file(name))

    cols = min(4, len(groups))
    rows = math.ceil(len(groups) / cols)
    fig = Figure(figsize=(3.4 * cols, 2.6 * rows), layout="constrained")
    for i, g in enumerate(groups):
        ax = fig.add_subplot(rows, cols, i + 1)
        counts = np.array(g["histogram"]["counts"], dtype=float)
        scores = g["histogram"]["lo"] + np.arange(len(counts))
        seen = counts > 0
        # vertical lines, not bars: 1-point bars narrower than a pixel drop out when rendered
        ax.vlines(scores[seen], 0, counts[seen] / g["n"], color="0.3", lw=0.8)
        ax.set_ylim(bottom=0)
        ax.margins(x=0.04)  # keep the whole-board spikes at +-size*size off the frame
        ax.axvline(0, color="0.6", lw=0.8)
        ax.axvline(g["mean"], color="tab:red", lw=1.0)
        ax.set_title(f"{label(g['group'])}: n={g['n']:,}, mean {g['mean']:+.2f} (red)", fontsize=9)
        ax.tick_params(labelsize=7)
    fig.suptitle(f"Black minus white area score ({subtitle}), share of games per score", fontsize=10)
    save(fig, "histograms.png")

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    xs = [g["group"] for g in groups]
    means = np.array([g["mean"] for g in groups])
    # the interval as reported: clipped to the board's scores, so not always symmetric
    errs = np.array([[(g["mean"] - g["ci95"][0]) if g["ci95"] else 0.0 for g in groups],
                     [(g["ci95"][1] - g["mean"]) if g["ci95"] else 0.0 for g in groups]])
    ax.errorbar(xs, means, yerr=errs, fmt="o-", capsize=3, label="mean score, 95% CI")
    ax.plot(xs, [g["fair_komi"] for g in groups], "s--", ms=4, label="fair komi (mid-median)")
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xlabel("board size" if random_mode else "playouts per move")
    if not random_mode:
        ax.set_xscale("log")
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_ylabel("black minus white (points)")
    ax.set_title(f"First-move advantage ({subtitle})")
    ax.legend(frameon=False)
    save(fig, "mean_score.png")

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    from matplotlib import colormaps

    colors = colormaps["viridis"](np.linspace(0, 0.9, len(groups)))  # one hue per group, in order
    for g, color in zip(groups, colors):
        hist = [(g["histogram"]["lo"] + i, c) for i, c in enumerate(g["histogram"]["counts"]) if c]
        grid = np.arange(-15.0, 15.01, 0.5)
        line, = ax.plot(grid, [black_share(hist, g["n"], k) for k in grid], lw=1, color=color,
                        label=label(g["group"]))
        ks = [w["komi"] for w in g["win"]]
        rates = np.array([w["black_win_rate"] for w in g["win"]])
        lo = rates - np.array([w["wilson95"][0] for w in g["win"]])
        hi = np.array([w["wilson95"][1] for w in g["win"]]) - rates
        ax.errorbar(ks, rates, yerr=[lo, hi], fmt=".", color=line.get_color(), capsize=2)
    ax.axhline(0.5, color="0.6", lw=0.8)
    ax.set_xlabel("komi")
    ax.set_ylabel("black win rate")
    ax.set_title(f"Black's win rate against komi ({subtitle})\n"
                 "lines: draws count half; points: wins only, Wilson 95% interval", fontsize=10)
    ax.legend(fontsize=7, ncol=3, frameon=False)
    save(fig, "winrate_komi.png")
    return paths
