"""Mutation testing of the reference drivers (``python -m mutation``; the ``mutation`` tox env).

A small AST mutator of its own, because the package-dir mapping of this repository (``drivers/``
installs as ``aalis_memory.drivers``) defeats tools that copy sources to another tree, and the
files in the work tree are never rewritten: each mutant is compiled in a child interpreter and
served to the import system under the real module name, so an interrupted run leaves nothing
behind. See README.md, section Development.
"""
