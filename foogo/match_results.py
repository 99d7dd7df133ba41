"""A match's results: each finished game's record, the figures they add up to, and their table.

What it is: `GameRecord` (one game: who played, how it ended, its moves, and the wall and CPU
seconds of each genmove), `summarize` (the records as the JSON-ready dict `foogo match --json`
writes: per engine its wins, win rate with a 95% Wilson interval, wins by colour, wall and CPU
seconds per move, starved genmoves (`starved_moves`) and faults; the totals; a line per game),
`format_table` (that dict as the text table `foogo match` prints, which bench/parallel_match.py
also prints for merged matches), `game_sgf` (a record as the SGF `foogo match` writes, with the
clock's times when it had one), `black_score` (black's score from a
result as an SGF's RE writes it) and `named_colours` / `named_colour` (whose game it is by the PB and
PW names), for the scripts that tally SGFs. What it is not: the match runner
(match.py), which plays the games and fills the records.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from sgfmill import sgf

from .intervals import wilson
from .match_clock import TimeControl


def black_score(result: str) -> float | None:
    """Black's score from a game result as an SGF's RE writes it: 1 for B+..., 0 for W+..., 0.5 for a
    draw (0, Draw, Jigo; any case, spaces around ignored), None for anything else (Void, ?, none)."""
    result = result.strip().upper()
    if result[:2] == "B+":
        return 1.0
    if result[:2] == "W+":
        return 0.0
    return 0.5 if result in ("0", "DRAW", "JIGO") else None


def named_colours(root, name: str) -> set[str]:
    """The colours ("b", "w") of an SGF game whose player's name (the root's PB, PW) holds `name`, in any
    case: the one rule the scripts that tally or learn from match archives use to find a player."""
    name = name.lower()
    return {c for c, prop in (("b", "PB"), ("w", "PW")) if root.has_property(prop) and name in root.get(prop).lower()}


def named_colour(root, name: str) -> str:
    """The colour ("b" or "w") of the one player of an SGF game whose name holds `name` (named_colours' rule),
    or "" when neither's or both players' names do (no single side to take)."""
    colours = named_colours(root, name)
    return colours.pop() if len(colours) == 1 else ""


@dataclass
class GameRecord:
    """One finished game: who played, how it ended, and what was played."""

    number: int
    black: str  # player key
    white: str
    result: str = "?"
    winner: str | None = None  # player key, None for a draw or a void game
    reason: str = "void"  # score, resign, time, illegal, crash, void
    fault: str | None = None  # key of the engine whose illegal move/timeout/crash decided it
    detail: str = ""
    moves: list[tuple[str, tuple[int, int] | None]] = field(default_factory=list)
    seconds: float = 0.0
    # key -> one (wall seconds, CPU seconds or None) per answered genmove of that engine
    timings: dict[str, list[tuple[float, float | None]]] = field(default_factory=dict)
    clock: list[float] = field(default_factory=list)  # under a game clock: the mover's time left after each move
    opening: int = 0  # the first moves, an opening's (--opening), played before the first genmove and on no clock
    # a game the referee scored: each engine's own `final_score` (player key -> its answer, None for none)
    engine_scores: dict[str, str | None] = field(default_factory=dict)

    @property
    def disputed(self) -> bool:
        """Whether both engines' own counts name one winner (or a draw) and the referee's result another."""
        counts = [black_score(v) for v in self.engine_scores.values() if v is not None]
        return (len(counts) == 2 and counts[0] is not None and counts[0] == counts[1]
                and counts[0] != black_score(self.result))


# A genmove is starved when the engine's CPU share over it (CPU seconds over wall seconds) falls below
# STARVED_SHARE of its usual share, the USUAL_QUANTILE of its shares over the match: another process
# took the cores it should have had. Only genmoves of at least MIN_TIMED_SECONDS are judged, since
# /proc counts CPU time in clock ticks (10 ms).
STARVED_SHARE = 0.6
USUAL_QUANTILE = 0.9
MIN_TIMED_SECONDS = 0.25


def usual_share(records: list[GameRecord], key: str) -> float | None:
    """Engine `key`'s usual CPU share in the genmoves of `records` (USUAL_QUANTILE of CPU over wall
    seconds, over genmoves of MIN_TIMED_SECONDS or more with a CPU time); None if there are none."""
    shares = sorted(cpu / wall for r in records for wall, cpu in r.timings.get(key, ())
                    if cpu is not None and wall >= MIN_TIMED_SECONDS)
    if not shares:
        return None
    return shares[min(len(shares) - 1, int(USUAL_QUANTILE * len(shares)))]


def starved_moves(record: GameRecord, key: str, usual: float | None) -> int:
    """How many of engine `key`'s genmoves in `record` were starved, given its usual share (usual_share)."""
    if usual is None:
        return 0
    return sum(1 for wall, cpu in record.timings.get(key, ())
               if cpu is not None and wall >= MIN_TIMED_SECONDS and cpu / wall < STARVED_SHARE * usual)


