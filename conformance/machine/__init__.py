"""The state machine: whole generated histories run on a driver and on the contract model.

Every step calls one contract method on the driver and on
:class:`~aalis_memory.conformance.machine.contract_model.ContractModel` and compares the results; a
divergence is reported under the rule it breaks, with the history cut down to a runnable snippet.
The state a history builds up lives in the model and in a few objects with one job each; the
machine's classes hold the steps and the checks, and delegate to them. The package is split by
job:

- :mod:`.inputs`: what is generated (sessions, messages, timestamps, limits, payloads);
- :mod:`.contract_model`: what the stores must hold;
- :mod:`.stores`: the stores a history drives (their lifecycle, the calls) and what their drivers
  declare; :mod:`.bookkeeping`: the rest of what a history accumulates (its clock, counts, the
  current step's marks, the record a failure is reproduced from, what the metadata checks
  remember);
- :mod:`.core`: the machine's core, holding those objects: calling, comparing, crediting;
- :mod:`.state_checks`, :mod:`.derived_reads`, :mod:`.metadata_state`: the session state,
  range, cross-session and metadata checks after every step;
- :mod:`.message_steps` (saves, window reads), :mod:`.change_steps` (archives, clears, rewrites,
  deletions), :mod:`.query_steps` (range and cross-session reads), :mod:`.metadata_steps`: the
  generated steps; :mod:`.memory_machine`: all of them over one core, and where every history
  starts;
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
from aalis_memory.conformance.machine.failure import Advisory, MachineFailure
from aalis_memory.conformance.machine.runner import MachineRun, machine_for, run_machine
from aalis_memory.conformance.machine.stores import Target

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
