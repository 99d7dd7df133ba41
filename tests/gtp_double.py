"""What the GTP tests share: a scripted search double (so that they depend on neither the search's
strength nor its speed), the engine built on it, readers of its responses, parsers of the analysis
formats written from their published descriptions, and an engine served over a pipe."""

import io
import os
import re
import threading
import time

import numpy as np

from foogo.geometry import PASS, RESIGN
from foogo.gtp import GtpEngine, serve
from foogo.search import SearchResult


class ScriptedSearch:
    """Plays the scripted moves (GTP names, "pass" or "resign") in order, then the first legal move."""

    def __init__(self, options, script=()):
        self.options = options
        self.script = list(script)
        self.calls = []
        self.new_games = 0

    def _result(self, board, color, legal):
        g = board.geometry
        if self.script:
            word = self.script.pop(0)
            move = RESIGN if word == "resign" else g.parse(word)
        else:
            move = legal[0] if legal else PASS
        others = [p for p in legal if p != move][:2]
        unvisited = [p for p in legal if p != move and p not in others][:2]  # root moves the search never tried
        visits = {p: 10 - i for i, p in enumerate([move] + others) if p >= 0}
        n = board.size
        return SearchResult(move=move, winrate=0.6, playouts=100, seconds=0.01,
                            pv=[move] + others[:1] if move >= 0 else [], visits=visits,
                            winrates={p: 0.6 - 0.1 * i for i, p in enumerate(visits)},
                            ownership=np.linspace(-1.0, 1.0, n * n), color=color,
                            priors={**{p: 0.5 ** (i + 1) for i, p in enumerate(visits)},
                                    **{p: 0.01 / (i + 1) for i, p in enumerate(unvisited)}},
                            scores={p: (2.5 - i, 10.0) for i, p in enumerate(visits)})

    def genmove(self, board, color, komi, legal_moves, time_budget=None, stop=None, progress=None, interval=0.5,
                history=(), handicap=0, moves=0, time_limit=None, commit=True):
        self.calls.append(dict(board=board, color=color, komi=komi, legal=list(legal_moves),
                               time_budget=time_budget, history=list(history), handicap=handicap, moves=moves,
                               time_limit=time_limit, commit=commit, stop=stop))
        result = self._result(board, color, legal_moves)
        if progress is not None:
            progress(result)
        return result

    def analyze(self, board, color, komi, legal_moves, stop, progress, interval, history=()):
        result = self._result(board, color, legal_moves)
        while not stop.is_set():
            progress(result)
            stop.wait(interval)
        return result

    def new_game(self):
        self.new_games += 1


def make_engine(script=(), **kwargs):
    holder = {}

    def factory(options):
        holder["search"] = ScriptedSearch(options, script)
        return holder["search"]

    engine = GtpEngine(search_factory=factory, log=io.StringIO(), **kwargs)
    engine.holder = holder
    return engine


def send(engine, *lines):
    """The responses to lines (skipped lines give None)."""
    return [engine.execute(line) for line in lines]


def ok(engine, line):
    response = engine.execute(line)
    assert response.startswith("="), f"{line!r} -> {response!r}"
    return response[1:].split(" ", 1)[-1].rstrip("\n") if response.startswith("= ") else response[1:].rstrip("\n")


def error(engine, line):
    response = engine.execute(line)
    assert response.startswith("?"), f"{line!r} -> {response!r}"
    return response


def body(response):
    """The text of a one-line '= text' response."""
    assert response.startswith("=") and response.endswith("\n\n")
    return response.rstrip("\n")[1:].lstrip("0123456789").strip()


def state(engine):
    return engine.game.state_key(), repr(engine.time)


FRAME = re.compile(r"^[=?][0-9]*( [^\n]*)?(\n[^\n]+)*\n\n$", re.S)


def well_framed(response):
    return bool(FRAME.match(response)) and "\n\n" not in response[:-2]


# Parsers written from the published formats (KataGo's docs/GTP_Extensions.md, which documents
# Leela Zero's lz-analyze line too), not from foogo's output. A report is one line of `info`
# sections (and, for kata-analyze with `ownership true`, one `ownership` section); a section is
# key-value pairs in any order, `pv` taking every token up to the next section.

