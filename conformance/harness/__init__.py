"""The harness around every driver call: the guarded store (timeouts, run health, the
lifecycle of a store), the run's state, the watchdog of the event loop, and the split of a test's
calls into the call under test and the steps around it."""
