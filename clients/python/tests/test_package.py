"""The package as users get it: the README quickstart (at most 10 lines) run verbatim against the
dev stack, the example playing every game, and `python -m build` making an sdist and a wheel that
carry the wasm verifier and py.typed (their files and sizes printed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

from stack import HERE, start_stack

PACKAGE = HERE.parent


def quickstart() -> str:
    readme = (PACKAGE / "README.md").read_text()
    section = readme.split("## Quickstart", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


class ThePackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = start_stack()
        cls.env = {**os.environ, "ARCADE_URL": cls.stack.base_url, "PYTHONPATH": str(PACKAGE / "src")}

    @classmethod
    def tearDownClass(cls) -> None:
        cls.stack.stop()

    def test_the_readme_quickstart_runs_verbatim(self) -> None:
        code = quickstart()
        self.assertLessEqual(len(code.strip().splitlines()), 10)
        out = subprocess.run([sys.executable, "-c", code], env=self.env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        print(f"\nREADME quickstart:\n{code}output: {out.stdout}")
        self.assertTrue(out.stdout.startswith("True "), out.stdout)

    def test_the_example_plays_every_game_and_prints_each_proof(self) -> None:
        out = subprocess.run([sys.executable, str(PACKAGE / "examples" / "play_every_game.py")], env=self.env,
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        for game in ("coinflip", "dice", "roulette", "limbo"):
            self.assertIn(f"{game}: bet ", out.stdout)
        self.assertEqual(out.stdout.count("verdict pass"), 4)
        self.assertEqual(out.stdout.count("  ok inclusion"), 4)

    def test_python_m_build_makes_an_sdist_and_a_wheel_with_the_verifier(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            done = subprocess.run([sys.executable, "-m", "build", "--outdir", out, str(PACKAGE)],
                                  capture_output=True, text=True, timeout=600)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            built = sorted(Path(out).iterdir(), key=lambda p: p.suffix)
            self.assertEqual([p.suffix for p in built], [".gz", ".whl"])
            print("\npython -m build:")
            for path in built:
                print(f"  {path.name}: {path.stat().st_size} bytes")
            wheel = zipfile.ZipFile(built[1])
            for info in wheel.infolist():
                print(f"    {info.filename} {info.file_size}")
            names = wheel.namelist()
            self.assertIn("arcade_client/verifier_abi.wasm", names)
            self.assertIn("arcade_client/py.typed", names)


if __name__ == "__main__":
    unittest.main()
