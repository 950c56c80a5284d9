"""python/examples/fit.py runs, prints its progress and fits (shortened)."""

import os
import re
import subprocess
import sys

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "fit.py")


def test_fit_example(tmp_path):
    result = subprocess.run(
        [sys.executable, EXAMPLE, "--size", "32", "--steps", "150", "--every", "50",
         "--width", "32", "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert len(re.findall(r"^step +\d+/150  loss ", out, re.M)) == 3, out
    first, last = map(float, re.search(r"fit: loss (\S+) -> (\S+) ", out).groups())
    assert last < first / 10, out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in out
    else:
        for name in ("fit-loss.png", "fit-image.png"):
            with open(tmp_path / name, "rb") as f:
                assert f.read(8) == b"\x89PNG\r\n\x1a\n", name
