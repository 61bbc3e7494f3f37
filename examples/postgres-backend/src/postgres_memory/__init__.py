"""An Aalis MemoryService backend on PostgreSQL: one schema per store (the conformance kit's
example server backend)."""

from postgres_memory.store import PostgresMemory

__all__ = ["PostgresMemory"]
