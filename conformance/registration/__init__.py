"""Driver registration: the registry and its named entries, the capability tiers and
what a test requires of a driver, and how values cross a driver's transport."""
