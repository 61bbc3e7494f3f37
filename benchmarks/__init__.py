"""Benchmarks of the reference drivers against their raw engines (``python -m benchmarks``).

Each driver call is timed against the raw engine doing the same work, in the same run, the two
interleaved in every repetition, and reported as a ratio of medians: a ratio survives a loaded
machine, an absolute time does not. See ``python -m benchmarks --help``.
"""
