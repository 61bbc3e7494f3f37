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
    """``build_py`` that also copies the repository files in ``SHIPPED`` into the package.

    A wheel gets copies. An editable install gets the mapping instead (output -> repository
    file), so a ``editable_mode=strict`` link tree links the repository's own file.
    """

    def _targets(self) -> dict[str, str]:
        targets = {}
        for source, target in SHIPPED.items():
            path = ROOT / source
            if not path.is_file():
                raise FileNotFoundError(f"{path} is missing: the wheel must ship it")
            targets[str(Path(self.build_lib) / target)] = str(path)
        return targets

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            for target, source in self._targets().items():
                self.copy_file(source, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *self._targets()]

    def get_output_mapping(self) -> dict[str, str]:
        return {**super().get_output_mapping(), **self._targets()}


setup(cmdclass={"build_py": BuildPyShippingRepoFiles})
