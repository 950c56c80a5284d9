"""python/examples/fit.py runs, prints its progress and fits (shortened)."""

import os
import re
import subprocess
import sys

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "fit.py")


def run(tmp_path, *args):
    result = subprocess.run([sys.executable, EXAMPLE, *args, "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def curve(out, encoding):
    return [float(v) for v in re.findall(rf"^fit\[{encoding}\]: +\S+ s +step +\d+ +"
                                         r"PSNR +(\S+) dB", out, re.M)]


def test_fit_example(tmp_path):
    out = run(tmp_path, "--size", "40", "--seconds", "2", "--every", "0.5",
              "--encoding", "hashgrid,sin,none", "--levels", "4",
              "--log2-table-size", "8", "--base-resolution", "4", "--batch", "512")
    for encoding in ("hashgrid", "sin", "none"):
        values = curve(out, encoding)
        assert len(values) >= 3, out
        assert re.search(rf"^fit: {encoding} +\d+ parameters +\d+ steps", out, re.M), out
    # The hash grid learns: at least 6 dB better than the start.
    values = curve(out, "hashgrid")
    assert values[-1] > values[0] + 6, out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in out
    else:
        for name in ("fit-psnr.png", "fit-hashgrid.png", "fit-sin.png", "fit-none.png"):
            with open(tmp_path / name, "rb") as f:
                assert f.read(8) == b"\x89PNG\r\n\x1a\n", name


def test_fit_example_f16(tmp_path):
    out = run(tmp_path, "--size", "32", "--seconds", "1.5", "--every", "0.5",
              "--dtype", "f16", "--levels", "3", "--log2-table-size", "7",
              "--base-resolution", "4", "--batch", "256", "--no-plots")
    values = curve(out, "hashgrid")
    assert values[-1] > values[0] + 3, out


def test_fit_example_rejects_unknown_encoding(tmp_path):
    result = subprocess.run([sys.executable, EXAMPLE, "--encoding", "fourier"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown encoding 'fourier'" in result.stderr
