/**
 * serve(factory): speak the stdio protocol (JSON-RPC 2.0, one message per line) on this
 * process's stdin/stdout. stdout carries protocol lines only: console.log and friends are sent
 * to stderr, the adapter's log.
 */
import * as readline from 'node:readline';
import { decode, encode } from './codec';
import { BackendFactory, ConfigError, MemoryService, RawMetadataAccess, ValueError } from './contract';

export const PROTOCOL_VERSION = 1;

const OPTIONAL_METHODS = [
  'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange',
  'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent',
  'deleteMessagesByTimestamps',
] as const;

type Params = Record<string, unknown>;
type Store = MemoryService & Partial<RawMetadataAccess>;

/** How each contract method's params become its arguments (absent optional params stay absent). */
const ARGUMENTS: Record<string, (p: Params) => unknown[]> = {
  saveMessage: (p) => [p.sessionId, p.message],
  getHistory: (p) => ('limit' in p ? [p.sessionId, p.limit] : [p.sessionId]),
  clearSession: (p) => [p.sessionId],
  archiveSpan: (p) => [p.sessionId, p.span],
  saveMetadata: (p) => [p.namespace, p.key, p.data],
  getMetadata: (p) => [p.namespace, p.key],
  listMetadata: (p) => [p.namespace],
  deleteMetadata: (p) => [p.namespace, p.key],
  commitMetadata: (p) => [p.ops],
  clearAll: () => [],
  getFullHistory: (p) => ('limit' in p ? [p.sessionId, p.limit] : [p.sessionId]),
  countHistory: (p) => [p.sessionId],
  getMessagesBySessionRange: (p) => {
    const args = [p.sessionId, p.fromTs, p.toTs, p.roles, p.excludeKinds];
    while (args.length > 3 && args[args.length - 1] === undefined) args.pop();
    return args;
  },
  getRecentMessagesAcrossSessions: (p) => [p.query],
  listMetadataKeys: (p) => [p.namespace],
  updateMessageContent: (p) =>
    'recentLimit' in p ? [p.sessionId, p.oldText, p.newText, p.recentLimit] : [p.sessionId, p.oldText, p.newText],
  deleteMessagesByTimestamps: (p) => [p.sessionId, p.timestamps],
  plantRawMetadata: (p) => [p.namespace, p.key, p.kind],
};

class ProtocolError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

function errorClass(error: unknown): string {
  if (error instanceof TypeError) return 'TypeError';
  if (error instanceof ValueError || error instanceof RangeError) return 'ValueError';
  if (error instanceof ConfigError) return 'ConfigError';
  return 'Error';
}

export function serve(factory: BackendFactory): void {
  const log = (...args: unknown[]): void => {
    process.stderr.write(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ') + '\n');
  };
  console.log = log;
  console.info = log;
  console.debug = log;

  const stores = new Map<string, Store>();
  let nextHandle = 1;
  let methods: string[] | undefined;
  let raw = false;

  const send = (message: object): void => {
    process.stdout.write(JSON.stringify(message) + '\n');
  };

  async function closeStore(store: Store): Promise<void> {
    if (factory.close) await factory.close(store);
    else {
      const closer = (store as unknown as { close?: () => unknown }).close;
      if (typeof closer === 'function') await closer.call(store);
    }
  }

  async function handle(method: string, params: Params): Promise<unknown> {
    switch (method) {
      case 'hello': {
        if (params.protocolVersion !== PROTOCOL_VERSION) {
          throw new ProtocolError(-32602, `protocol version ${String(params.protocolVersion)} is not ${PROTOCOL_VERSION}`);
        }
        if (methods === undefined) {
          const probe = (await factory.open({ rangeQueryLimit: 500, crossSessionMaxLimit: 1000 })) as Store;
          methods = OPTIONAL_METHODS.filter((name) => typeof probe[name] === 'function');
          raw = typeof probe.plantRawMetadata === 'function';
          if (raw) methods.push('plantRawMetadata');
          await closeStore(probe);
        }
        return {
          protocolVersion: PROTOCOL_VERSION,
          adapter: factory.name,
          capabilities: factory.capabilities,
          methods,
          rawMetadata: raw,
          ...(factory.knownFailures === undefined ? {} : { knownFailures: factory.knownFailures }),
        };
      }
      case 'open': {
        const store = (await factory.open({
          rangeQueryLimit: params.rangeQueryLimit as number,
          crossSessionMaxLimit: params.crossSessionMaxLimit as number,
        })) as Store;
        const id = `s${nextHandle++}`;
        stores.set(id, store);
        return { handle: id };
      }
      case 'close': {
        const store = storeOf(params);
        stores.delete(params.handle as string);
        await closeStore(store);
        return null;
      }
      default: {
        const toArgs = ARGUMENTS[method];
        if (toArgs === undefined) throw new ProtocolError(-32601, `unknown method ${method}`);
        const store = storeOf(params);
        const fn = (store as unknown as Record<string, unknown>)[method];
        if (typeof fn !== 'function') throw new ProtocolError(-32601, `the store has no method ${method}`);
        const decoded: Params = {};
        for (const [key, value] of Object.entries(params)) {
          if (key !== 'handle') Object.defineProperty(decoded, key, { value: decode(value), enumerable: true });
        }
        return encode(await (fn as (...a: unknown[]) => unknown).apply(store, toArgs(decoded)));
      }
    }
  }

  function storeOf(params: Params): Store {
    const store = stores.get(params.handle as string);
    if (store === undefined) throw new ProtocolError(-32602, `no open store ${String(params.handle)}`);
    return store;
  }

  async function answer(line: string): Promise<void> {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(line) as typeof request;
    } catch (error) {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `parse error: ${String(error)}`, data: { errorClass: 'Error' } } });
      return;
    }
    const id = typeof request.id === 'number' ? request.id : null;
    try {
      if (typeof request.method !== 'string' || typeof request.params !== 'object' || request.params === null) {
        throw new ProtocolError(-32600, 'invalid request');
      }
      const result = await handle(request.method, request.params as Params);
      send({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (error) {
      const code = error instanceof ProtocolError ? error.code : -32000;
      const message = error instanceof Error ? error.message : String(error);
      const data: Record<string, string> = { errorClass: error instanceof ProtocolError ? 'Error' : errorClass(error) };
      if (error instanceof Error && error.stack !== undefined) data.stack = error.stack;
      send({ jsonrpc: '2.0', id, error: { code, message, data } });
    }
  }

  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const inFlight = new Set<Promise<void>>();
  input.on('line', (line) => {
    if (line.trim() === '') return;
    const done: Promise<void> = answer(line).finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  input.on('close', () => {
    // End of input: answer what is in flight, flush stdout, exit (the kit kills the process
    // group a second later anyway, so a backend holding handles open cannot keep it alive).
    void Promise.allSettled([...inFlight]).then(() => process.stdout.write('', () => process.exit(0)));
  });
}
