"""Verdicts: the model (what the kit may say about a rule), the reporter that turns test
ends into outcomes, and the rendering of the terminal summary, JSON, Markdown and JUnit."""
