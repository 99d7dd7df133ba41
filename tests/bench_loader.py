"""What the tests of bench/'s scripts share: where the scripts are, and `load`, which imports one as a module."""

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name):
    """A bench script as a module, registered under its name: numba's cache records the module of each
    cached kernel and imports it again when it loads one (unregistered it would be '<dynamic>', and a
    second run, loading from the cache the first wrote, would fail). bench/ is on sys.path while it loads,
    as when it runs, for its imports of other bench modules (option_caps); the scripts do not edit sys.path
    for their own directory, which Python puts first when they run, so a test that calls a main whose imports
    are lazy puts it there too."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module