def summarize(records: list[GameRecord], players: dict, settings: dict) -> dict:
    """The match figures as a JSON-ready dict (engines, totals, per-game list) from its finished games'
    records, its players (key -> an object with label, name, version and command) and its settings
    (games_requested, interrupted, size, komi, max_moves, timeout, alternate, time_settings, referee,
    referee_command), which the dict carries as they are."""
    recs = records
    n = len(recs)
    void = sum(r.reason == "void" for r in recs)
    draws = sum(r.result == "0" for r in recs)
    decided = n - void
    engines = []
    usual = {key: usual_share(recs, key) for key in players}
    starved = [{key: starved_moves(r, key, usual[key]) for key in (r.black, r.white)} for r in recs]
    for key, p in players.items():
        wins = sum(r.winner == key for r in recs)
        as_black = [r for r in recs if r.black == key]
        as_white = [r for r in recs if r.white == key]
        timings = [t for r in recs for t in r.timings.get(key, ())]
        secs = sum(wall for wall, _ in timings)
        genmoves = len(timings)
        cpu = [c for _, c in timings if c is not None]
        points = wins + 0.5 * draws
        low, high = wilson(points, decided)
        engines.append({
            "id": key, "label": p.label, "name": p.name, "version": p.version, "command": p.command,
            "wins": wins,
            "win_rate": points / decided if decided else None,
            "win_rate_ci95": [low, high],
            "wins_as_black": sum(r.winner == key for r in as_black), "games_as_black": len(as_black),
            "wins_as_white": sum(r.winner == key for r in as_white), "games_as_white": len(as_white),
            "genmoves": genmoves,
            "mean_seconds_per_move": secs / genmoves if genmoves else None,
            "cpu_timed_moves": len(cpu),
            "mean_cpu_seconds_per_move": sum(cpu) / len(cpu) if cpu else None,
            "usual_cpu_share": usual[key],
            "starved_moves": sum(counts.get(key, 0) for counts in starved),
            "illegal_moves": sum(r.fault == key and r.reason == "illegal" for r in recs),
            "timeouts": sum(r.fault == key and r.reason == "time" for r in recs),
            "crashes": sum(r.fault == key and r.reason == "crash" for r in recs),
        })
    return {
        "games": n,
        **settings,
        "engines": engines,
        "draws": draws, "void": void,
        "mean_moves": sum(len(r.moves) for r in recs) / n if n else None,
        "mean_game_seconds": sum(r.seconds for r in recs) / n if n else None,
        "illegal_moves": sum(r.reason == "illegal" for r in recs),
        "timeouts": sum(r.reason == "time" for r in recs),
        "crashes": sum(r.reason == "crash" for r in recs),
        "disputed": sum(r.disputed for r in recs),
        "per_game": [{
            "game": r.number,
            "black": players[r.black].label, "white": players[r.white].label,
            "result": r.result,
            "winner": players[r.winner].label if r.winner else None,
            "reason": r.reason, "moves": len(r.moves), "seconds": round(r.seconds, 3),
            "starved_black": counts[r.black],
            "starved_white": counts[r.white],
            "detail": r.detail,
            "engine_scores": {players[key].label: score for key, score in r.engine_scores.items()},
            "disputed": r.disputed,
        } for r, counts in zip(recs, starved)],
    }


