"""The state machine: whole generated histories run on a driver and on the contract model.

Every step calls one contract method on the driver and on
:class:`~aalis_memory.conformance.machine.contract_model.ContractModel` and compares the results; a
disagreement goes to one blame service, which files it under the rule it breaks, with the history
cut down to a runnable snippet. The package is split by job:

- :mod:`.machine`: the one ``RuleBasedStateMachine``: every generated step, each handed to the
  step object of its method family, and where every history starts;
- :mod:`.inputs`: what is generated (sessions, messages, timestamps, limits, payloads);
- :mod:`.contract_model`: what the stores must hold;
- :mod:`.core`: what one history holds (the model, the stores, :mod:`.bookkeeping`) and the run's
  configuration (:class:`~.core.MachineConfig`, plain data); calling, comparing, crediting;
- :mod:`.stores`: the stores a history drives and what their drivers declare;
- :mod:`.message_steps` (saves, window reads), :mod:`.change_steps` (archives, clears, rewrites,
  deletions), :mod:`.query_steps` (range and cross-session reads), :mod:`.metadata_steps`: the
  step objects; :mod:`.state_checks`, :mod:`.derived_reads`, :mod:`.metadata_state`: the checks
  of the state a step may have changed;
- :mod:`.blame`: the blame service, one entry point for every disagreement; behind it
  :mod:`.attribution` (which rules a call exercises, which one a divergence is filed under),
  :mod:`.tolerance` (how a run goes on past a broken rule), :mod:`.failure` (the typed failure),
  :mod:`.snippets` (reproductions) and :mod:`.minimizer` (cutting a failing history down);
- :mod:`.ledger`: the checks a run really performed, per rule (``PROP_CHECKED``);
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
