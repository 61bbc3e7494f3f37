/**
 * Deliberately broken: eighteen TypeScript backends, each the reference with ONE method changed
 * the way a JavaScript author might slip, each failing exactly the rules whose words its bug
 * contradicts (tests/drivers/test_stdio_bridge.py, BROKEN; the Python twins are in
 * tests/broken_drivers/). Run one as an adapter: `node dist/cjs/broken-single-bugs.js NAME`,
 * where NAME is a key of VARIANTS; serve() names it `broken-NAME` in the handshake.
 *
 * The rules each one fails, and why (the rule's words it contradicts):
 *   history-newest-first          HIST-02   "get_history is ascending by time": it is newest first.
 *   keep-ignored                  ARCH-02   "positions listed in keep ... stay active": they are archived.
 *   full-history-active-only      FULL-01   "get_full_history includes archived messages": it does not.
 *                                 ARCH-09   archived messages "stay in get_full_history": they leave it.
 *   keys-skip-unreadable          META-10   listMetadataKeys "lists every key ..., unreadable entries
 *                                           included": the unreadable ones are missing.
 *   update-restamps               UPD-04    updateMessageContent "never changes a message's timestamp":
 *                                           a rewritten message gets Date.now().
 *   timestamp-zero-restamped      TS-01     a message saved with "timestamp 0 ... reads back with exactly
 *                                           that timestamp: never restamped": `ts || Date.now()` restamps 0.
 *                                 INPUT-01  "a bool where a timestamp is expected ... raises TypeError": the
 *                                           same `||` stamps a message saved at `false`.
 *                                 INPUT-02  "NaN anywhere a timestamp is expected ... raise[s] ValueError":
 *                                           the same `||` stamps a message saved at NaN.
 *   count-includes-markers        COUNT-01  "the number of active conversation messages": markers count.
 *   control-by-role               COUNT-01  (as above: system-role conversation is not counted, markers of
 *                                           other roles are)
 *                                 HIST-03   "the limit counts conversation messages only; CONTROL_KINDS
 *                                           records never use it up": a user-role marker uses a slot.
 *                                 HIST-04   "every active message after the (limit+1)-th newest
 *                                           conversation message": the cut falls elsewhere.
 *                                 HIST-05   "with at most limit conversation messages ... the whole active
 *                                           history, leading control records included": it is cut.
 *   save-metadata-stamp-race      CONC-05   "updated_at of a key never goes backwards while several tasks
 *                                           overwrite it": a stamp taken before the write's await lands
 *                                           after a newer one (SHOULD: an advisory by default).
 *   cross-fetch-limit-times-8     CROSS-01  "narrowed to [the cap]: ... exactly min(cap, matching messages),
 *                                           never fewer": a crowded read asking above the cap gets fewer.
 *                                 CROSS-02  "returns the newest N active messages": a crowded read within
 *                                           the cap gets fewer, older matching ones left out (SHOULD).
 *   meta-missing-as-empty         META-01   "a missing key reads as None": it reads as {}.
 *   meta-delete-drops-namespace   META-03   deleteMetadata "removes that one entry and leaves the
 *                                           namespace's other entries": the others go too.
 *   clear-session-keeps-archived  CLEAR-02  clearSession "also removes the session's archived messages":
 *                                           they stay (SHOULD).
 *   history-infinity-empty        LIM-02    "A limit of math.inf yields every matching message": [].
 *   meta-list-unsorted            META-04   "list_metadata is sorted by key": insertion order (SHOULD).
 *   cross-capped-recent-list      CROSS-01  "exactly min(cap, matching messages), never fewer": it filters
 *                                           only the newest crossSessionMaxLimit rows, so a filtered read
 *                                           above the cap gets fewer.
 *                                 CROSS-02  "returns the newest N active messages": one within the cap
 *                                           gets fewer (SHOULD). Not LIM-04: Infinity reads as the cap.
 *   range-bisected-half-open      RANGE-02  "inclusive at both ends": the upper search stops before toTs.
 *                                 TS-03     "the range [0, 0] returns exactly the messages at 0",
 *                                           "fractional range bounds are inclusive" (SHOULD both).
 *                                           (TS-06's one-point ranges too, but a JavaScript number
 *                                           cannot carry those ends: TS-06 is unverified here.)
 *   same-ms-counter-unpadded      HIST-02   "messages of the same millisecond keep write order": from the
 *                                           eleventh write of one millisecond on, "10" sorts before "2".
 *                                 FULL-02   "in the original order"; RANGE-03 "same millisecond in write
 *                                           order" (SHOULD); ARCH-01 "the earliest count active messages";
 *                                 ARCH-09   archived messages stay "in their original order".
 */