VERTEX = re.compile(r"(pass|resign|[A-HJ-Z]([1-9]|1[0-9]|2[0-5]))$")


def parse_report(line, size=9):
    """The sections of one analysis line: [(kind, {key: value or [tokens]})]; AssertionError if malformed."""
    tokens = line.split()
    sections = []
    i = 0
    while i < len(tokens):
        kind = tokens[i]
        assert kind in ("info", "ownership"), f"a section starts with info or ownership, got {kind!r}"
        i += 1
        if kind == "ownership":
            values = [float(v) for v in tokens[i:i + size * size]]
            assert len(values) == size * size and all(-1 <= v <= 1 for v in values)
            sections.append(("ownership", values))
            i += size * size
            continue
        fields = {}
        while i < len(tokens) and tokens[i] not in ("info", "ownership"):
            key = tokens[i]
            if key == "pv":
                j = i + 1
                while j < len(tokens) and tokens[j] not in ("info", "ownership"):
                    j += 1
                fields["pv"] = tokens[i + 1:j]
                assert all(VERTEX.match(v) for v in fields["pv"])
                i = j
            else:
                fields[key] = tokens[i + 1]
                i += 2
        assert VERTEX.match(fields["move"]) and int(fields["visits"]) >= 0
        sections.append(("info", fields))
    return sections


def check_lz(line, size=9):
    """Leela Zero's fields: winrate, prior and lcb integers in [0, 10000], order 0, 1, 2, ..."""
    infos = [f for kind, f in parse_report(line, size) if kind == "info"]
    for order, f in enumerate(infos):
        for key in ("winrate", "prior", "lcb"):
            assert re.fullmatch(r"\d+", f[key]) and 0 <= int(f[key]) <= 10000, (key, f[key])
        assert int(f["order"]) == order
    return infos


def check_kata(line, size=9):
    """KataGo's fields: winrate, prior, lcb floats in [0, 1], scores in points, order 0, 1, 2, ..."""
    sections = parse_report(line, size)
    infos = [f for kind, f in sections if kind == "info"]
    for order, f in enumerate(infos):
        for key in ("winrate", "prior", "lcb"):
            assert 0 <= float(f[key]) <= 1, (key, f[key])
        for key in ("scoreMean", "scoreLead", "scoreStdev"):
            float(f[key])
        assert float(f["scoreStdev"]) >= 0 and int(f["order"]) == order
    ownership = [values for kind, values in sections if kind == "ownership"]
    return infos, ownership[0] if ownership else None


def warming_engine(monkeypatch):
    """An engine (scripted to answer E5) whose background warm-up has started and holds until the
    returned Event is set: (engine, release)."""
    from foogo.gtp import command
    started, release = threading.Event(), threading.Event()

    def slow_warm_up(policy, threads=1, parallel="root"):
        started.set()
        release.wait(30)

    monkeypatch.setattr(command, "warm_up", slow_warm_up)
    engine = make_engine(script=["E5"])
    engine.kernels_ready = command.start_warm_up("heavy")
    assert started.wait(10)
    return engine, release


def serve_lines(engine, lines, wait_for="=", timeout=20.0, then=0.0):
    """Serve `engine` over a pipe: send the first line, wait until `wait_for` shows in the output (a string,
    or a test of the output so far) and `then` seconds more, send the rest; -> (the output, seconds from sending
    the rest to the end of serving)."""
    ready = wait_for if callable(wait_for) else (lambda text: wait_for in text)
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    writer = os.fdopen(write_fd, "wb", buffering=0)
    thread = threading.Thread(target=serve, args=(engine, os.fdopen(read_fd, "rb"), out), daemon=True)
    thread.start()
    writer.write(lines[0].encode() + b"\n")
    deadline = time.time() + timeout
    while not ready(out.getvalue()) and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(then)
    start = time.perf_counter()
    writer.write("".join(line + "\n" for line in lines[1:]).encode())
    writer.close()
    thread.join(timeout)
    assert not thread.is_alive()
    return out.getvalue(), time.perf_counter() - start
