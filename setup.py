"""Build hook only (all metadata is in pyproject.toml): ship SPEC_MAP.md inside the wheel.

The rule map stays at the repository root, where the README links it and CI checks that it is
the generated one; users of an installed kit get the same bytes as package data,
``importlib.resources.files("aalis_memory.conformance") / "SPEC_MAP.md"``. A copy made at build
time cannot drift from the checked file, and the sdist carries it (MANIFEST.in).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Repository file -> its place inside the built package tree.
SHIPPED = {"SPEC_MAP.md": Path("aalis_memory", "conformance", "SPEC_MAP.md")}


class BuildPyShippingRepoFiles(build_py):
    """``build_py`` that also copies the repository files in ``SHIPPED`` into the package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the repository, nothing to copy
            return
        for source, target in SHIPPED.items():
            path = ROOT / source
            if not path.is_file():
                raise FileNotFoundError(f"{path} is missing: the wheel must ship it")
            self.copy_file(str(path), str(Path(self.build_lib) / target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode),
                *(str(Path(self.build_lib) / target) for target in SHIPPED.values())]


setup(cmdclass={"build_py": BuildPyShippingRepoFiles})
