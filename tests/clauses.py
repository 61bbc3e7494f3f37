"""Which case of its test exercises each clause of a rule's text (tests/documents/test_clause_coverage.py).

One entry per rule of the catalogue, ``"AREA-NN <hash>": {clause: case, ...}``:

- ``<hash>``: the first 8 hex digits of the SHA-256 of the rule's text (its summary) the entry was
  read against. When the text changes, the check fails and prints the new hash: read the clauses
  again against the new text, give a new clause its case, then write the new hash.
- ``clause``: a verbatim part of the rule's text, as short as still tells the clause apart (a rule
  of one clause is quoted by its opening words).
- ``case``: ``"test_name"``, a test charged to the rule (its ``aalis_spec`` marker) that is the case
  as a whole, or ``"test_name: label"`` when the case is one of several in that test: ``label`` is
  text its source holds (the call its check names, an input, a key of its case table), looked for
  in the test and in the tables and helpers it uses (see ``case_source`` in the check). A clause no
  test can exercise is ``NO_CASE + "why"``.

Kept by hand, one clause to a line (ruff's format leaves it alone). The table names tests and never
imports them: a renamed test or a removed case fails the check.
"""

from __future__ import annotations

from typing import Final

#: A clause's case, written ``test`` or ``test: label``.
Case = str

#: The prefix of a clause no test can exercise, followed by the reason.
NO_CASE: Final = "no case: "

#: Clauses whose case a branch in flight adds (``(rule ID, clause)``): each may be missing until
#: that branch merges, and the check fails once it exists, so whoever merges takes it out. Empty
#: on main.
PENDING_CASES: Final[frozenset[tuple[str, str]]] = frozenset()