import * as checks from './checks';
import { Message, MetadataEntry, RecentMessageRecord, StoreConfig } from './contract';
import { ReferenceMemory, StoredMessage, referenceFactory } from './reference';
import { serve } from './serve';

export class HistoryNewestFirst extends ReferenceMemory {
  override async getHistory(sessionId: string, limit?: number): Promise<Message[]> {
    return (await super.getHistory(sessionId, limit)).reverse();
  }
}

export class KeepIgnored extends ReferenceMemory {
  /** The keep list is checked, then never used: the whole span is archived. */
  override async archiveSpan(sessionId: string, span: { count: number; keep: readonly number[] }): Promise<number> {
    if (!checks.isPlainObject(span)) return super.archiveSpan(sessionId, span);
    checks.checkKeep(span.keep ?? []);
    return super.archiveSpan(sessionId, { count: span.count, keep: [] });
  }
}

export class FullHistoryActiveOnly extends ReferenceMemory {
  override async getFullHistory(sessionId: string, limit?: number): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const effective = checks.checkLimit(limit, checks.DEFAULT_FULL_HISTORY_LIMIT, 'limit');
    return checks.newest(this.active(session), effective).map((s) => this.out(s.message));
  }
}

export class KeysSkipUnreadable extends ReferenceMemory {
  /** Built on listMetadata, which skips what it cannot read. */
  override async listMetadataKeys(namespace: string): Promise<string[]> {
    return (await this.listMetadata(namespace)).map((entry) => entry.key);
  }
}

export class UpdateRestamps extends ReferenceMemory {
  /** The reference's rewrite, stamping what it rewrites (an upsert that sets every column): the
   * rewritten message keeps its place, not its timestamp. */
  override async updateMessageContent(sessionId: string, oldText: string, newText: string, recentLimit?: number): Promise<number> {
    const session = checks.checkId(sessionId, 'sessionId');
    const [search, replacement] = checks.checkRewrite(oldText, newText);
    const effective = checks.checkLimit(recentLimit, checks.DEFAULT_UPDATE_RECENT_LIMIT, 'recentLimit');
    let changed = 0;
    for (const stored of checks.newest(this.active(session), effective)) {
      const content = stored.message.content;
      if (typeof content !== 'string' || !content.includes(search) || search === replacement) continue;
      stored.message = { ...stored.message, content: content.split(search).join(replacement), timestamp: Date.now() };
      changed += 1;
    }
    return changed;
  }
}

export class TimestampZeroRestamped extends ReferenceMemory {
  override async saveMessage(sessionId: string, message: Message): Promise<void> {
    const stamped = checks.isPlainObject(message) ? { ...message, timestamp: message.timestamp || Date.now() } : message;
    return super.saveMessage(sessionId, stamped);
  }
}

export class CountIncludesMarkers extends ReferenceMemory {
  override async countHistory(sessionId: string): Promise<number> {
    return this.active(checks.checkId(sessionId, 'sessionId')).length;
  }
}

/** A control record told by its role (markers are usually system messages), not by its kind. */
function controlByRole(message: Message): boolean {
  return message.role === 'system';
}

export class ControlByRole extends ReferenceMemory {
  override async getHistory(sessionId: string, limit?: number): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const effective = checks.checkLimit(limit, checks.DEFAULT_HISTORY_LIMIT, 'limit');
    const active = this.active(session);
    let window: StoredMessage[] = [];
    if (effective > 0) {
      window = active;
      let seen = 0;
      for (let index = active.length - 1; index >= 0; index--) {
        if (!controlByRole((active[index] as StoredMessage).message) && ++seen > effective) {
          window = active.slice(index + 1);
          break;
        }
      }
    }
    return window.map((s) => this.out(s.message));
  }

  override async countHistory(sessionId: string): Promise<number> {
    return this.active(checks.checkId(sessionId, 'sessionId')).filter((s) => !controlByRole(s.message)).length;
  }
}

/** Milliseconds the write's round trip takes: 0, 5 or 10, by the payload's bytes (as a real one grows with it). */
function roundTrip(text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8').reduce((sum, byte) => sum + byte, 0);
  return new Promise((resolve) => setTimeout(resolve, (bytes % 3) * 5));
}

export class SaveMetadataStampRace extends ReferenceMemory {
  /** updatedAt is taken, then the write awaited: an overwrite stamped early can land after a later one. */
  override async saveMetadata(namespace: string, key: string, data: Record<string, unknown>): Promise<void> {
    const ns = checks.checkId(namespace, 'namespace');
    const k = checks.checkId(key, 'key');
    const text = checks.encodeObject(data, `${ns}/${k}`);
    const previous = this.metadata.get(ns)?.get(k)?.updatedAt;
    const now = Date.now();
    const updatedAt = previous === undefined || now > previous ? now : previous + 1;
    await roundTrip(text);
    const space = this.metadata.get(ns) ?? new Map<string, { text: string; updatedAt: number }>();
    this.metadata.set(ns, space);
    space.set(k, { text, updatedAt });
  }
}

