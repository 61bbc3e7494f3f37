/**
 * The in-memory reference backend in TypeScript: the whole contract, timestamp ordering (same
 * millisecond by write order, as SQLite), all-or-nothing archives and batches (every call runs
 * to completion without awaiting, so no other call sees part of it).
 *
 * Run it as an adapter: `node dist/reference.js`.
 */
import * as checks from './checks';
import {
  BackendFactory,
  Message,
  MemoryService,
  MetadataEntry,
  MetadataOp,
  RawMetadataAccess,
  RawMetadataKind,
  RecentMessageRecord,
  StoreConfig,
} from './contract';
import { serve } from './serve';

export interface StoredMessage {
  message: Message;
  /** Store-wide write order: the tie-break of equal timestamps. */
  seq: number;
  archived: boolean;
}

interface StoredMetadata {
  text: string;
  updatedAt: number;
}

const RAW_PAYLOADS: Record<RawMetadataKind, string> = { 'not-json': '{not json', 'not-object': '[1, 2, 3]' };

function byStamp(a: StoredMessage, b: StoredMessage): number {
  return (a.message.timestamp as number) - (b.message.timestamp as number) || a.seq - b.seq;
}

export class ReferenceMemory implements Required<MemoryService>, RawMetadataAccess {
  /** Session id -> its records in history order (timestamp, then write order), archived ones too. */
  protected sessions = new Map<string, StoredMessage[]>();
  /** Namespace -> key -> entry. */
  protected metadata = new Map<string, Map<string, StoredMetadata>>();
  /** Writes so far: the next record's `seq`. */
  protected writes = 0;
  /** Archives so far: the one change made inside a session's list without changing its length. */
  private archives = 0;
  /**
   * count_history's answers, per session list: valid while the list is the same array, of the
   * same length, with no archive since (every other change replaces the list or changes its
   * length; a save keeps a count that held up to date). Counting is a pass over the whole
   * session, which a call with a fixed answer must not grow with (PERF-01) once the pipe's round
   * trip is short.
   */
  private counts = new WeakMap<StoredMessage[], { length: number; archives: number; value: number }>();

  constructor(readonly config: StoreConfig) {}

  /** A stored message as a read returns it: a copy, the caller's own (ISO-02). */
  protected out(message: Message): Message {
    return structuredClone(message);
  }

  protected active(sessionId: string): StoredMessage[] {
    return (this.sessions.get(sessionId) ?? []).filter((s) => !s.archived);
  }

  /**
   * The active records from the (limit+1)-th newest conversation message on (or all of them),
   * read from the end: the only ones historyWindow can return. A read of 20 messages touches
   * those, not the whole session (PERF-01).
   */
  protected activeTail(sessionId: string, limit: number): StoredMessage[] {
    const records = this.sessions.get(sessionId) ?? [];
    const tail: StoredMessage[] = [];
    if (limit === 0) return tail;
    let seen = 0;
    for (let index = records.length - 1; index >= 0; index--) {
      const stored = records[index] as StoredMessage;
      if (stored.archived) continue;
      tail.push(stored);
      if (!checks.isControl(stored.message)) {
        seen += 1;
        if (seen > limit) break;
      }
    }
    return tail.reverse();
  }

  /** The first `count` active records in history order: all archiveSpan can touch. */
  protected activeHead(sessionId: string, count: number): StoredMessage[] {
    const head: StoredMessage[] = [];
    if (count === 0) return head;
    for (const stored of this.sessions.get(sessionId) ?? []) {
      if (stored.archived) continue;
      head.push(stored);
      if (head.length >= count) break;
    }
    return head;
  }

  async saveMessage(sessionId: string, message: Message): Promise<void> {
    const session = checks.checkId(sessionId, 'sessionId');
    const prepared = checks.prepareMessage(message, Date.now());
    const records = this.sessions.get(session) ?? [];
    const record: StoredMessage = { message: prepared, seq: this.writes++, archived: false };
    let at = records.length; // after every record with a timestamp <= this one's
    while (at > 0 && byStamp(records[at - 1] as StoredMessage, record) > 0) at--;
    records.splice(at, 0, record);
    this.sessions.set(session, records);
    // A count that held before this save holds after it, one more for a conversation message:
    // recounting the session after every save grew with it (PERF-01's save-then-count line).
    const cached = this.counts.get(records);
    if (cached !== undefined && cached.length === records.length - 1 && cached.archives === this.archives) {
      const value = cached.value + (checks.isControl(prepared) ? 0 : 1);
      this.counts.set(records, { length: records.length, archives: this.archives, value });
    }
  }

