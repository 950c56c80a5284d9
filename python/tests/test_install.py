"""The package outside the source tree: the build tree's copy
(<build>/python) and `cmake --install` into a fresh prefix, each finding its
own libcoopvec without COOPVEC_LIBRARY."""

import os
import subprocess
import sys

SCRIPT = """
import numpy as np, coopvec
from coopvec import nn
print("package", coopvec.__file__)
print("library", coopvec.library_path())
net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
packed = nn.pack(net.alloc(np.float32, rng=np.random.default_rng(0)))
model = coopvec.compile(packed)
x = np.ones((5, 3), np.float32)
p = nn.unpack(packed)
ref = np.tanh(x @ p["0.weight"].T + p["0.bias"]) @ p["2.weight"].T + p["2.bias"]
assert np.allclose(model(x), ref, rtol=1e-5, atol=1e-6)
dx, db = model.backward(x, np.ones((5, 2), np.float32))
print("ok", coopvec.version())
"""


def run_isolated(pythonpath, cwd):
    """SCRIPT in a fresh interpreter that sees only `pythonpath` (and the
    system's NumPy), not the source tree or COOPVEC_LIBRARY."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "COOPVEC_LIBRARY")}
    env["PYTHONPATH"] = pythonpath
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=cwd,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    return lines


def test_build_tree_package(build_dir, tmp_path):
    lines = run_isolated(os.path.join(build_dir, "python"), tmp_path)
    assert lines["package"].startswith(os.path.join(build_dir, "python", "coopvec"))
    assert lines["library"].startswith(os.path.join(build_dir, "lib", "libcoopvec.so"))
    assert lines["ok"]


def test_cmake_install(build_dir, tmp_path):
    prefix = tmp_path / "prefix"
    cmake = os.environ.get("COOPVEC_CMAKE", "cmake")
    install = subprocess.run([cmake, "--install", build_dir, "--prefix", str(prefix)],
                             capture_output=True, text=True)
    assert install.returncode == 0, install.stdout + install.stderr
    package = prefix / "lib" / "python3" / "dist-packages" / "coopvec"
    assert (package / "__init__.py").is_file() and (package / "_config.py").is_file()
    assert not (package / "__init__.py").is_symlink()
    assert (prefix / "share" / "coopvec" / "examples" / "python" / "fit.py").is_file()
    lines = run_isolated(str(package.parent), tmp_path)
    assert lines["package"].startswith(str(package))
    library = os.path.realpath(lines["library"])
    assert library.startswith(os.path.realpath(prefix)), library
    assert os.path.isfile(library)
    assert lines["ok"]