/** How many rows a post-filtering read fetches per record asked for. */
const OVERFETCH = 8;

export class CrossFetchLimitTimes8 extends ReferenceMemory {
  /** How many of the newest active rows the read filters, for a read asking for `limit`. */
  protected fetched(limit: number): number {
    return limit * OVERFETCH;
  }

  /** The reference's read, but it fetches the newest limit x 8 active rows (all of them for
   * Infinity) and applies the filters to those only. */
  override async getRecentMessagesAcrossSessions(query: unknown): Promise<RecentMessageRecord[]> {
    if (!checks.isPlainObject(query)) {
      throw new TypeError(`query must be a RecentMessagesAcrossSessionsQuery, got ${checks.typeName(query)}`);
    }
    const since = query.sinceTs === undefined || query.sinceTs === null
      ? undefined : checks.checkTimestamp(query.sinceTs, 'query.sinceTs');
    const platform = query.platform === undefined || query.platform === null
      ? undefined : checks.checkId(query.platform, 'query.platform');
    const excludedSessions = new Set(checks.checkStrings(query.excludeSessionIds, 'query.excludeSessionIds') ?? []);
    const roles = new Set(checks.checkStrings(query.roles, 'query.roles') ?? checks.DEFAULT_CROSS_SESSION_ROLES);
    const kindList = checks.checkStrings(query.kinds, 'query.kinds');
    const kinds = kindList === undefined ? undefined : new Set(kindList);
    const excludedKinds = new Set(checks.checkStrings(query.excludeKinds, 'query.excludeKinds') ?? []);
    const limit = checks.checkLimit(query.limit, checks.DEFAULT_CROSS_SESSION_MAX_LIMIT, 'query.limit');
    const wanted = Math.min(limit, this.config.crossSessionMaxLimit);
    const rows: Array<{ sessionId: string; stored: StoredMessage }> = [];
    for (const [sessionId, records] of this.sessions) {
      for (const stored of records) if (!stored.archived) rows.push({ sessionId, stored });
    }
    rows.sort((a, b) => (a.stored.message.timestamp as number) - (b.stored.message.timestamp as number) || a.stored.seq - b.stored.seq);
    const hits = checks.newest(rows, this.fetched(limit)).filter(({ sessionId, stored: { message } }) => {
      if (excludedSessions.has(sessionId) || !roles.has(message.role)) return false;
      if (kinds !== undefined && (message.kind === undefined || !kinds.has(message.kind))) return false;
      if (message.kind !== undefined && excludedKinds.has(message.kind)) return false;
      if (since !== undefined && (message.timestamp as number) < since) return false;
      return platform === undefined || (message.metadata ?? {}).platform === platform;
    });
    return checks.newest(hits, wanted).map(({ sessionId, stored }) => ({ sessionId, message: this.out(stored.message) }));
  }
}

export class MissingAsEmpty extends ReferenceMemory {
  /** A `?? {}` where the key is missing. */
  override async getMetadata(namespace: string, key: string): Promise<Record<string, unknown> | undefined> {
    return (await super.getMetadata(namespace, key)) ?? {};
  }
}

export class DeleteDropsNamespace extends ReferenceMemory {
  override async deleteMetadata(namespace: string, key: string): Promise<void> {
    const ns = checks.checkId(namespace, 'namespace');
    if (this.metadata.get(ns)?.has(checks.checkId(key, 'key'))) this.metadata.delete(ns);
  }
}

export class ClearSessionKeepsArchived extends ReferenceMemory {
  override async clearSession(sessionId: string): Promise<void> {
    const session = checks.checkId(sessionId, 'sessionId');
    const records = this.sessions.get(session);
    if (records !== undefined) this.sessions.set(session, records.filter((s) => s.archived));
  }
}

export class HistoryInfinityEmpty extends ReferenceMemory {
  /** The checked limit goes through `| 0` (as an int32 LIMIT parameter would), and
   * `Infinity | 0` is 0: every other limit is unchanged. */
  override async getHistory(sessionId: string, limit?: number): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const effective = checks.checkLimit(limit, checks.DEFAULT_HISTORY_LIMIT, 'limit') | 0;
    return checks.historyWindow(this.active(session), effective).map((s) => this.out(s.message));
  }
}

