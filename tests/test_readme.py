"""The README's Python example runs as written (doctest), and the results files it and bench/RESULTS.md name exist."""

import doctest
import fnmatch
import pathlib
import re

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_python_example_runs():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


RESULTS = README.parent / "bench" / "RESULTS.md"
RESULT_FILES = README.parent / "bench" / "results"
# named in RESULTS.md as it was kept once, then shipped under another name (its text says which)
MOVED = {"gammas-candidate-matches-2026-11-29.npz"}


def named_result_files(text: str) -> set[str]:
    """The file names under bench/results/ (or results/, RESULTS.md's own spelling) that `text` names in
    backquotes, with any `*` pattern kept as it is."""
    return {m.rstrip(".,") for m in re.findall(r"`(?:bench/)?results/([A-Za-z0-9_.*-]+)", text)}


def test_every_results_file_the_docs_name_is_in_the_repository():
    present = [p.name for p in RESULT_FILES.iterdir()]
    missing = []
    for doc in (README, RESULTS):
        for name in sorted(named_result_files(doc.read_text(encoding="utf-8")) - MOVED):
            if not any(fnmatch.fnmatch(p, name) or p.startswith(name) for p in present):
                missing.append(f"{doc.name}: {name}")
    assert not missing, missing
    assert named_result_files("see `bench/results/a-b.txt`, and `results/c*.json`.") == {"a-b.txt", "c*.json"}