  async getHistory(sessionId: string, limit?: number): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const effective = checks.checkLimit(limit, checks.DEFAULT_HISTORY_LIMIT, 'limit');
    return checks.historyWindow(this.activeTail(session, effective), effective).map((s) => this.out(s.message));
  }

  async countHistory(sessionId: string): Promise<number> {
    const session = checks.checkId(sessionId, 'sessionId');
    const records = this.sessions.get(session) ?? [];
    const cached = this.counts.get(records);
    if (cached !== undefined && cached.length === records.length && cached.archives === this.archives) {
      return cached.value;
    }
    let count = 0;
    for (const stored of records) {
      if (!stored.archived && !checks.isControl(stored.message)) count += 1;
    }
    this.counts.set(records, { length: records.length, archives: this.archives, value: count });
    return count;
  }

  async getFullHistory(sessionId: string, limit?: number): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const effective = checks.checkLimit(limit, checks.DEFAULT_FULL_HISTORY_LIMIT, 'limit');
    return checks.newest(this.sessions.get(session) ?? [], effective).map((s) => this.out(s.message));
  }

  async archiveSpan(sessionId: string, span: { count: number; keep: readonly number[] }): Promise<number> {
    const session = checks.checkId(sessionId, 'sessionId');
    if (!checks.isPlainObject(span)) throw new TypeError(`span must be {count, keep}, got ${checks.typeName(span)}`);
    const count = checks.checkCount(span.count);
    const keep = checks.checkKeep(span.keep ?? []);
    const head = this.activeHead(session, count); // min(count, active records)
    const positions = checks.archivePositions(head.length, count, keep);
    for (const position of positions) (head[position] as StoredMessage).archived = true;
    if (positions.length > 0) this.archives += 1;
    return positions.length;
  }

  async clearSession(sessionId: string): Promise<void> {
    this.sessions.delete(checks.checkId(sessionId, 'sessionId'));
  }

  async clearAll(): Promise<void> {
    this.sessions.clear();
  }

  async getMessagesBySessionRange(
    sessionId: string, fromTs: number, toTs: number, roles?: string[], excludeKinds?: string[],
  ): Promise<Message[]> {
    const session = checks.checkId(sessionId, 'sessionId');
    const from = checks.checkTimestamp(fromTs, 'fromTs');
    const to = checks.checkTimestamp(toTs, 'toTs');
    const roleList = checks.checkStrings(roles, 'roles');
    const excluded = new Set(checks.checkStrings(excludeKinds, 'excludeKinds') ?? []);
    const hits = (this.sessions.get(session) ?? []).filter(({ message }) => {
      const stamp = message.timestamp as number;
      if (stamp < from || stamp > to) return false;
      if (roleList !== undefined && !roleList.includes(message.role)) return false;
      return message.kind === undefined || !excluded.has(message.kind);
    });
    return hits.slice(0, this.config.rangeQueryLimit).map((s) => this.out(s.message));
  }

  async getRecentMessagesAcrossSessions(query: unknown): Promise<RecentMessageRecord[]> {
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
    const hits: Array<{ sessionId: string; stored: StoredMessage }> = [];
    for (const [sessionId, records] of this.sessions) {
      if (excludedSessions.has(sessionId)) continue;
      for (const stored of records) {
        const { message } = stored;
        if (stored.archived || !roles.has(message.role)) continue;
        if (kinds !== undefined && (message.kind === undefined || !kinds.has(message.kind))) continue;
        if (message.kind !== undefined && excludedKinds.has(message.kind)) continue;
        if (since !== undefined && (message.timestamp as number) < since) continue;
        if (platform !== undefined && (message.metadata ?? {}).platform !== platform) continue;
        hits.push({ sessionId, stored });
      }
    }
    hits.sort((a, b) => byStamp(a.stored, b.stored));
    return checks.newest(hits, wanted).map(({ sessionId, stored }) => ({ sessionId, message: this.out(stored.message) }));
  }

  async updateMessageContent(sessionId: string, oldText: string, newText: string, recentLimit?: number): Promise<number> {
    const session = checks.checkId(sessionId, 'sessionId');
    const [search, replacement] = checks.checkRewrite(oldText, newText);
    const effective = checks.checkLimit(recentLimit, checks.DEFAULT_UPDATE_RECENT_LIMIT, 'recentLimit');
    let changed = 0;
    for (const stored of checks.newest(this.active(session), effective)) {
      const content = stored.message.content;
      if (typeof content !== 'string' || !content.includes(search) || search === replacement) continue;
      stored.message = { ...stored.message, content: content.split(search).join(replacement) };
      changed += 1;
    }
    return changed;
  }

  async deleteMessagesByTimestamps(sessionId: string, timestamps: number[]): Promise<number> {
    const session = checks.checkId(sessionId, 'sessionId');
    const doomed = new Set(checks.checkTimestamps(timestamps));
    const records = this.sessions.get(session);
    if (records === undefined) return 0;
    const survivors = records.filter((s) => !doomed.has(s.message.timestamp as number));
    this.sessions.set(session, survivors);
    return records.length - survivors.length;
  }

  // -- metadata ---------------------------------------------------------------------------

  async saveMetadata(namespace: string, key: string, data: Record<string, unknown>): Promise<void> {
    await this.commitMetadata([{ op: 'put', namespace, key, data }]);
  }

  async getMetadata(namespace: string, key: string): Promise<Record<string, unknown> | undefined> {
    const ns = checks.checkId(namespace, 'namespace');
    const k = checks.checkId(key, 'key');
    const stored = this.metadata.get(ns)?.get(k);
    return stored === undefined ? undefined : checks.decodeObject(stored.text);
  }

  async listMetadata(namespace: string): Promise<MetadataEntry[]> {
    const ns = checks.checkId(namespace, 'namespace');
    const entries: MetadataEntry[] = [];
    for (const key of this.sortedKeys(ns)) {
      const stored = this.metadata.get(ns)?.get(key) as StoredMetadata;
      const data = checks.decodeObject(stored.text);
      if (data !== undefined) entries.push({ key, data, updatedAt: stored.updatedAt });
    }
    return entries;
  }

  async listMetadataKeys(namespace: string): Promise<string[]> {
    return this.sortedKeys(checks.checkId(namespace, 'namespace'));
  }

  private sortedKeys(namespace: string): string[] {
    return [...(this.metadata.get(namespace)?.keys() ?? [])].sort(checks.compareCodePoints);
  }

  async deleteMetadata(namespace: string, key: string): Promise<void> {
    this.remove(checks.checkId(namespace, 'namespace'), checks.checkId(key, 'key'));
  }

  private remove(namespace: string, key: string): void {
    const space = this.metadata.get(namespace);
    if (space === undefined) return;
    space.delete(key);
    if (space.size === 0) this.metadata.delete(namespace);
  }

  async commitMetadata(ops: readonly MetadataOp[]): Promise<void> {
    if (!Array.isArray(ops)) throw new TypeError(`ops must be a list of MetadataOp, got ${checks.typeName(ops)}`);
    const checked = (ops as unknown[]).map((op, index) => {
      if (!checks.isPlainObject(op) || (op.op !== 'put' && op.op !== 'del')) {
        throw new TypeError(`op ${index} must be a put or del MetadataOp, got ${checks.typeName(op)}`);
      }
      return { op: op.op, namespace: checks.checkId(op.namespace, 'namespace'), key: checks.checkId(op.key, 'key'), data: op.data };
    });
    const encoded = checked.map((op, index) => ({
      ...op,
      text: op.op === 'put' ? checks.encodeObject(op.data, `op ${index} (${op.namespace}/${op.key})`) : undefined,
    }));
    for (const op of encoded) {
      if (op.text === undefined) {
        this.remove(op.namespace, op.key);
        continue;
      }
      const space = this.metadata.get(op.namespace) ?? new Map<string, StoredMetadata>();
      this.metadata.set(op.namespace, space);
      const previous = space.get(op.key)?.updatedAt;
      const now = Date.now();
      space.set(op.key, { text: op.text, updatedAt: previous === undefined || now > previous ? now : previous + 1 });
    }
  }

  plantRawMetadata(namespace: string, key: string, kind: RawMetadataKind): boolean {
    const space = this.metadata.get(namespace) ?? new Map<string, StoredMetadata>();
    this.metadata.set(namespace, space);
    space.set(key, { text: RAW_PAYLOADS[kind], updatedAt: Date.now() });
    return true;
  }
}

/** A factory for serve(): the reference backend under a name, with any store class. */
export function referenceFactory(
  name: string, make: (config: StoreConfig) => MemoryService = (config) => new ReferenceMemory(config),
): BackendFactory {
  return {
    name,
    capabilities: { ordering: 'timestamp', metadataAtomicity: 'atomic', archiveAtomicity: 'atomic' },
    open: make,
  };
}

if (require.main === module) serve(referenceFactory('typescript-reference'));
