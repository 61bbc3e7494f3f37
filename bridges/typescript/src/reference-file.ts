/**
 * The reference backend kept in a file: the durable variant the kit's crash checks run on
 * (CRASH-01/02). Each write call ends by writing the whole store to `<path>/reference.json`
 * through a temporary file and an atomic rename, before it returns: a call acknowledged is on
 * disk, and a SIGKILL at any moment leaves the file as it was after some whole call.
 *
 * Run it as an adapter: `node dist/reference-file.js`. Opened without a path it is in memory
 * only.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { BackendFactory, Message, MetadataOp, RawMetadataKind, StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory, StoredMessage } from './reference';
import { serve } from './serve';

interface Saved {
  writes: number;
  sessions: Array<[string, StoredMessage[]]>;
  metadata: Array<[string, Array<[string, { text: string; updatedAt: number }]>]>;
}

export const STORE_FILE = 'reference.json';

export class FileReferenceMemory extends ReferenceMemory {
  private readonly file: string | undefined;

  constructor(config: StoreConfig) {
    super(config);
    this.file = config.path === undefined ? undefined : nodePath.join(config.path, STORE_FILE);
    if (this.file !== undefined && fs.existsSync(this.file)) {
      const saved = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Saved;
      this.writes = saved.writes;
      this.sessions = new Map(saved.sessions);
      this.metadata = new Map(saved.metadata.map(([ns, entries]) => [ns, new Map(entries)]));
    }
  }

  /** The whole store to its file: a temporary file, flushed, renamed over the old one. */
  private persist(): void {
    if (this.file === undefined) return;
    const saved: Saved = {
      writes: this.writes,
      sessions: [...this.sessions],
      metadata: [...this.metadata].map(([ns, entries]) => [ns, [...entries]]),
    };
    const temporary = `${this.file}.tmp`;
    const fd = fs.openSync(temporary, 'w');
    try {
      fs.writeSync(fd, JSON.stringify(saved));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, this.file);
  }

  override async saveMessage(sessionId: string, message: Message): Promise<void> {
    await super.saveMessage(sessionId, message);
    this.persist();
  }

  override async archiveSpan(sessionId: string, span: { count: number; keep: readonly number[] }): Promise<number> {
    const archived = await super.archiveSpan(sessionId, span);
    this.persist();
    return archived;
  }

  override async clearSession(sessionId: string): Promise<void> {
    await super.clearSession(sessionId);
    this.persist();
  }

  override async clearAll(): Promise<void> {
    await super.clearAll();
    this.persist();
  }

  override async updateMessageContent(sessionId: string, oldText: string, newText: string, recentLimit?: number): Promise<number> {
    const changed = await super.updateMessageContent(sessionId, oldText, newText, recentLimit);
    this.persist();
    return changed;
  }

  override async deleteMessagesByTimestamps(sessionId: string, timestamps: number[]): Promise<number> {
    const deleted = await super.deleteMessagesByTimestamps(sessionId, timestamps);
    this.persist();
    return deleted;
  }

  override async deleteMetadata(namespace: string, key: string): Promise<void> {
    await super.deleteMetadata(namespace, key);
    this.persist();
  }

  override async commitMetadata(ops: readonly MetadataOp[]): Promise<void> {
    await super.commitMetadata(ops);
    this.persist();
  }

  override plantRawMetadata(namespace: string, key: string, kind: RawMetadataKind): boolean {
    const planted = super.plantRawMetadata(namespace, key, kind);
    this.persist();
    return planted;
  }
}

/** The file-backed reference under a name: durable, so the kit runs CRASH-01/02 on it. */
export function fileReferenceFactory(name: string): BackendFactory {
  return {
    ...referenceFactory(name, (config) => new FileReferenceMemory(config)),
    durable: true,
    // Every write rewrites and flushes the whole file: the quick probe's 8,100 saves would each
    // write the store so far, minutes of fsyncs for a backend that exists for the crash checks.
    skipQuickScaling: 'each write rewrites and flushes the whole store file (it exists for the crash checks)',
  };
}

if (require.main === module) serve(fileReferenceFactory('typescript-reference-file'));
