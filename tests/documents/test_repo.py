"""The repository keeps its promises: README commands, CI script, installed namespace."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README.md must open with a sh block of the two commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2, commands
    assert "--memory-driver=inmemory,sqlite" in commands[0]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert script[-1] == readme_commands()[1]


def test_no_generic_top_level_modules_are_installed() -> None:
    import aalis_memory.conformance
    import aalis_memory.drivers
    import aalis_memory.fixtures

    for module in (aalis_memory.conformance, aalis_memory.drivers, aalis_memory.fixtures):
        assert module.__name__.startswith("aalis_memory.")
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    packages = re.search(r"^packages = \[(.*?)\]", pyproject, re.M | re.S)
    assert packages
    assert all(name.strip().strip('"').startswith("aalis_memory") for name in packages.group(1).split(","))


def test_the_layout_table_has_a_row_for_every_package_folder() -> None:
    """A newcomer finds each room of the installed package in the README's layout table."""
    table = (REPO / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    folders = sorted(
        str(init.parent.relative_to(REPO))
        for top in ("conformance", "drivers", "fixtures")
        for init in (REPO / top).rglob("__init__.py")
        if init.parent.parent == REPO / top or init.parent.parent.parent == REPO / "conformance"
    )
    missing = [f for f in folders if f"`{f}/`" not in table and f"{Path(f).name}/" not in table]
    assert not missing, f"folders without a row in the README's layout table: {missing}"
