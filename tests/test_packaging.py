"""A wheel built from the checkout holds every module and data file of the package (an install
that is not editable runs from the wheel: a package missing from pyproject's list, as foogo.gtp
once was, installs a foogo without `foogo gtp`)."""

import pathlib
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_wheel_holds_every_module_and_data_file(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                    "-w", str(tmp_path)], check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("foogo-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {p.relative_to(ROOT).as_posix() for p in (ROOT / "foogo").rglob("*")
              if p.suffix in (".py", ".npz", ".json") and "__pycache__" not in p.parts}
    assert wanted and not wanted - names, sorted(wanted - names)