def format_table(summary: dict) -> str:
    """The results table of a `summary` dict as plain text lines."""
    s = summary
    referee = s["referee"] or (f"{s['referee_command']} (stopped before it started)" if s.get("referee_command")
                               else "none (engines must agree on the score)")
    head = (f"{s['games']} games on {s['size']}x{s['size']}, komi {s['komi']:g}, "
            f"{'colours alternating' if s['alternate'] else 'colours fixed'}, referee: {referee}")
    if s.get("time_settings"):  # absent from summaries written before matches had clocks
        head += f", clock: {s['time_settings']} each"
    if s["interrupted"]:
        head += f"  [interrupted after {s['games']} of {s['games_requested']}]"
    lines = [head]
    for e in s["engines"]:
        lines.append(f"  {e['id']}: {e['label']}  <- {e['command']}")
    width = max([len("Engine")] + [len(e["label"]) for e in s["engines"]])
    lines.append("")
    lines.append(f"{'Engine':<{width}}  {'Wins':>4}  {'Win rate':>8}  {'95% CI (Wilson)':>15}  "
                 f"{'As black':>8}  {'As white':>8}  {'s/move':>7}  {'CPU s/move':>10}  {'Starved':>7}  "
                 f"{'Illegal':>7}  {'Timeouts':>8}  {'Crashes':>7}")
    for e in s["engines"]:
        rate = "-" if e["win_rate"] is None else f"{100 * e['win_rate']:.1f}%"
        ci = "-" if e["win_rate"] is None else \
            f"{100 * e['win_rate_ci95'][0]:.1f}-{100 * e['win_rate_ci95'][1]:.1f}%"
        spm = "-" if e["mean_seconds_per_move"] is None else f"{e['mean_seconds_per_move']:.3f}"
        cpu = e.get("mean_cpu_seconds_per_move")  # absent from summaries written before it was measured
        cpu_spm = "-" if cpu is None else f"{cpu:.3f}"
        lines.append(f"{e['label']:<{width}}  {e['wins']:>4}  {rate:>8}  {ci:>15}  "
                     f"{e['wins_as_black']:>3}/{e['games_as_black']:<4}  "
                     f"{e['wins_as_white']:>3}/{e['games_as_white']:<4}  "
                     f"{spm:>7}  {cpu_spm:>10}  {e.get('starved_moves', 0):>7}  "
                     f"{e['illegal_moves']:>7}  {e['timeouts']:>8}  {e['crashes']:>7}")
    lines.append("")
    mean_moves = "-" if s["mean_moves"] is None else f"{s['mean_moves']:.1f}"
    mean_secs = "-" if s["mean_game_seconds"] is None else f"{s['mean_game_seconds']:.2f}"
    lines.append(f"Draws {s['draws']}, void {s['void']}; mean game length {mean_moves} moves, "
                 f"{mean_secs} s per game; illegal moves {s['illegal_moves']}, timeouts {s['timeouts']}, "
                 f"crashes {s['crashes']}")
    if s["draws"]:
        lines.append("Win rates count a draw as half a win; void games are left out.")
    if s.get("disputed"):  # absent from summaries written before the engines' counts were asked
        games = ", ".join(str(g["game"]) for g in s["per_game"] if g.get("disputed"))
        lines.append(f"Disputed: {s['disputed']} scored game(s) where both engines' own final_score name another "
                     f"winner than the referee's (game {games}; each engine's count in the JSON: engine_scores). "
                     "The referee's result stands; read those games' final positions.")
    if any(e.get("starved_moves") for e in s["engines"]):
        lines.append(f"Starved: genmoves in which the engine's CPU share (CPU over wall seconds) fell below "
                     f"{STARVED_SHARE:g} of its usual share (its {USUAL_QUANTILE:.0%} quantile in this match): "
                     "another process took its cores; per game in the JSON (starved_black, starved_white).")
    return "\n".join(lines)


def game_sgf(rec: GameRecord, size: int, komi: float, labels: dict[str, str], clock: TimeControl | None) -> bytes:
    """Game `rec` as SGF (sgfmill): players by their labels (player key -> label, distinct even when both
    engines give one name), result, komi, Chinese rules, the moves, the result's detail as the last
    move's comment; under a clock, TM and OT, and each move's BL or WL (the mover's time left); after an
    opening, a comment on its last move."""
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("RU", "Chinese")
    root.set("PB", labels[rec.black])
    root.set("PW", labels[rec.white])
    root.set("RE", rec.result)
    root.set("GN", f"game {rec.number}")
    root.set("DT", datetime.date.today().isoformat())
    root.set("AP", ("foogo-match", "1"))
    if clock is not None:
        root.set("TM", clock.main)
        if clock.stones:
            root.set("OT", f"{clock.stones}/{clock.byo:g} Canadian")
    node = root
    for k, (color, move) in enumerate(rec.moves):
        node = game.extend_main_sequence()
        node.set_move(color, move)
        timed = k - rec.opening  # the opening's moves are on no clock
        if 0 <= timed < len(rec.clock):  # the mover's time left after the move (in its byo-yomi period, if in one)
            node.set("BL" if color == "b" else "WL", round(rec.clock[timed], 2))
        if k + 1 == rec.opening:
            node.set("C", f"the opening's last move ({rec.opening} moves)")
    node.set("C", f"{rec.result}: {rec.detail}" if rec.detail else rec.result)
    return game.serialise()