export class ListInInsertionOrder extends ReferenceMemory {
  /** The reference's listing without its sort: a Map iterates in insertion order. */
  override async listMetadata(namespace: string): Promise<MetadataEntry[]> {
    const entries: MetadataEntry[] = [];
    for (const [key, stored] of this.metadata.get(checks.checkId(namespace, 'namespace')) ?? []) {
      const data = checks.decodeObject(stored.text);
      if (data !== undefined) entries.push({ key, data, updatedAt: stored.updatedAt });
    }
    return entries;
  }
}

export class CrossCappedRecentList extends CrossFetchLimitTimes8 {
  /** A store-wide "recent" list trimmed to crossSessionMaxLimit on every write: the read filters
   * that list, whatever the limit asked for. */
  protected override fetched(_limit: number): number {
    return this.config.crossSessionMaxLimit;
  }
}

export class RangeBisectedHalfOpen extends ReferenceMemory {
  /** The range is sliced out of the session (kept in timestamp order) with two binary searches
   * for the first record at or after a bound: the upper one should have looked past toTs. */
  override async getMessagesBySessionRange(
    sessionId: string, fromTs: number, toTs: number, roles?: string[], excludeKinds?: string[],
  ): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const from = checks.checkTimestamp(fromTs, 'fromTs');
    const to = checks.checkTimestamp(toTs, 'toTs');
    const roleList = checks.checkStrings(roles, 'roles');
    const excluded = new Set(checks.checkStrings(excludeKinds, 'excludeKinds') ?? []);
    const records = this.sessions.get(session) ?? [];
    const firstAtOrAfter = (bound: number): number => {
      let low = 0;
      let high = records.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (((records[middle] as StoredMessage).message.timestamp as number) < bound) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const hits = records.slice(firstAtOrAfter(from), Math.max(firstAtOrAfter(from), firstAtOrAfter(to)))
      .filter(({ message }) => (roleList === undefined || roleList.includes(message.role))
        && (message.kind === undefined || !excluded.has(message.kind)));
    return hits.slice(0, this.config.rangeQueryLimit).map((s) => this.out(s.message));
  }
}

export class SameMsCounterUnpadded extends ReferenceMemory {
  /** Each record's place within its millisecond: how many of the session's messages were
   * already there, kept as text (never zero-padded). */
  private readonly inMillisecond = new Map<number, string>();

  /** The reference's save, then the session sorted by timestamp and that text. */
  override async saveMessage(sessionId: string, message: Message): Promise<void> {
    await super.saveMessage(sessionId, message);
    const records = this.sessions.get(checks.checkId(sessionId, 'sessionId')) ?? [];
    const seq = this.writes - 1;
    const stamp = (records.find((s) => s.seq === seq) as StoredMessage).message.timestamp as number;
    const earlier = records.filter((s) => s.seq !== seq && s.message.timestamp === stamp).length;
    this.inMillisecond.set(seq, String(earlier));
    const place = (s: StoredMessage): string => this.inMillisecond.get(s.seq) ?? '';
    records.sort((a, b) => (a.message.timestamp as number) - (b.message.timestamp as number)
      || (place(a) < place(b) ? -1 : place(a) > place(b) ? 1 : 0));
  }
}

/** Each variant by the name it is run with (its handshake name is `broken-` and that). */
export const VARIANTS: Record<string, new (config: StoreConfig) => ReferenceMemory> = {
  'history-newest-first': HistoryNewestFirst,
  'keep-ignored': KeepIgnored,
  'full-history-active-only': FullHistoryActiveOnly,
  'keys-skip-unreadable': KeysSkipUnreadable,
  'update-restamps': UpdateRestamps,
  'timestamp-zero-restamped': TimestampZeroRestamped,
  'count-includes-markers': CountIncludesMarkers,
  'control-by-role': ControlByRole,
  'save-metadata-stamp-race': SaveMetadataStampRace,
  'cross-fetch-limit-times-8': CrossFetchLimitTimes8,
  'meta-missing-as-empty': MissingAsEmpty,
  'meta-delete-drops-namespace': DeleteDropsNamespace,
  'clear-session-keeps-archived': ClearSessionKeepsArchived,
  'history-infinity-empty': HistoryInfinityEmpty,
  'meta-list-unsorted': ListInInsertionOrder,
  'cross-capped-recent-list': CrossCappedRecentList,
  'range-bisected-half-open': RangeBisectedHalfOpen,
  'same-ms-counter-unpadded': SameMsCounterUnpadded,
};

if (require.main === module) {
  const name = process.argv[2] ?? '';
  const Variant = VARIANTS[name];
  if (Variant === undefined) {
    process.stderr.write(`usage: broken-single-bugs.js NAME, NAME one of: ${Object.keys(VARIANTS).join(', ')}\n`);
    process.exit(2);
  }
  serve(referenceFactory(`broken-${name}`, (config: StoreConfig) => new Variant(config)));
}
