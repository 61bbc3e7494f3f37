"""The kit's own tests: pytester drives the plugin in fresh interpreters where isolation matters."""

pytest_plugins = ["pytester"]
