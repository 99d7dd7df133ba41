"""One owner per packed layout: only board_layout.py spells offsets into a position's arrays.

Every other module (and every other test) reads and writes a position through board_layout's
named accessors (color_at, head_of, string_in_atari, empty_base, section_view, ...), so the
layout can change in one file. This test fails on the raw spellings elsewhere.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
OWNER = ROOT / "foogo" / "board_layout.py"
SECTIONS = "COLOR|HEAD|NEXT|PLN|PLS|PLQ|SSIZE|NBR|MARK|QUEUE"
FORBIDDEN = {
    "the meta block's end (META)": re.compile(r"\bMETA\b"),
    "the point record's width (POINT_FIELDS)": re.compile(r"\bPOINT_FIELDS\b"),
    "a bitset's start in z (z[1 + ...], z[1 : ...])": re.compile(r"\bz\w*\[\s*1\s*[+:]"),
}


def sources():
    files = sorted((ROOT / "foogo").rglob("*.py")) + sorted((ROOT / "bench").glob("*.py"))
    files += sorted((ROOT / "tests").glob("*.py"))
    return [f for f in files if f != OWNER and f.name != "test_layout.py"]


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_raw_layout_offsets_outside_board_layout(path):
    found = [f"{path.name}:{n}: {what}: {line.strip()}"
             for n, line in enumerate(path.read_text().splitlines(), 1)
             for what, pattern in FORBIDDEN.items() if pattern.search(line)]
    assert not found, "\n".join(found)


SECTION_OFFSET = re.compile(rf"\b(?:bk\.)?(?:{SECTIONS})\s*\*\s*\w")  # SECTION * P: a layout nobody may assume


def test_no_section_arithmetic_anywhere():
    found = [f"{path.name}:{n}: {line.strip()}" for path in sources() + [OWNER]
             for n, line in enumerate(path.read_text().splitlines(), 1) if SECTION_OFFSET.search(line)]
    assert not found, "\n".join(found)


def test_the_owner_itself_spells_them():
    text = OWNER.read_text()
    assert all(pattern.search(text) for pattern in FORBIDDEN.values())


# ---------------------------------------------------------------- data flows one way

# geometry -> board -> policy -> playout -> game -> search -> gtp / match / stats / bench -> cli, with
# the kernels beside their modules, render (pictures of any board-like object) between geometry
# and board, the learned prior's move features (read by the search, built on the policy's 3x3
# codes) beside the playouts, the opening book (positions read off a Board) beside the game, leaves
# that import nothing of foogo below all (files, which writes and opens every file, below the compiler
# set-up, which keeps its record of the kernels' code through it), and the GTP client (which opens its
# logs through files) just above
LAYERS = {
    "files": -1, "interrupts": -1, "jit": 0, "intrinsics": 0, "bits": 0, "intervals": 0, "numbers": 0, "cores": 0,
    "version": 0,
    "gtp_client": 1, "geometry": 1, "render": 2,
    "board_layout": 3, "board_moves": 3, "board_playable": 3, "board_liberties": 3, "board_score": 3, "board_check": 3,
    "board_kernels": 3, "board": 3,
    "patterns": 4, "nakade": 4, "random_stream": 4, "policy_light": 4, "tactics": 4, "policy_local": 4,
    "policy_heavy": 4, "policy": 4, "playout": 5, "playout_ownership": 5, "playout_check": 5,
    "features": 5, "spatial_patterns": 5, "spatial_table": 5, "gamma_table": 5, "ladders": 5,
    "game": 6, "game_handicap": 6, "game_score": 6, "game_sgf": 6, "book": 6,
    "tree_layout": 7, "tree_priors": 7, "tree_select": 7, "tree_grow": 7, "tree_superko": 7, "tree_score": 7,
    "tree": 7,
    "shared_root": 7, "search_tree": 7, "dynamic_komi": 7, "search_bank": 7, "search_room": 7, "search_time": 7,
    "search_config": 7, "search_result": 7, "search_run": 7, "search": 7,
    "gtp": 8, "match": 8, "match_command": 8, "match_files": 8, "match_results": 8, "match_clock": 8,
    "match_openings": 8, "match_settings": 8, "match_engines": 8, "match_game": 8, "stats": 8,
    "bench": 8, "compile_kernels": 8, "cli": 9,
}
TREE_KERNELS = ("tree_layout", "tree_priors", "tree_select", "tree_grow", "tree_superko", "tree_score", "tree")
BOARD_KERNELS = ("board_layout", "board_moves", "board_playable", "board_liberties", "board_score", "board_check",
                 "board_kernels")
GROUPS = {**{name: "board" for name in BOARD_KERNELS}, **{name: "search" for name in TREE_KERNELS},
          "shared_root": "search", "search_tree": "search", "dynamic_komi": "search", "search_bank": "search",
          "search_room": "search", "search_time": "search",
          "search_config": "search", "search_result": "search", "search_run": "search",
          "bits": "jit", "intrinsics": "jit",
          "ladders": "features", "spatial_patterns": "features", "spatial_table": "features",
          "gamma_table": "features",
          "playout_ownership": "playout", "playout_check": "playout",
          "patterns": "policy", "nakade": "policy",
          "random_stream": "policy", "policy_light": "policy", "tactics": "policy", "policy_local": "policy",
          "policy_heavy": "policy",
          "game_handicap": "game", "game_score": "game", "game_sgf": "game", "match_results": "match",
          "match_clock": "match", "match_command": "match", "match_files": "match", "match_openings": "match",
          "match_settings": "match", "match_engines": "match", "match_game": "match"}
# kernels with their drivers (the board's in one module per job, board_kernels their namespace), and
# root sharing with the search that drives it; bit intrinsics with the compiler set-up; the ladder
# reader, the move's spatial codes and their gammas' hash table with the features that read them, and
# the shipped gamma table with them; the 3x3 pattern table, the nakade test, the random stream,
# self-atari and the light and heavy choosers with the policy seam;
# the playouts' ownership sums and move-by-move checked playouts with the playout loop;
# the game's scoring, SGF and handicap modules with the game;
# a match's results, clocks, files, openings, settings and command line with the match runner


def foogo_imports(path):
    """The foogo modules (first component under foogo) a file imports, lazily or not."""
    import ast
    package = path.relative_to(ROOT / "foogo").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[:len(package) - node.level + 1]) if node.level <= len(package) + 1 else []
                parts = base + (node.module.split(".") if node.module else [])
                names = [parts] if node.module else [base + [alias.name] for alias in node.names]
            elif node.module and node.module.split(".")[0] == "foogo":
                names = [node.module.split(".")[1:]]
            else:
                continue
            found |= {n[0] for n in names if n and not n[0].startswith("__")}  # not __version__
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("foogo.")}
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "foogo").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_module_to_its_right(path):
    rel = path.relative_to(ROOT / "foogo").parts
    module = rel[0][:-3] if len(rel) == 1 else rel[0]
    if module in ("__init__", "__main__"):
        return  # the package's face re-exports from every layer
    assert module in LAYERS, f"{module} has no place in the data flow: add it to LAYERS"
    group = GROUPS.get(module, module)
    for target in foogo_imports(path) - {module}:
        assert target in LAYERS, f"{path.name} imports {target}, which has no place in LAYERS"
        same = LAYERS[target] == LAYERS[module] and GROUPS.get(target, target) == group
        assert LAYERS[target] < LAYERS[module] or same, f"{'/'.join(rel)} imports {target}, to its right"


def test_the_package_imports_its_engine_only_when_a_name_of_it_is_used():
    """`import foogo` and `foogo match` start without numba; every public name still resolves, and
    foogo.geometry stays the function even after its module is imported by the board."""
    import subprocess
    import sys
    script = """
import sys, foogo
assert "numba" not in sys.modules, "import foogo loaded numba"
import foogo.match_command
assert "numba" not in sys.modules, "foogo match's modules loaded numba"
from foogo import Board, geometry
assert callable(geometry) and geometry(9).size == 9 and Board(5).size == 5
import foogo.board_kernels
assert foogo.geometry is geometry
assert all(hasattr(foogo, name) for name in foogo.__all__)
assert set(foogo.__all__) == set(foogo._EXPORTS) | {"BLACK", "WHITE", "EMPTY", "PASS", "geometry", "opponent",
                                                    "parse_color", "__version__"}
try:
    foogo.nothing
except AttributeError:
    pass
else:
    raise AssertionError("foogo.nothing")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=pathlib.Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
