"""An Aalis MemoryService backend kept in one JSON file."""

from jsonfile_memory.store import JsonFileMemory

__all__ = ["JsonFileMemory"]
