/**
 * The argument checks and pure rule pieces of the reference backend, the same as the Python
 * reference drivers' (aalis_memory/drivers/semantics.py): a bad argument raises TypeError or
 * ValueError before anything is touched.
 */
import { Opaque } from './codec';
import { CONTROL_KINDS, Message, ValueError } from './contract';

export {
  DEFAULT_CROSS_SESSION_MAX_LIMIT,
  DEFAULT_CROSS_SESSION_ROLES,
  DEFAULT_FULL_HISTORY_LIMIT,
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_UPDATE_RECENT_LIMIT,
} from './contract-table';
export const MAX_TEXT_BYTES = 15 * 1024 * 1024;
export const MAX_NESTING = 32;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Opaque) return value.type;
  if (value instanceof Map) return 'map';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.getPrototypeOf(value) === Object.prototype;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function checkUnicode(text: string, what: string): string {
  const found = LONE_SURROGATE.exec(text);
  if (found !== null) {
    const code = (found[0] as string).charCodeAt(0).toString(16).toUpperCase();
    throw new ValueError(`${what}: lone surrogate U+${code} at position ${found.index}; text must be valid Unicode`);
  }
  return text;
}

export function checkId(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeName(value)}`);
  return checkUnicode(value, what);
}

export function checkLimit(limit: unknown, fallback: number, what: string): number {
  if (limit === undefined || limit === null) return fallback;
  if (typeof limit === 'bigint') {
    if (limit < 0n) throw new ValueError(`${what} must be a non-negative integer or Infinity, got ${limit}`);
    return Number(limit);
  }
  if (typeof limit !== 'number') {
    throw new ValueError(`${what} must be a non-negative integer or Infinity, got ${typeName(limit)}`);
  }
  if (limit === Infinity) return Infinity;
  if (Number.isNaN(limit) || limit < 0 || !Number.isInteger(limit)) {
    throw new ValueError(`${what} must be a non-negative integer or Infinity, got ${limit}`);
  }
  return limit;
}

export function checkCount(count: unknown, what = 'count'): number {
  const value = checkLimit(count, 0, what);
  if (value === Infinity) throw new ValueError(`${what} must be a non-negative integer, got Infinity`);
  return value;
}

/** Iterating what Python would iterate: arrays, strings (characters), objects (their keys). */
function items(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPlainObject(value)) return Object.keys(value);
  throw new TypeError(`${what} must be a list, got ${typeName(value)}`);
}

export function checkKeep(keep: unknown): number[] {
  return items(keep, 'keep').map((item) => checkCount(item, 'keep position'));
}

export function checkStrings(values: unknown, what: string): string[] | undefined {
  if (values === undefined || values === null) return undefined;
  if (!Array.isArray(values)) throw new TypeError(`${what} must be a list of strings, got ${typeName(values)}`);
  return values.map((item) => checkId(item, `${what} item`));
}

export function checkTimestamp(value: unknown, what: string, finite = false): number {
  let out: number;
  if (typeof value === 'bigint') {
    if (value < INT64_MIN || value > INT64_MAX) throw new ValueError(`${what} ${value} does not fit in 64 signed bits`);
    out = Number(value);
  } else if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new ValueError(`${what} must not be NaN (it could not be ordered)`);
    out = value;
  } else {
    throw new TypeError(`${what} must be a number (epoch ms), got ${typeName(value)}`);
  }
  if (finite && !Number.isFinite(out)) throw new ValueError(`${what} must be finite, got ${out}`);
  return out;
}

export function checkTimestamps(values: unknown): number[] {
  if (!Array.isArray(values)) throw new TypeError(`timestamps must be a list of numbers, got ${typeName(values)}`);
  return [...new Set(values.map((item, i) => checkTimestamp(item, `timestamps[${i}]`)))];
}

export function checkOldText(oldText: unknown): string {
  if (typeof oldText !== 'string') throw new TypeError(`oldText must be a string, got ${typeName(oldText)}`);
  if (oldText === '') throw new ValueError("oldText must be a non-empty string, got ''");
  return checkUnicode(oldText, 'oldText');
}

export function checkRewrite(oldText: unknown, newText: unknown): [string, string] {
  if (typeof newText !== 'string') throw new TypeError(`newText must be a string, got ${typeName(newText)}`);
  return [checkOldText(oldText), checkUnicode(newText, 'newText')];
}

/** Refuse nesting deeper than MAX_NESTING (cycles included), iteratively. */
export function checkNesting(value: unknown, what: string): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    let children: unknown[];
    if (Array.isArray(item)) children = item;
    else if (isPlainObject(item)) children = Object.values(item);
    else if (item instanceof Map) children = [...item.values()];
    else continue;
    if (depth > MAX_NESTING) throw new ValueError(`${what}: nested deeper than ${MAX_NESTING} levels (or circular)`);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

function checkJsonValue(value: unknown, what: string): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    checkUnicode(value, what);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ValueError(`${what}: not JSON-serializable: ${value}`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) checkJsonValue(item, what);
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      checkUnicode(key, what);
      checkJsonValue(item, what);
    }
    return;
  }
  if (value instanceof Map) throw new TypeError(`${what}: an object key is not a string`);
  throw new TypeError(`${what}: not JSON-serializable: ${typeName(value)}`);
}

/** The one strict JSON encoder: TypeError/ValueError when the value is no JSON this store keeps. */
export function strictJson(value: unknown, what: string): string {
  checkNesting(value, what);
  checkJsonValue(value, what);
  const text = JSON.stringify(value);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_TEXT_BYTES) {
    throw new ValueError(`${what}: ${size} bytes of JSON, over the ${MAX_TEXT_BYTES}-byte limit of one payload`);
  }
  return text;
}

export function encodeObject(data: unknown, what: string): string {
  if (!isPlainObject(data)) throw new TypeError(`${what}: metadata data must be an object, got ${typeName(data)}`);
  return strictJson(data, `${what}: metadata data`);
}

export function decodeObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const OPTIONAL_TEXT = ['toolCallId', 'name', 'kind'] as const;
const TEXT_LISTS = ['images', 'audios'] as const;
const OBJECT_LISTS = ['toolCalls', 'segments'] as const;

/** A message with the fields of the contract's shape, stamped when it has no timestamp. */
export function prepareMessage(message: unknown, now: number): Message {
  if (!isPlainObject(message)) throw new TypeError(`message must be a Message, got ${typeName(message)}`);
  const problems: string[] = [];
  if (typeof message.role !== 'string') problems.push(`role is ${typeName(message.role)}`);
  if (message.content !== null && typeof message.content !== 'string') problems.push(`content is ${typeName(message.content)}`);
  const reasoning = message.reasoningContent;
  if (reasoning !== undefined && reasoning !== null && typeof reasoning !== 'string') {
    problems.push(`reasoningContent is ${typeName(reasoning)}`);
  }
  for (const name of OPTIONAL_TEXT) {
    const value = message[name];
    if (value !== undefined && value !== null && typeof value !== 'string') problems.push(`${name} is ${typeName(value)}`);
  }
  for (const name of TEXT_LISTS) {
    const value = message[name];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.every((i) => typeof i === 'string'))) {
      problems.push(`${name} holds a non-string`);
    }
  }
  for (const name of OBJECT_LISTS) {
    const value = message[name];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.every(isPlainObject))) {
      problems.push(`${name} holds a non-object`);
    }
  }
  if (message.metadata !== undefined && message.metadata !== null && !isPlainObject(message.metadata)) {
    problems.push(`metadata is ${typeName(message.metadata)}`);
  }
  if (problems.length > 0) throw new TypeError(`message fields of the wrong type: ${problems.join(', ')}`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) if (value !== undefined && value !== null) out[key] = value;
  if ('reasoningContent' in message) out.reasoningContent = message.reasoningContent;
  out.content = message.content;
  const stamp = message.timestamp === undefined || message.timestamp === null ? now : message.timestamp;
  out.timestamp = checkTimestamp(stamp, 'message.timestamp', true);
  const text = strictJson(out, 'message');
  return JSON.parse(text) as Message;
}

export function isControl(message: Message): boolean {
  return message.kind !== undefined && CONTROL_KINDS.includes(message.kind);
}

/** Everything after the (limit+1)-th newest conversation message; control records ride along. */
export function historyWindow<T extends { message: Message }>(active: readonly T[], limit: number): T[] {
  if (limit === 0) return [];
  let seen = 0;
  for (let index = active.length - 1; index >= 0; index--) {
    if (!isControl((active[index] as T).message)) {
      seen += 1;
      if (seen > limit) return active.slice(index + 1);
    }
  }
  return [...active];
}

/** The last `limit` items, every item counting. */
export function newest<T>(items: readonly T[], limit: number): T[] {
  if (limit >= items.length) return [...items];
  return items.slice(items.length - limit);
}

export function archivePositions(activeLength: number, count: number, keep: readonly number[]): number[] {
  const span = Math.min(count, activeLength);
  const kept = new Set(keep.filter((k) => k >= 0 && k < span));
  const out: number[] = [];
  for (let position = 0; position < span; position++) if (!kept.has(position)) out.push(position);
  return out;
}

/** Python's string order: by code point (not by UTF-16 code unit, as Array.prototype.sort). */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = (left[i] as string).codePointAt(0) as number;
    const y = (right[i] as string).codePointAt(0) as number;
    if (x !== y) return x - y;
  }
  return left.length - right.length;
}
