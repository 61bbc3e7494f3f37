"""Probes that run a driver harder than one call at a time: concurrent readers of a write,
the crash writer child, and the scaling probe."""
