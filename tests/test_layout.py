"""One owner per packed layout: only board_kernels.py spells offsets into a position's arrays.

Every other module (and every other test) reads and writes a position through board_kernels'
named accessors (color_at, head_of, string_in_atari, empty_base, section_view, ...), so the
layout can change in one file. This test fails on the raw spellings elsewhere.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
OWNER = ROOT / "foogo" / "board_kernels.py"
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
def test_no_raw_layout_offsets_outside_board_kernels(path):
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