CLAUSES: Final[dict[str, dict[str, Case]]] = {
    # -- conformance/rules/required.py -------------------------------------------------------------
    "REQ-01 9c8b89fe": {
        "A backend implements every required method": "test_every_required_method_is_there",
    },
    # -- conformance/rules/messages.py -------------------------------------------------------------
    "LIM-01 a45a5ff1": {
        "A limit of 0 yields an empty list": "test_history_limit_zero_is_empty",
        "get_history,": "test_history_limit_zero_is_empty_with_markers_only",
        "get_full_history,": "test_full_history_limit_zero_is_empty",
        "cross-session read": "test_cross_session_limit_zero_is_empty",
    },
    "LIM-02 5c076ffb": {
        "A limit of math.inf yields every matching message": "test_history_limit_inf_is_everything",
        "(get_history,": "test_history_limit_inf_is_everything",
        "get_full_history)": "test_full_history_limit_inf_is_everything",
    },
    "LIM-03 077652eb": {
        "update_message_content with recent_limit 0 rewrites nothing": "test_update_recent_limit_zero_changes_nothing",
        "math.inf covers the whole active history": "test_update_recent_limit_inf_covers_all_active",
    },
    "LIM-04 7868532b": {
        "A cross-session read with limit math.inf is still narrowed": "test_cross_session_inf_is_capped",
    },
    "LIM-05 bfe976ba": {
        "(get_history)": "test_history_default_limit",
        "(get_full_history)": "test_full_history_default_limit",
        "(update_message_content)": "test_update_default_recent_limit",
    },
    "LIM-06 acf266c7": {
        "A negative": "test_history_bad_limit_raises: -1",
        "NaN": "test_history_bad_limit_raises: math.nan",
        "fractional": "test_history_bad_limit_raises: 2.5",
        "bool": "test_bool_limit_raises",
        "non-numeric limit": 'test_history_bad_limit_raises: "5"',
        "raises ValueError and changes nothing": "test_update_bad_recent_limit_raises_and_changes_nothing",
    },
    "LIM-07 63dd45a9": {
        "limits of 2**63 - 1, 2**63 and past 64 bits": "test_huge_finite_limits_read_everything: huge_limits",
        "read the whole history (get_history, get_full_history)": "test_huge_finite_limits_read_everything: get_full_history",
        "rewrite the whole active history (update_message_content)": "test_huge_finite_recent_limits_rewrite_everything",
    },
    "MSG-01 8b38b28f": {
        "one session never sees another's messages": "test_sessions_do_not_share_history",
    },
    "MSG-02 3777f273": {
        "Every Message field other than kind round-trips unchanged": "test_every_field_round_trips",
        "images and audios included": "test_every_field_round_trips: audios",
        "absent fields come back absent, not as empty values": "test_every_field_round_trips: BARE",
    },
    "MSG-03 752294e2": {
        "stamped with the current epoch milliseconds": "test_missing_timestamp_is_stamped_at_save",
        "returned with that stamp": "test_missing_timestamp_is_stamped_at_save: timestamp read a second time",
    },
    "MSG-04 8a5ba198": {
        "[] for lists": "test_unknown_session_reads_empty",
        "0 for counts": "test_unknown_session_counts_zero",
        "archive results": "test_unknown_session_reads_empty: archive_span(unknown, 3)",
    },
    "MSG-05 d434963c": {
        "A message's kind comes back as it was saved": "test_kinds_come_back_with_the_history",
        "no kind stays no kind": 'test_kinds_come_back_with_the_history: msg("hi", 1000)',
    },
    "MSG-06 9522f4a9": {
        "clear_session": "test_clear_session_leaves_other_sessions_archive",
        "delete_messages_by_timestamps change only the session they name": "test_delete_by_timestamps_leaves_other_sessions_archive",
        "active and archived, stay as they were": "test_clear_session_leaves_other_sessions_archive",
    },
    "MSG-07 5c9fd390": {
        "comes back absent, not as null": "test_absent_fields_come_back_absent",
        "reasoningContent: absent where it was saved absent": "test_absent_fields_come_back_absent: reasoning_content absent in get_history",
    },
    "HIST-01 fae7d4b9": {
        "get_history returns only active (not archived) messages": "test_history_leaves_out_archived",
    },
    "HIST-02 496a21dd": {
        "get_history is ascending by time": "test_history_is_ascending",
        "messages of the same millisecond keep write order": "test_history_same_millisecond_keeps_write_order",
        "write-ordered drivers: plain write order": "test_history_puts_late_arrivals_in_timestamp_order: requires.timestamp_ordering",
    },
    "HIST-03 de820ab0": {
        "The limit counts conversation messages only": "test_history_limit_counts_only_conversation",
        "CONTROL_KINDS records never use it up": "test_history_trailing_markers_use_no_slot",
    },
    "HIST-04 bf74bc4c": {
        "after the (limit+1)-th newest conversation message": "test_history_window_starts_after_a_system_role_message",
        "control records in between included": "test_history_window_keeps_markers_in_between",
    },
    "HIST-05 620a2e23": {
        "With at most limit conversation messages": "test_history_within_limit_is_everything_active",
        "leading control records included": "test_history_within_limit_keeps_markers_of_every_role",
    },
    "COUNT-01 bd2cb81c": {
        "count_history is the number of active conversation messages": "test_count_history_counts_active_conversation",
        "the same figure as the non-control part of get_history(session, inf)": "test_count_history_ignores_the_role_of_a_record",
    },
    "FULL-01 6b037aa6": {
        "get_full_history includes archived messages": "test_full_history_includes_archived",
    },
    "FULL-02 443ceaba": {
        "get_full_history returns the newest limit messages": "test_full_history_limit_counts_markers",
        "control records counting toward the limit": "test_full_history_limit_counts_markers",
        "in ascending order": "test_full_history_puts_late_arrivals_in_timestamp_order",
    },
    "ARCH-01 f1eba074": {
        "archive_span archives the earliest count active messages": "test_archive_takes_the_earliest",
        "in get_history order": "test_archive_follows_timestamp_order",
    },
    "ARCH-02 73e3c175": {
        "Positions listed in keep (0-based within the span) stay active and unchanged": "test_archive_keep_stays_active_and_unchanged",
    },
    "ARCH-03 d595ba7c": {
        "count and keep are positions in get_history(session, inf)": "test_archive_keep_positions_count_markers",
        "control records occupy positions too": "test_archive_counts_markers_as_positions",
    },
    "ARCH-04 b3a4cc4d": {
        "count 0 archives nothing": "test_archive_count_zero_archives_nothing",
    },
    "ARCH-05 80ecd9dc": {
        "A count above the number of active messages": "test_archive_count_above_active_takes_everything",
    },
    "ARCH-06 32535f8c": {
        "keep positions outside the span do nothing": "test_archive_keep_beyond_the_active_history",
        "a repeated position acts once": "test_archive_keep_duplicates_and_outside_positions: [1, 1, 7, 3]",
    },
    "ARCH-07 b15c1a6a": {
        "archive_span returns how many messages it archived": "test_archive_returns_the_number_archived",
    },
    "ARCH-08 765c6205": {
        "Positions are taken from the active history at call time": "test_archive_positions_include_late_arrivals",
        "earlier archives are not counted": "test_archive_after_archive_counts_only_active",
        "messages appended afterwards are outside the span": "test_archive_leaves_later_appends_alone",
    },
    "ARCH-09 adece3d0": {
        "Archived messages leave get_history but stay in get_full_history": "test_archived_stay_in_full_history_in_place",
        "interleaved with the kept ones in their original order": "test_archived_stay_in_full_history_in_place",
    },
    "ARCH-10 4b1ed9ee": {
        "never lets a concurrent reader see part of a span archived": "test_concurrent_readers_never_see_part_of_an_archive",
    },
    "ARCH-11 ef27661c": {
        "negative": "test_archive_bad_positions_raise_and_archive_nothing: -1",
        "NaN": "test_archive_bad_positions_raise_and_archive_nothing: nan",
        "math.inf": "test_archive_count_inf_or_bool_raises_and_archives_nothing: inf",
        "fractional": "test_archive_bad_positions_raise_and_archive_nothing: 1.5",
        "a bool": "test_archive_count_inf_or_bool_raises_and_archives_nothing: True",
        "non-numeric": 'test_archive_bad_positions_raise_and_archive_nothing: ("2", ())',
        "raises ValueError and archives nothing": "test_archive_bad_positions_raise_and_archive_nothing",
    },
    "CLEAR-01 5f41ecd1": {
        "clear_session removes the session's messages from its history": "test_clear_session_empties_history",
    },
    "CLEAR-02 bae88b6a": {
        "clear_session also removes the session's archived messages": "test_clear_session_removes_archived",
        "never touches metadata": "test_clear_session_leaves_other_sessions_and_metadata",
    },
    "CLEAR-03 5f20901c": {
        "clear_all removes every message": "test_clear_all_empties_every_history",
        "every archived message of every session": "test_clear_all_removes_archived",
    },
    "CLEAR-04 a7610c5e": {
        "clear_all never touches metadata": "test_clear_all_keeps_metadata",
    },
    "RANGE-01 31e0e747": {
        "A session range read is cut silently at the backend's range_query_limit": "test_range_is_cut_to_the_cap",
        "it returns exactly the cap, never fewer, never an error": "test_range_cap_holds_when_filters_drop_a_crowd",
        "A backend declaring no range cap (range_cap=False) is not bound": "test_range_is_cut_to_the_cap: requires.range_cap",
        "the MongoDB backend always has one": "test_the_mongodb_backend_always_has_a_range_cap",
    },
    "RANGE-02 27b224ba": {
        "inclusive at both ends": "test_range_bounds_are_inclusive",
        "includes archived messages": "test_range_includes_archived",
    },
    "RANGE-03 d20085c3": {
        "Range results are ascending by timestamp": "test_range_is_ascending_by_timestamp",
        "same millisecond in write order": "test_range_is_ascending_by_timestamp: b1@200, b2@200",
        "a truncated result keeps the earliest messages": "test_range_truncation_keeps_the_earliest",
    },
    "RANGE-04 d7f077ef": {
        "roles is a whitelist": "test_range_roles_whitelist",
        "exclude_kinds drops those kinds and keeps kind-less messages": "test_range_exclude_kinds_keeps_kindless",
    },
    "CROSS-01 499782d0": {
        "A cross-session read asking for more than cross_session_max_limit is narrowed to it": "test_cross_session_limit_above_cap_is_narrowed",
        "exactly min(cap, matching messages), never fewer": "test_cross_session_crowded_filters_above_the_cap",
    },
    "CROSS-02 8798c034": {
        "the newest N active messages by timestamp": "test_cross_session_orders_by_timestamp_not_writes",
        "active": "test_cross_session_skips_archived",
        "ascending": "test_cross_session_newest_ascending",
        "each with its session id": 'test_cross_session_newest_ascending: (SESSION_C, "c6")',
    },
    "CROSS-03 e04d98f3": {
        "roles defaults to": "test_cross_session_roles: cross-session read without roles",
        "given roles are a whitelist": "test_cross_session_roles: roles=['system', 'notice']",
    },
    "CROSS-04 dccec677": {
        "kinds is a whitelist that drops kind-less messages": "test_cross_session_kinds: kinds=['poke', 'outbound-image']",
        "exclude_kinds wins over kinds": "test_cross_session_kinds: kinds=['poke', 'group_recall'], exclude_kinds=['poke']",
        "keeps kind-less messages": 'test_cross_session_kinds: (SESSION_A, "plain")',
    },
    "CROSS-05 b3ed69a9": {
        "since_ts keeps timestamps >= since_ts": "test_cross_session_since_ts_is_inclusive",
        "platform must equal metadata['platform']": "test_cross_session_platform",
        "exclude_session_ids drops those sessions": "test_cross_session_excluded_sessions",
    },
    "UPD-01 96e233ec": {
        "looks only at the newest recent_limit active messages": "test_update_window_skips_archived",
        "control records taking places in that window": "test_update_window_is_newest_active_with_markers",
    },
    "UPD-02 6aae0e89": {
        "Only string content is rewritten": 'test_update_rewrites_every_occurrence_case_sensitively: reasoning_content="world"',
        "every occurrence": "test_update_rewrites_every_occurrence_case_sensitively: hello earth, earth",
        "case-sensitively": "test_update_rewrites_every_occurrence_case_sensitively: Hello World",
        "the result is the number of messages whose content changed": "test_update_rewrites_every_occurrence_case_sensitively: changed, 2",
        "a rewrite to the same text changes none": "test_update_to_the_same_text_counts_nothing",
    },
    "UPD-03 ca1547d1": {
        "An empty old_text raises ValueError and changes nothing": "test_update_with_empty_old_text_raises",
    },
    "UPD-04 ef6818b8": {
        "update_message_content never changes a message's timestamp": "test_update_keeps_the_timestamps_of_rewritten_messages",
    },
    "DEL-01 bff1bdc3": {
        "deletes every message of the session, active": "test_delete_by_timestamps_removes_from_full_history",
        "or archived": "test_delete_by_timestamps_reaches_archived",
        "returns how many it deleted": "test_delete_by_timestamps_reaches_archived: delete_messages_by_timestamps(s, [100, 300, 999])",
    },
    "DEL-02 d4ab7846": {
        "Deleting by an empty list returns 0 and deletes nothing": "test_delete_by_empty_list_returns_zero",
    },
    # -- conformance/rules/metadata.py -------------------------------------------------------------
    "META-01 ec188b24": {
        "save_metadata then get_metadata returns the saved object": "test_get_returns_saved_object_and_none_when_missing",
        "nested objects and lists": "test_get_returns_whatever_json_object_was_saved: _rich_document",
        "an empty object": "test_get_returns_whatever_json_object_was_saved: empty-object",
        "unicode": "test_get_returns_whatever_json_object_was_saved: 中",
        "keys holding '.' or starting with '$'": "test_get_returns_whatever_json_object_was_saved: dollar-top",
        "a missing key reads as None": "test_get_returns_saved_object_and_none_when_missing",
        "the same key in another namespace is a separate entry": "test_namespaces_are_isolated",
    },
    "META-02 23a78a7b": {
        "list_metadata returns the namespace's entries": "test_list_returns_the_namespace_entries_only",
        "(key, data, updated_at)": "test_list_returns_the_namespace_entries_only: MetadataEntry",
        "nothing from other namespaces": "test_list_returns_the_namespace_entries_only: with neighbours 'user2', 'use', 'other'",
    },
    "META-03 eeb6eb08": {
        "delete_metadata removes that one entry": "test_delete_removes_the_entry",
        "and leaves the namespace's other entries": 'test_delete_removes_the_entry: [("stays", {"v": 2})]',
    },
    "META-04 f44385d2": {
        "list_metadata is sorted by key": "test_list_is_sorted_by_key",
    },
    "META-05 7c665193": {
        "updated_at is integer epoch milliseconds": "test_updated_at_is_epoch_ms_and_grows_on_overwrite",
        "taken at write time": "test_updated_at_is_epoch_ms_and_grows_on_overwrite: updated_at of a first save made in",
        "grows on every overwrite": "test_updated_at_is_epoch_ms_and_grows_on_overwrite",
    },
    "META-06 5bd139f9": {
        "mutating the object passed in": "test_stored_data_is_isolated_from_callers: after mutating the dict passed to save_metadata",
        "or the object returned changes nothing stored": "test_stored_data_is_isolated_from_callers: after mutating the dict get_metadata returned",
    },
    "META-07 21eaa79f": {
        "a tuple comes back as a list": "test_values_json_cannot_tell_apart_come_back_as_json_reads_them: tuple",
        "a whole-valued float as a number of the same value (2.0 or 2)": "test_values_json_cannot_tell_apart_come_back_as_json_reads_them: 2.0",
    },
    "META-08 8c06a85a": {
        "save_metadata stores nothing": "test_save_of_unserializable_data_raises_and_stores_nothing",
        "commit_metadata refuses a batch holding such a put": "test_commit_of_unserializable_data_raises",
    },
    "META-09 045c95e3": {
        "corrupt": "test_list_skips_unreadable_entries: not-json",
        "data that is not an object": "test_list_skips_unreadable_entries: not-object",
    },
    "META-10 59f3d1e1": {
        "list_metadata_keys lists every key of the namespace": "test_list_keys_lists_the_namespace_keys",
        "unreadable entries included": "test_list_keys_includes_unreadable_entries",
    },
    "META-11 8a60d725": {
        "a silent no-op, not an error": "test_delete_of_a_missing_key_is_a_no_op",
    },
    "COMMIT-01 d75dacf1": {
        "applies its put and del operations in order": "test_ops_apply_in_order",
        "put overwrites": 'test_ops_apply_in_order: put("existing", {"v": "new"})',
        "a later op on the same key wins": 'test_ops_apply_in_order: put("twice", {"v": "second"})',
    },
    "COMMIT-02 15d7b5fc": {
        "One batch may touch several namespaces": "test_one_batch_spans_namespaces",
    },
    "COMMIT-03 110a5e8d": {
        "An empty batch is a no-op": "test_empty_batch_and_del_of_missing_key: commit_metadata([])",
        "deleting a missing key inside a batch is ignored": "test_empty_batch_and_del_of_missing_key: commit_metadata([del never-saved, put added])",
    },
    "COMMIT-04 079fda94": {
        "applies a batch whole or not at all": "test_a_rejected_batch_applies_nothing",
        "whatever the error": "test_a_rejected_batch_applies_nothing: every_case",
    },
    "COMMIT-05 dc6edf48": {
        "never lets a concurrent reader see part of a batch": "test_concurrent_readers_never_see_half_a_batch",
    },
    "COMMIT-06 81f3aa7a": {
        "A del in a batch removes an entry even when its stored data is unreadable": "test_batch_del_removes_unreadable_entries",
        "keys listed by list_metadata_keys can be deleted in one commit": "test_batch_del_removes_unreadable_entries: list_metadata_keys(ns) after deleting",
    },
    "COMMIT-07 86346361": {
        "checks every payload before writing too": "test_ordered_tier_bad_payload_in_the_middle_applies_nothing",
        "raises TypeError or ValueError and applies nothing": "test_ordered_tier_bad_payload_first_or_last_applies_nothing",
    },
    # -- conformance/rules/compression.py ----------------------------------------------------------
    "CMP-01 df402cbe": {
        "the line is the smaller of compress_at x context_window and token_budget": "test_line_is_the_smaller_of_ratio_and_budget",
    },
    "CMP-02 2d7545a0": {
        "With compress_at missing or 0 the line is token_budget": "test_line_without_ratio_is_the_budget",
    },
    "CMP-03 672d9d98": {
        "usage at or above the line": "test_exactly_at_the_line_and_exactly_half_fires",
        "when compressible is at least half the line": "test_exactly_at_the_line_and_exactly_half_fires",
    },
    "CMP-04 d596db1a": {
        "a trimmed call makes compression due": "test_trimmed_fires_below_the_line",
    },
    "CMP-05 fdaf25b1": {
        "When compressible is below half the line the usage dimension never fires": "test_compressible_below_half_never_fires",
    },
    "CMP-06 ebe2a4e1": {
        "With compress_at missing or 0 the usage dimension never fires": "test_no_ratio_means_no_usage_trigger",
    },
    "CMP-07 e6182e22": {
        "compression is due once history_messages reaches it": "test_count_fires_at_and_above_the_limit",
        "with the limit missing or 0 the count never fires": "test_count_off_never_fires",
    },
    "CMP-08 4192b1f4": {
        "Either dimension alone makes compression due": "test_either_dimension_suffices",
        "below both lines it is not": "test_worked_example",
    },
    "CMP-09 e6649c60": {
        "usage figures": "test_bad_usage_is_refused",
        "and lines": "test_bad_lines_are_refused",
    },
    "CSV-01 63a4f0a1": {
        "compress archives every message before the split point except the picked originals": "test_compressed_messages_are_archived_except_picks",
    },
    "CSV-02 387763ad": {
        "Picked originals stay active verbatim, in their original order": "test_picks_stay_verbatim_in_order",
        "ahead of the messages that arrived after the split point": "test_messages_after_the_split_follow_the_picks",
    },
    "CSV-03 4868807a": {
        "Messages that arrive while the summary is written stay active": "test_messages_after_the_split_follow_the_picks",
    },
    "CSV-04 36f3085e": {
        "The compression is committed by one archive_span(count, keep)": "test_one_archive_span_commits_it",
    },
    "CSV-05 8296fb31": {
        "Picked originals cost at most the configured share": "test_picks_stay_within_the_token_budget: (0.25, 25)",
        "10% by default": "test_picks_stay_within_the_token_budget: (None, 10)",
        "counted with the configured token counter": "test_picks_stay_within_the_token_budget: 10 tokens each",
    },
    "CSV-06 bc2fef6a": {
        "within half the limit, rounded down": "test_picks_and_late_messages_stay_within_half_the_limit",
    },
    "CSV-07 19c0ba59": {
        "compress resolves only once the compression is committed": "test_compress_resolves_after_the_commit",
    },
    "CSV-08 099b97aa": {
        "rejects with AlreadyCompressing": "test_a_second_compress_is_rejected_while_one_runs",
        "the running one still completes": "test_a_second_compress_is_rejected_while_one_runs: active conversation after the first compress resolved",
    },
    "CSV-09 3f283767": {
        "With the memory or the summarizer absent": "test_absent_memory_or_summarizer_rejects_quietly",
    },
    "CSV-10 a4dea061": {
        "When the summarizer fails": "test_summarizer_failure_rejects_and_archives_nothing",
    },
    "CSV-11 e8b193a2": {
        "When the history is cleared": "test_history_cleared_meanwhile_rejects",
        "or changed before the split point": "test_history_changed_meanwhile_rejects",
    },
    "CSV-12 ce1d1d74": {
        "An empty or markers-only history is left alone": 'test_nothing_to_compress_is_a_quiet_no_op: ["empty", "markers"]',
        "calls no summarizer": "test_nothing_to_compress_is_a_quiet_no_op: summarizer calls for a",
        "sends no event": "test_nothing_to_compress_is_a_quiet_no_op: events for a",
    },
    "CSV-13 9a1633d4": {
        "sends session:compressing start, then done when committed": "test_a_compression_sends_start_then_done",
        "or error when rejected": "test_a_failed_commit_sends_error_not_done",
    },
    "CSV-14 3086436a": {
        "compress_at is the session's ratio for its platform tier": "test_compress_at_follows_the_platform_tier",
        "birth platform first": 'test_compress_at_follows_the_platform_tier: ("s-born-qq", "discord", 0.5)',
        "the entry platform without one": 'test_compress_at_follows_the_platform_tier: ("s-new", "qq", 0.5)',
        "None when that ratio is 0": 'test_compress_at_follows_the_platform_tier: ("s-new", "discord", None)',
    },
    "CSV-15 91fa9207": {
        "A manual compress compresses even a short conversation fully": "test_manual_compress_takes_even_a_short_conversation",
    },
    "CSV-16 277cd75a": {
        "it is stored per session (summary(session_id) reads it)": "test_summary_is_stored_and_folded_into_the_next",
        "the previous one is handed to the summarizer to fold in": "test_summary_is_stored_and_folded_into_the_next",
        "the new one takes its place (one summary kept per session)": "test_a_compression_leaves_one_summary",
    },
    "CSV-17 813f9253": {
        "A committed compression leaves a divider in the active history": "test_one_divider_is_stamped_at_commit",
    },
    "CSV-18 88e0806f": {
        "the split never cuts one still waiting for replies": "test_an_open_tool_exchange_is_not_split",
        "a picked message brings its whole exchange": "test_a_picked_tool_reply_keeps_its_call",
    },
    "CSV-19 e0e2bcb3": {
        "Picks are taken in the summarizer's order, skipping those that no longer fit": "test_picks_are_taken_in_the_summarizers_order: budget for one of picks [7, 2]",
        "an empty summary or an impossible pick counts as a summarizer failure": "test_an_unusable_draft_is_a_summarizer_failure",
    },
    "CSV-20 b11d90e4": {
        "compress with a reason other than 'manual' raises ValueError": "test_an_unknown_reason_is_refused",
    },
    "CSV-21 ff7a2841": {
        "When the history cannot be read, compress rejects with HistoryUnreadable": "test_unreadable_history_rejects_with_its_reason",
    },
    "CSV-22 9eb05c00": {
        "memory or summarizer absent": "test_absent_memory_or_summarizer_rejects_quietly",
        "history unreadable": "test_unreadable_history_sends_no_event",
        "session already compressing": "test_a_call_rejected_as_already_compressing_sends_nothing",
    },
    "CSV-23 48b29424": {
        "the provider keeps the summarizer's text as the session's summary": "test_a_compression_leaves_one_summary",
    },
    "CSV-24 a4edd278": {
        "A rejected compression keeps no new summary": "test_a_rejected_compression_keeps_the_summary_it_found",
    },
    "CSV-25 6cf64a2b": {
        "A compression adds exactly one divider, a system message": 'test_one_divider_is_stamped_at_commit: [("system", "event-marker")]',
        "stamped at commit time": "test_one_divider_is_stamped_at_commit: stamped by the clock at commit",
        "so that it sits after the kept messages": "test_one_divider_is_stamped_at_commit: after[-1] == dividers[0]",
    },
    # -- conformance/rules/events.py ---------------------------------------------------------------
    "EVT-01 671a43b0": {
        "A committed compression sends history:changed {sessionId}": "test_a_committed_compression_sends_history_changed",
        "once the archive is committed": "test_a_committed_compression_sends_history_changed: must follow the archive",
    },
    "EVT-02 bd5fb26e": {
        "A compression never sends memory:messages-deleted or memory:messages-rewritten": "test_a_compression_deletes_and_rewrites_nothing",
    },
    "EVT-03 61709fbc": {
        "A compression sends history:changed at most once": "test_history_changed_at_most_once_and_only_for_an_archive",
        "rejected before archiving": "test_no_history_changed_for_a_compression_rejected_meanwhile",
        "or with nothing to compress": "test_history_changed_at_most_once_and_only_for_an_archive: events of a compress with nothing to compress",
    },
    # -- conformance/rules/clearing.py -------------------------------------------------------------
    "CLR-01 fc3cc204": {
        "history_cleared is False when explicit types leave out 'context'": "test_types_without_context_never_clear_history",
    },
    "CLR-02 7df68104": {
        "False when any result row of type 'context' failed": "test_history_cleared_iff_every_context_row_succeeded",
        "True when types are absent or include 'context' and every such row succeeded": "test_history_cleared_iff_every_context_row_succeeded",
    },
    "CLR-03 1e3edde1": {
        "history_cleared is False when no result row of type 'context' exists": "test_no_context_row_means_not_cleared",
    },
    "CLR-04 59a4094b": {
        "in a single commit_metadata and leaves other namespaces alone": "test_clear_deletes_the_namespaces_in_one_commit",
    },
    "CLR-05 276cae6d": {
        "namespaces in the order they were passed": "test_clear_returns_keys_per_namespace_in_input_order",
        "an empty namespace maps to no keys": "test_clear_returns_keys_per_namespace_in_input_order",
    },
    "CLR-06 e32889de": {
        "unreadable entries are deleted too and counted among the returned keys": "test_clear_deletes_unreadable_entries",
    },
    "CLR-07 15beb3de": {
        "logs exactly one info line naming them as namespace/key": "test_clear_names_few_unreadable_entries_in_one_line",
        "the first 10, then how many more": "test_clear_names_ten_unreadable_entries_then_counts",
    },
    "CLR-08 f4ed1087": {
        "readable entries go, unreadable entries stay and are neither returned nor logged": "test_clear_without_list_keys_leaves_unreadable_entries",
    },
    "CLR-09 a5726f72": {
        "a single string or holds non-strings raises TypeError": "test_bad_namespaces_raise_before_touching_the_store",
    },
    "CLR-10 99a3fb18": {
        "only when some result row names it": "test_a_type_is_handled_only_when_a_row_names_it",
        "successful or not": "test_a_failed_row_still_marks_its_type_handled",
    },
    "CLR-11 489f02ce": {
        "its label is the first registrant's in collection order": "test_first_registrant_names_the_type",
        "unregistered types are reported as unknown": "test_first_registrant_names_the_type: unknown",
    },
    "CLR-12 cb3abea6": {
        "a session clear removes that session's data and keeps other sessions'": "test_a_clear_removes_the_data_of_its_scope",
        "a clear of all sessions removes all of it": "test_a_clear_removes_the_data_of_its_scope",
    },
    "CLR-13 f1d9d298": {
        "whose types leave out the plugin's clear type leaves its data alone": "test_a_clear_of_other_types_leaves_the_data",
        "no types": "test_a_clear_without_types_clears_like_one_naming_its_type",
        "or its type among them, clears it": "test_a_clear_of_other_types_leaves_the_data: with types ['context', {registered[0]!r}]",
    },
    "CLR-14 1762ba03": {
        "registers it through memory:clear-type, with its id and a label": "test_the_clear_type_is_registered",
    },
    "CLR-15 c8b692a2": {
        "on success and on failure alike, each with a message": "test_result_rows_carry_the_type_on_failure_and_success",
    },
    "CLR-16 c7cd5a9f": {
        "A memory:clear that lands while a compression runs stays in effect": "test_a_clear_during_a_compression_stays_cleared",
    },
    # -- conformance/rules/mongodb.py --------------------------------------------------------------
    "MDB-01 c48c12a0": {
        "Settings and defaults": "test_defaults",
        "uri mongodb://localhost:27017": "test_defaults: mongodb://localhost:27017",
        "database empty (derived)": "test_defaults",
        "claim_from empty": "test_defaults",
        "collection 'messages'": "test_defaults: messages",
        "connect_timeout_ms 5000": "test_defaults: 5000",
        "range_query_limit": "test_defaults: config.range_query_limit",
        "cross_session_max_limit": "test_defaults: config.cross_session_max_limit",
    },
    "MDB-02 1f51d267": {
        "used both as the connect timeout and as the server-selection timeout": "test_connect_timeout_is_used_for_connect_and_selection",
    },
    "MDB-03 11038609": {
        "range reads are cut silently": "test_configured_caps_bound_the_reads",
        "cross-session reads asking for more are narrowed": "test_configured_caps_bound_the_reads",
    },
    "MDB-04 bde94266": {
        "A setting of the wrong type or out of range": "test_bad_settings_raise_config_error",
        "non-positive caps": "test_bad_settings_raise_config_error: range_query_limit",
        "empty uri": 'test_bad_settings_raise_config_error: {"uri": ""}',
        "a message collection named like the metadata one": 'test_bad_settings_raise_config_error: {"collection": "metadata"}',
        "raises ConfigError before any connection": "test_unparsable_uri_is_a_config_error_without_a_client",
    },
    "MDB-05 3d444a9a": {
        "the configuration's repr never shows its password": "test_repr_hides_the_uri_password",
    },
    "MDB-06 9dc0567b": {
        "sessionId+timestamp": "test_message_indexes",
        "archived+timestamp (descending)": "test_message_indexes",
        "metadata.platform+timestamp (descending)": "test_message_indexes",
    },
    "MDB-07 d602d0d5": {
        "always called 'metadata' in the same database": "test_metadata_collection_is_fixed_and_unique",
        "with a unique namespace+key index": "test_metadata_collection_is_fixed_and_unique",
    },
    "MDB-08 09b667cc": {
        "clear_all empties the message collection only": "test_clear_all_empties_only_the_message_collection",
        "the metadata collection keeps every document": "test_clear_all_empties_only_the_message_collection",
    },
    "MDB-09 06833d9d": {
        "The history limit and count_history consider conversation messages only": "test_history_window_counts_conversation_only",
        "the history is everything after the (N+1)-th newest conversation message": "test_history_window_counts_conversation_only",
    },
    "MDB-10 04847360": {
        "History and archive_span share one order": "test_same_millisecond_keeps_write_order_and_archive_flags",
        "archiving flags messages and never deletes them": "test_same_millisecond_keeps_write_order_and_archive_flags",
    },
    "MDB-11 61ad333f": {
        "archive_span is a single multi-document update": "test_archive_is_one_multi_update",
    },
    "MDB-12 29e0744a": {
        "commit_metadata is one ordered bulk write, not a transaction": "test_commit_is_one_ordered_bulk_write",
        "it stops at the first failing operation and the operations before it stay written": "test_commit_stops_at_the_first_failure_keeping_earlier_writes",
    },
    "MDB-13 5d805f96": {
        "list_metadata skips a document whose data is not an object": "test_list_metadata_skips_non_objects_with_one_warning_each",
    },
    "MDB-14 e8aa2985": {
        "A document whose updatedAt is missing or not a date": "test_updated_at_falls_back_to_zero",
    },
    "MDB-15 050465b0": {
        "list_metadata_keys reads keys only": "test_list_metadata_keys_includes_skipped_documents",
    },
    "MDB-16 10d5938e": {
        "'aalis' for the main data directory": 'test_database_name_is_derived: "aalis"',
        "'aalis_<profile>' for a profile directory": "test_database_name_is_derived: aalis_work",
        "plus '-<suffix>' or '_<suffix>' for a suffixed instance": "test_database_name_is_derived: aalis_work_b",
        "a configured name is used as written": "test_configured_database_is_used_as_written",
    },
    "MDB-17 6033a160": {
        "A database name over 63 bytes fails activation": "test_63_bytes_is_the_limit",
    },
    "MDB-18 0d5b65bd": {
        "Two instances on one database under the same literal uri": "test_shared_database_is_compared_by_literal_uri",
        "even with different message collections": 'test_second_instance_on_the_same_database_is_refused_without_connecting: collection="other"',
        "the later one fails with a one-line ConfigError naming the holder, without connecting": "test_second_instance_on_the_same_database_is_refused_without_connecting",
        "closing the holder frees the database": "test_second_instance_on_the_same_database_is_refused_without_connecting",
    },
    "MDB-19 484a71ff": {
        "a new database (no owner record, no data anywhere) records its owner": "test_new_database_records_its_owner",
    },
    "MDB-20 cf06a6da": {
        "A database recorded for another data directory fails activation": "test_other_data_directory_is_refused",
        "and instance": "test_other_instance_of_the_same_directory_is_refused",
    },
    "MDB-21 e89f5310": {
        "Ownership compares real paths": "test_owner_is_compared_by_real_path",
    },
    "MDB-22 3e30c732": {
        "A database holding data but no owner record fails activation": "test_existing_data_without_record_needs_unowned",
    },
    "MDB-23 ef248c36": {
        "A broken owner record (no data directory or instance) fails activation": "test_broken_record_fails_until_unowned_rewrites_it",
        "claim_from='unowned' rewrites it": "test_broken_record_fails_until_unowned_rewrites_it",
    },
    "MDB-24 c07e247c": {
        "claim_from=<previous data directory> moves the ownership": "test_claim_from_moves_ownership",
        "afterwards the record names the new owner": "test_claim_from_moves_ownership",
    },
    "MDB-25 98d03d4b": {
        "Without host paths (embedded host, test fixture)": "test_without_host_paths_nothing_is_checked_or_recorded",
    },
    "MDB-26 31972b18": {
        "Closing the store closes the MongoDB client": "test_close_closes_the_client",
    },
    "MDB-27 3f375952": {
        "A connection": "test_unreachable_server_fails_with_the_documented_text",
        "or index-creation failure closes the client": "test_index_failure_closes_the_client",
    },
    "MDB-28 9a7425d9": {
        "Cancelling an activation that is still connecting": "test_cancelled_open_closes_the_client_and_frees_the_database",
    },
    "MDB-29 2359515e": {
        "URIs written to logs hide the password (user:***@host)": "test_logged_uri_hides_the_password",
        "for mongodb+srv too": "test_uri_redaction: mongodb+srv",
        "URIs without a password are logged unchanged": "test_uri_redaction",
    },
    "MDB-30 b21931bf": {
        "different clients (processes) write them in turns": "test_same_millisecond_order_across_two_processes",
    },
    "MDB-31 e689b5d1": {
        "holds data as a BSON object and updatedAt as a BSON date": "test_stored_metadata_documents_hold_an_object_and_a_date",
    },
    "MDB-32 947e0eca": {
        "Cancelling an activation while it builds indexes closes the client at once": "test_cancel_during_index_build_closes_and_frees",
        "the next activation finds or builds every index": "test_cancel_during_index_build_closes_and_frees",
    },
    "MDB-33 ff651993": {
        "Database names differing only in case are one database": "test_names_differing_only_in_case_are_one_database",
    },
    "MDB-34 b1ade732": {
        "exception messages and their chained causes, reprs, log records": "test_generated_credentials_never_show",
        "traceback arguments": "test_pytest_tracebacks_never_show_the_password",
    },
    "MDB-35 acc5cc0b": {
        "over MongoDB's 16 MiB limit": "test_oversized_bson_is_refused_before_any_write",
        "or nested past what it stores": "test_oversized_bson_is_refused_before_any_write: nested deeper",
    },
    # -- conformance/rules/performance.py ----------------------------------------------------------
    "PERF-01 9266ff1f": {
        "get_history(s, 20), count_history, alone and right after a save, archive_span(s, 1), get_metadata": "test_calls_with_a_fixed_answer_do_not_grow_with_the_data",
        "its median time grows at most 5x": "test_calls_with_a_fixed_answer_do_not_grow_with_the_data",
        "--memory-scaling measures it": "test_calls_with_a_fixed_answer_do_not_grow_with_the_data",
    },
    # -- conformance/rules/robustness.py -----------------------------------------------------------
    "HOST-01 dfb1239a": {
        "a dict such as {'$gt': ''}": "test_non_string_identifiers_raise_type_error: {'$gt': ''}",
        "a list": "test_non_string_identifiers_raise_type_error: ['s-host-a']",
        "None": 'test_non_string_identifiers_raise_type_error: "None"',
        "a number": 'test_non_string_identifiers_raise_type_error: "1"',
        "a bool": 'test_non_string_identifiers_raise_type_error: "True"',
        "bytes": "test_non_string_identifiers_raise_type_error: b's-host-a'",
        "a regex": "test_non_string_identifiers_raise_type_error: re.compile",
        "makes every method raise TypeError": "test_non_string_identifiers_raise_type_error",
    },
    "HOST-02 63a4ed9e": {
        "A call refused for a non-str identifier reads and changes nothing": "test_non_string_identifiers_read_and_change_nothing",
    },
    "HOST-03 58a72774": {
        "'$gt'": 'test_operator_and_sql_looking_session_ids_are_ordinary: "$gt"',
        '"\'; DROP TABLE messages; --"': "test_operator_and_sql_looking_session_ids_are_ordinary: DROP TABLE messages",
        "'%', '_', '.', '.*', ''": 'test_operator_and_sql_looking_session_ids_are_ordinary: ".*"',
        "its own session": "test_operator_and_sql_looking_session_ids_are_ordinary",
        "namespace or key": "test_operator_and_sql_looking_namespaces_and_keys_are_ordinary",
    },
    "HOST-04 4290b0ac": {
        "a non-Message to save_message": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: save_message(s, 'text')",
        "a Message whose fields have the wrong types": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: ODD_FIELDS",
        "a non-operation in a batch": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: commit_metadata([put ok, None])",
        "a batch that is not a list": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: commit_metadata({del (ns, k1): True})",
        "a payload that is a list or a string": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: save_metadata(ns, k, 'text')",
        "a query that is not a RecentMessagesAcrossSessionsQuery": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: get_recent_messages_across_sessions({'limit': 10})",
        "a role or kind list that is a string or a dict or holds non-strings": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: roles={'user': 1}",
        "timestamps that are not a list of numbers": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: delete_messages_by_timestamps(s, '1001')",
        "a timestamp, range bound or since_ts that is a string": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing: since_ts='0'",
        "raise TypeError and change nothing": "test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing",
    },
    "INPUT-01 0034c3ee": {
        "message timestamp": "test_bool_timestamps_raise_type_error_and_change_nothing: save_message(s, msg at {name})",
        "range bounds": "test_bool_timestamps_raise_type_error_and_change_nothing: get_messages_by_session_range(s, {name}, 10**6)",
        "since_ts": "test_bool_timestamps_raise_type_error_and_change_nothing: since_ts={name}",
        "timestamps to delete": "test_bool_timestamps_raise_type_error_and_change_nothing: delete_messages_by_timestamps(s, [{name}])",
    },
    "INPUT-02 094e5be2": {
        "NaN anywhere a timestamp is expected": "test_nan_and_infinite_message_timestamps_raise_value_error: _timestamp_cases(math.nan",
        "an infinite message timestamp": 'test_nan_and_infinite_message_timestamps_raise_value_error: (math.inf, "inf")',
        "infinite range bounds": "test_infinite_bounds_are_unbounded: get_messages_by_session_range(s, -inf, inf)",
        "and since_ts are accepted as unbounded": "test_infinite_bounds_are_unbounded: since_ts=-inf",
        "an infinite timestamp to delete matches no message": "test_infinite_bounds_are_unbounded: delete_messages_by_timestamps(s, [inf, -inf])",
    },
    "INPUT-03 d433d5b5": {
        "An integer timestamp outside the signed 64-bit range raises ValueError": "test_integers_past_64_bits_raise_value_error_and_change_nothing",
        "wherever a timestamp is expected": "test_integers_past_64_bits_raise_value_error_and_change_nothing: _timestamp_cases",
    },
    "INPUT-04 0fb848e8": {
        "in content": "test_lone_surrogates_raise_value_error_and_store_nothing: bad {LONE} text",
        "an id": "test_lone_surrogates_raise_value_error_and_store_nothing: s-{LONE}",
        "a metadata value": 'test_lone_surrogates_raise_value_error_and_store_nothing: {"v": LONE}',
        "or key": "test_lone_surrogates_raise_value_error_and_store_nothing: {LONE: 1}",
    },
    "INPUT-05 38d0947b": {
        "in content": "test_nul_characters_round_trip: before\\x00after",
        "ids": "test_nul_characters_round_trip: s-nul\\x00tail",
        "metadata keys and values": "test_nul_characters_round_trip: k\\x00y",
    },
    "INPUT-06 a56e6246": {
        "A message": "test_oversized_documents_round_trip_or_raise_value_error: save_message(s, 20 MB content)",
        "or metadata payload": "test_oversized_documents_round_trip_or_raise_value_error: save_metadata(ns, big, 20 MB value)",
    },
    "INPUT-07 d5cda0aa": {
        "A payload nested 20 levels deep round-trips": "test_moderate_nesting_round_trips_and_deep_nesting_raises_value_error: _nested(20)",
        "one nested thousands of levels deep raises ValueError": "test_moderate_nesting_round_trips_and_deep_nesting_raises_value_error: _nested(5000)",
    },
    "CONC-01 e75a24e5": {
        "no rewrite is lost": "test_concurrent_rewrites_all_apply_and_count_truly",
        "each call returns the number of messages it really changed": "test_concurrent_rewrites_all_apply_and_count_truly",
    },
    "CONC-02 ced0cbeb": {
        "Concurrent archive_span calls each return the number they archived": "test_concurrent_archives_count_truly_and_never_share_a_span",
    },
    "CONC-03 83f17cd3": {
        "archive exactly the earliest k*c messages": "test_concurrent_archives_count_truly_and_never_share_a_span",
    },
    "CONC-04 d27be511": {
        "every key of every batch is written": "test_concurrent_commits_lose_nothing",
        "concurrent puts of one new key all succeed (the last one wins)": "test_concurrent_puts_of_one_new_key_all_succeed",
        "no call fails with an error of the backend's own making": "test_concurrent_commits_lose_nothing",
    },
    "CONC-05 958c9b16": {
        "updated_at of a key never goes backwards": "test_updated_at_never_goes_backwards_under_concurrent_commits",
    },
    "CONC-06 7caecb50": {
        "Concurrent save_message calls lose nothing": "test_concurrent_saves_lose_nothing",
    },
    "CRASH-01 3d5f7974": {
        "every write it had acknowledged is there when the store is reopened": "test_acknowledged_writes_survive_sigkill",
    },
    "CRASH-02 5863c926": {
        "no archive_span": "test_atomic_calls_are_all_or_nothing_after_sigkill: archive_span",
        "or commit_metadata call half applied": "test_atomic_calls_are_all_or_nothing_after_sigkill: commit_metadata",
    },
    # -- conformance/rules/strength.py -------------------------------------------------------------
    "ISO-01 11c404b8": {
        "mutating the metadata of the Message passed to save_message": 'test_mutating_a_saved_message_changes_nothing_stored: message.metadata["added"]',
        "or a dict inside its tool_calls": 'test_mutating_a_saved_message_changes_nothing_stored: call["function"]["name"]',
        "or segments": 'test_mutating_a_saved_message_changes_nothing_stored: segment["content"]',
    },
    "ISO-02 7cc6e1af": {
        "get_history": "test_history_read_is_the_callers_own",
        "get_full_history": "test_full_history_read_is_the_callers_own",
        "a range read": "test_range_read_is_the_callers_own",
        "a cross-session read": "test_cross_session_read_is_the_callers_own",
    },
    "TS-01 79f634a8": {
        "timestamp 0": "test_odd_timestamps_read_back_exactly: 0",
        "a negative": "test_odd_timestamps_read_back_exactly: -5",
        "or a fractional timestamp": "test_odd_timestamps_read_back_exactly: 1.5",
    },
    "TS-02 2b2cc4fc": {
        "1.25 before 1.5 before 2": "test_range_orders_odd_timestamps_by_value: BY_VALUE",
        "-1 before 0": "test_range_orders_odd_timestamps_by_value: BY_VALUE",
    },
    "TS-03 d1a6a3d9": {
        "the range [0, 0] returns exactly the messages at 0": "test_range_bounds_at_zero_and_fractions: range [0, 0] over timestamps",
        "since_ts=0 keeps 0": "test_since_zero_keeps_the_messages_at_zero",
        "and drops negatives": "test_since_zero_and_fractional_since",
        "fractional range bounds are inclusive": 'test_range_bounds_at_zero_and_fractions: ((0.5, 1.5), ["half", "f1.5"])',
        "delete_messages_by_timestamps([1.5]) deletes exactly the messages at 1.5": "test_delete_by_zero_and_fractional_timestamps",
    },
    "TS-06 d37f39f6": {
        "distinct from the double 2.0**63 next to the top one": "test_ends_of_the_64_bit_range_are_ordinary_timestamps: 2.0**63",
        "messages at 2**63 - 1 and -2**63 read back exactly": "test_ends_of_the_64_bit_range_are_ordinary_timestamps",
        "a range with both bounds on one of them returns exactly its message": "test_ends_of_the_64_bit_range_are_ordinary_timestamps: get_messages_by_session_range",
        "delete_messages_by_timestamps removes exactly the messages at them": "test_ends_of_the_64_bit_range_are_ordinary_timestamps: delete_messages_by_timestamps",
    },
    "CFG-01 99b82e0b": {
        "cuts range reads at": "test_default_caps",
        "and cross-session reads at": "test_default_caps",
    },
    "CFG-02 958ee042": {
        "0": "test_caps_must_be_positive_integers: BAD_CAPS",
        "a negative number": "test_caps_must_be_positive_integers: -1",
        "True": "test_caps_must_be_positive_integers: True",
        "a fraction": "test_caps_must_be_positive_integers: 2.5",
        "a string": 'test_caps_must_be_positive_integers: "5"',
    },
    "CFG-03 84c71c79": {
        "metadata nested up to 32 levels": "test_size_and_nesting_limits_are_exact",
        "JSON texts up to 15 MiB": "test_size_and_nesting_limits_are_exact",
        "refuses one level or one byte more with ValueError": "test_size_and_nesting_limits_are_exact",
    },
}
