"""The state machine: whole generated histories run on a driver and on the contract model.

Every step calls one contract method on the driver and on
:class:`~aalis_memory.conformance.machine.contract_model.ContractModel` and compares the results; a
divergence is reported under the rule it breaks, with the history cut down to a runnable snippet.
The package is split by job:

- :mod:`.inputs`: what is generated (sessions, messages, timestamps, limits, payloads);
- :mod:`.core`: the stores, calling and comparing, the session state checks;
- :mod:`.derived_reads`, :mod:`.metadata_state`: the range, cross-session and metadata checks
  after every step;
- :mod:`.message_steps`, :mod:`.metadata_steps`: the generated steps;
  :mod:`.memory_machine`: both over one core, and where every history starts;
- :mod:`.attribution`: which rules a call exercises and which one a divergence is filed under;
- :mod:`.ledger`: the checks a run really performed, per rule (``PROP_CHECKED``);
- :mod:`.tolerance`: how a non-strict run goes on past a broken SHOULD rule;
- :mod:`.failure`: the typed failure and the advisories;
- :mod:`.snippets`: reproduction snippets; :mod:`.minimizer`: cutting a failing history down;
- :mod:`.budget`: profiles and time budgets; :mod:`.runner`: one run for one test.

The suite test is ``aalis_memory.conformance.suite.state_machine``.
"""

from aalis_memory.conformance.machine.attribution import COVERED_RULES
from aalis_memory.conformance.machine.budget import BUDGET_ROUND, PROFILES
from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.failure import Advisory, MachineFailure
from aalis_memory.conformance.machine.runner import MachineRun, machine_for, run_machine

__all__ = [
    "BUDGET_ROUND",
    "COVERED_RULES",
    "PROFILES",
    "Advisory",
    "MachineFailure",
    "MachineRun",
    "Target",
    "machine_for",
    "run_machine",
]
