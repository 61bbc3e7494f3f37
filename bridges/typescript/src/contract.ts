/**
 * The MemoryService contract of @aalis/api-memory, as the conformance kit checks it.
 *
 * Optional methods are detected by presence. Limits are non-negative integers or Infinity; an
 * omitted limit asks for the documented default.
 */

export type Role = string;

export interface Message {
  role: Role;
  content: string | null;
  toolCalls?: Record<string, unknown>[];
  toolCallId?: string;
  name?: string;
  /** Control records carry a kind of CONTROL_KINDS. */
  kind?: string;
  /** Epoch milliseconds; stamped with the current time at save when missing. */
  timestamp?: number;
  reasoningContent?: string | null;
  segments?: Record<string, unknown>[];
  images?: string[];
  audios?: string[];
  metadata?: Record<string, unknown>;
}

/** Kinds of control records (event markers): never sent to the model, never count as conversation. */
export const CONTROL_KINDS: readonly string[] = ['event-marker'];

export interface MetadataEntry {
  key: string;
  data: Record<string, unknown>;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
}

export type MetadataOp =
  | { op: 'put'; namespace: string; key: string; data: Record<string, unknown> }
  | { op: 'del'; namespace: string; key: string };

export interface RecentMessagesAcrossSessionsQuery {
  limit: number;
  sinceTs?: number;
  platform?: string;
  excludeSessionIds?: string[];
  roles?: Role[];
  kinds?: string[];
  excludeKinds?: string[];
}

export interface RecentMessageRecord {
  sessionId: string;
  message: Message;
}

export interface MemoryService {
  saveMessage(sessionId: string, message: Message): Promise<void>;
  getHistory(sessionId: string, limit?: number): Promise<Message[]>;
  clearSession(sessionId: string): Promise<void>;
  archiveSpan(sessionId: string, span: { count: number; keep: readonly number[] }): Promise<number>;
  clearAll?(): Promise<void>;
  getFullHistory?(sessionId: string, limit?: number): Promise<Message[]>;
  countHistory?(sessionId: string): Promise<number>;
  getMessagesBySessionRange?(
    sessionId: string,
    fromTs: number,
    toTs: number,
    roles?: Array<Message['role']>,
    excludeKinds?: string[],
  ): Promise<Message[]>;
  getRecentMessagesAcrossSessions?(query: RecentMessagesAcrossSessionsQuery): Promise<RecentMessageRecord[]>;

  saveMetadata(namespace: string, key: string, data: Record<string, unknown>): Promise<void>;
  getMetadata(namespace: string, key: string): Promise<Record<string, unknown> | undefined>;
  listMetadata(namespace: string): Promise<MetadataEntry[]>;
  listMetadataKeys?(namespace: string): Promise<string[]>;
  deleteMetadata(namespace: string, key: string): Promise<void>;
  commitMetadata(ops: readonly MetadataOp[]): Promise<void>;

  updateMessageContent?(sessionId: string, oldText: string, newText: string, recentLimit?: number): Promise<number>;
  deleteMessagesByTimestamps?(sessionId: string, timestamps: number[]): Promise<number>;
}

/** Raw storage access for the kit's META-09/META-10 checks: write an unreadable entry. */
export type RawMetadataKind = 'not-json' | 'not-object';

export interface RawMetadataAccess {
  /** Write an entry the API cannot read, bypassing the API; false if the backend cannot hold one. */
  plantRawMetadata(namespace: string, key: string, kind: RawMetadataKind): Promise<boolean> | boolean;
}

/**
 * A bad value (the Python contract's ValueError). A RangeError is reported as one too, except
 * a stack overflow (Python's RecursionError) and a value too large for the runtime to hold
 * (a size error, a ValueError on the Python side): see serve().
 */
export class ValueError extends Error {
  override name = 'ValueError';
}

/** A backend configuration error (reported as ConfigError, a ValueError on the Python side). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Ordering = 'timestamp' | 'write';
export type MetadataAtomicity = 'atomic' | 'ordered';
export type ArchiveAtomicity = 'atomic' | 'partial';

export interface Capabilities {
  ordering: Ordering;
  metadataAtomicity: MetadataAtomicity;
  archiveAtomicity: ArchiveAtomicity;
  /**
   * Whether a session range read is cut at `StoreConfig.rangeQueryLimit` (default true).
   * `false` declares a backend with no range cap: the cap's rule (RANGE-01, which binds only
   * backends with one) is then reported 'excluded by tier'.
   */
  rangeCap?: boolean;
}

export interface StoreConfig {
  /** The backend's cap on a session range read (keeps the earliest). */
  rangeQueryLimit: number;
  /** The backend's cap on a cross-session read. */
  crossSessionMaxLimit: number;
  /**
   * For a durable factory (`durable: true`): the folder the store keeps its files in. A store
   * opened on a folder that already holds one is that store, as it was left (the kit SIGKILLs an
   * adapter in the middle of a call and opens the store again from here: CRASH-01/02).
   */
  path?: string;
}

/** Which backend of the documents this one is (the documents grant some weaker tiers to one only). */
export type DocumentedBackend = 'inmemory' | 'sqlite' | 'mongodb';

/** What serve() runs: a name, the declared tiers, and how to open a fresh, empty store. */
export interface BackendFactory {
  name: string;
  capabilities: Capabilities;
  open(config: StoreConfig): MemoryService | Promise<MemoryService>;
  /** Release a store (optional; a store with a close() method is closed through it otherwise). */
  close?(store: MemoryService): void | Promise<void>;
  /** Rules this backend is known to break, with the reason: reported 'known failure', not 'fail'. */
  knownFailures?: Record<string, string>;
  /** Which backend of the documents this is, if any (declares the tiers the documents grant it). */
  documentedBackend?: DocumentedBackend;
  /**
   * Why this backend cannot afford the quick scaling probe (PERF-01) the kit runs by default
   * (filling 8,100 messages is too slow on its server, say): PERF-01 is then reported 'not run'
   * with this reason, unless the kit is run with --memory-scaling (the full probe).
   */
  skipQuickScaling?: string;
  /**
   * The store outlives its process: open() gets `config.path` and reopens what is kept there.
   * The kit then kills the adapter mid-call and checks what the reopened store holds.
   */
  durable?: boolean;
}
