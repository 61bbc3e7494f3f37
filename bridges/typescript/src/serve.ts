/**
 * serve(factory): speak the stdio protocol (JSON-RPC 2.0, one message per line) on this
 * process's stdin/stdout. stdout carries protocol lines only: console.log and friends are sent
 * to stderr, the adapter's log.
 */
import * as readline from 'node:readline';
import { decode, encode, TRANSPORT } from './codec';
import { BackendFactory, Capabilities, ConfigError, MemoryService, Message, RawMetadataAccess, ValueError } from './contract';
import { MESSAGE_READS, OPTIONAL_METHODS, OPTIONAL_PARAMS, PARAMS, REQUIRED_METHODS } from './contract-table';

export const PROTOCOL_VERSION = 1;

type Params = Record<string, unknown>;
type Store = MemoryService & Partial<RawMetadataAccess>;

/**
 * How a call's params become the method's arguments, in the order of the method table
 * (contract-table.ts): trailing optional params the kit left out stay absent, so the backend's
 * own defaults apply.
 */
function argumentsOf(method: string): ((p: Params) => unknown[]) | undefined {
  if (method === 'plantRawMetadata') return (p) => [p.namespace, p.key, p.kind];
  if (!Object.hasOwn(PARAMS, method)) return undefined;
  const names = PARAMS[method] as readonly string[];
  const optional = OPTIONAL_PARAMS[method] ?? [];
  return (p) => {
    const args = names.map((name) => p[name]);
    const last = (): string => names[args.length - 1] as string;
    while (args.length > 0 && optional.includes(last()) && !(last() in p)) args.pop();
    return args;
  };
}

class ProtocolError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** The reads whose returned messages the isolation probe changes (ISO-02). */
const READS = new Set<string>(MESSAGE_READS);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Change everything a caller can reach in a message, in place: its content, and every object
 * and array inside its toolCalls, segments, images, audios and metadata. A backend that keeps
 * (or hands out) the caller's objects shows the change on its next read.
 */
function vandalize(message: unknown): void {
  if (!isPlainObject(message)) return;
  if (typeof message.content === 'string') message.content = `${message.content} (mutated)`;
  const stack: unknown[] = ['toolCalls', 'segments', 'images', 'audios', 'metadata'].map((key) => message[key]);
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || seen.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      stack.push(...item);
      if (item.length > 0) item.push(isPlainObject(item[0]) ? { mutated: true } : 'mutated');
    } else if (isPlainObject(item)) {
      stack.push(...Object.values(item));
      for (const [key, value] of Object.entries(item)) {
        if (typeof value === 'string') item[key] = 'mutated';
        else if (typeof value === 'number') item[key] = value + 1;
      }
      item.mutated = true;
    }
  }
}

function messagesOf(result: unknown): unknown[] {
  if (!Array.isArray(result)) return [];
  return result.map((item) => (isPlainObject(item) && 'sessionId' in item ? item.message : item));
}

/** V8's RangeError for a stack overflow: Python's RecursionError, not a bad value. */
const STACK_OVERFLOW = /^Maximum call stack size exceeded/;
/** V8's RangeErrors for a value too large to hold: the size error of oversized input. */
const TOO_LARGE = /^(Invalid (string|array|typed array|array buffer) length|Array buffer allocation failed)/;

/**
 * The wire's errorClass of an error a backend threw. A RangeError keeps its meaning: a stack
 * overflow is 'RecursionError' (never a ValueError: the kit's INPUT-07 says so), a value too
 * large for the runtime is 'SizeError' (a ValueError subclass on the Python side, INPUT-06),
 * any other (a bad radix, a bad date) is 'ValueError'.
 */
export function errorClass(error: unknown): string {
  if (error instanceof TypeError) return 'TypeError';
  if (error instanceof RangeError) {
    if (STACK_OVERFLOW.test(error.message)) return 'RecursionError';
    if (TOO_LARGE.test(error.message)) return 'SizeError';
    return 'ValueError';
  }
  if (error instanceof ValueError) return 'ValueError';
  if (error instanceof ConfigError) return 'ConfigError';
  return 'Error';
}

/** The declared tiers as the handshake carries them: `rangeCap` spelled out (default true). */
export function handshakeCapabilities(capabilities: Capabilities): Required<Capabilities> {
  return { ...capabilities, rangeCap: capabilities.rangeCap ?? true };
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
          const present = (name: string): boolean => typeof (probe as unknown as Record<string, unknown>)[name] === 'function';
          methods = [...REQUIRED_METHODS, ...OPTIONAL_METHODS].filter(present);
          raw = present('plantRawMetadata');
          if (raw) methods.push('plantRawMetadata');
          await closeStore(probe);
        }
        return {
          protocolVersion: PROTOCOL_VERSION,
          adapter: factory.name,
          capabilities: handshakeCapabilities(factory.capabilities),
          methods,
          rawMetadata: raw,
          transport: TRANSPORT,
          isolation: true,
          durable: factory.durable === true,
          ...(factory.knownFailures === undefined ? {} : { knownFailures: factory.knownFailures }),
          ...(factory.documentedBackend === undefined ? {} : { documentedBackend: factory.documentedBackend }),
          ...(factory.skipQuickScaling === undefined ? {} : { skipQuickScaling: factory.skipQuickScaling }),
        };
      }
      case 'open': {
        const store = (await factory.open({
          rangeQueryLimit: params.rangeQueryLimit as number,
          crossSessionMaxLimit: params.crossSessionMaxLimit as number,
          ...(typeof params.path === 'string' ? { path: params.path } : {}),
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
      case 'isolationProbe':
        return encode(await isolationProbe(storeOf(params), params));
      default: {
        const toArgs = argumentsOf(method);
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

  /**
   * ISO-01/02 where they can be seen: in this process. Save the messages, then change the ones
   * passed to saveMessage ('saved') or the ones a read returned ('returned'), and read again.
   */
  async function isolationProbe(store: Store, params: Params): Promise<Record<string, unknown>> {
    const sessionId = decode(params.sessionId);
    const messages = decode(params.messages) as unknown[];
    const read = String(params.read);
    const fn = (store as unknown as Record<string, unknown>)[read];
    const toArgs = argumentsOf(read);
    if (!READS.has(read) || typeof fn !== 'function' || toArgs === undefined) {
      throw new ProtocolError(-32602, `the isolation probe cannot read with ${read}`);
    }
    const readParams = decode(params.readParams) as Params;
    const reading = async (): Promise<unknown> => (fn as (...a: unknown[]) => unknown).apply(store, toArgs(readParams));
    for (const message of messages) await store.saveMessage(sessionId as string, message as Message);
    if (params.mutate === 'saved') {
      messages.forEach(vandalize);
    } else {
      messagesOf(await reading()).forEach(vandalize);
    }
    return { again: await reading(), history: await store.getHistory(sessionId as string, 10) };
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
