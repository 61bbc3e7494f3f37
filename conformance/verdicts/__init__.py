"""Verdicts: the one record a check's result is and how a rule's records add up (``model``),
the judging of a test phase (``judging``), the reporter's pytest hooks that carry the records
(``reporter``), and the outputs that render them: the terminal summary, JSON and Markdown."""
