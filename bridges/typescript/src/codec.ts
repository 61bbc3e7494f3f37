/**
 * The protocol's value encoding (docs/stdio-protocol.md): JSON with one-member tagged objects
 * for what JSON cannot spell. Decoded values that are no JSON type (bytes, maps, opaque values)
 * are what a backend's own argument checks must refuse.
 */

/** A value the caller's language had and JSON has not (a set, a date, a regex...). */
export class Opaque {
  constructor(readonly type: string) {}
}

const TAGS = new Set(['$num', '$int', '$bytes', '$map', '$opaque', '$object', '$cycle', '$deep']);

/**
 * What this transport can hold (the hello's `transport`): JavaScript numbers are doubles, so an
 * integer past Number.MAX_SAFE_INTEGER is no value a JavaScript caller can pass as a `number`
 * (the kit then reports the checks that need one `unverified`); everything else the kit sends
 * is made here as the JavaScript value a caller would pass: NaN and Infinity, a Uint8Array, a
 * Map, a Set, a Date, an object of a class, a cyclic object, nesting thousands of levels deep.
 */
export const TRANSPORT = {
  language: 'JavaScript',
  safeInteger: Number.MAX_SAFE_INTEGER,
  kinds: ['non-finite', 'bytes', 'map', 'opaque', 'cycle', 'deep'],
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.getPrototypeOf(value) === Object.prototype;
}

function setMember(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The JavaScript value a caller would pass for a value of another language's type. */
function opaque(type: string): unknown {
  if (type === 'set' || type === 'frozenset') return new Set();
  if (type === 'datetime' || type === 'date') return new Date(0);
  return new Opaque(type);
}

/**
 * A protocol value as a JavaScript value. `ancestors` are the containers being built above it
 * (a `{"$cycle": k}` is the one k levels up: the kit's cyclic values are made cyclic here).
 */
export function decode(value: unknown, ancestors: unknown[] = []): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    ancestors.push(out);
    for (const item of value) out.push(decode(item, ancestors));
    ancestors.pop();
    return out;
  }
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const tag = keys[0] as string;
    const body = value[tag];
    switch (tag) {
      case '$num':
        return body === 'Infinity' ? Infinity : body === '-Infinity' ? -Infinity : NaN;
      case '$int':
        return BigInt(String(body));
      case '$bytes':
        return new Uint8Array(Buffer.from(String(body), 'base64'));
      case '$map': {
        const out = new Map<unknown, unknown>();
        ancestors.push(out);
        for (const [k, v] of body as unknown[][]) out.set(decode(k, ancestors), decode(v, ancestors));
        ancestors.pop();
        return out;
      }
      case '$opaque':
        return opaque(String(body));
      case '$object':
        return decodeMembers(body as Record<string, unknown>, ancestors);
      case '$cycle':
        return ancestors[ancestors.length - Number(body)];
      case '$deep':
        return deep(body as { path: Array<string | number>; leaf: unknown });
      default:
        break;
    }
  }
  return decodeMembers(value, ancestors);
}

/** A chain of one-member objects and one-item arrays around a leaf, built without recursion. */
function deep(body: { path: Array<string | number>; leaf: unknown }): unknown {
  let out = decode(body.leaf);
  for (let index = body.path.length - 1; index >= 0; index--) {
    const step = body.path[index];
    if (typeof step === 'number') {
      out = [out];
    } else {
      const wrapper: Record<string, unknown> = {};
      setMember(wrapper, step as string, out);
      out = wrapper;
    }
  }
  return out;
}

function decodeMembers(value: Record<string, unknown>, ancestors: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  ancestors.push(out);
  for (const [key, item] of Object.entries(value)) setMember(out, key, decode(item, ancestors));
  ancestors.pop();
  return out;
}

/** A result as protocol JSON: numbers JSON cannot spell become $num, undefined becomes null. */
export function encode(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $num: 'NaN' };
    if (value === Infinity) return { $num: 'Infinity' };
    if (value === -Infinity) return { $num: '-Infinity' };
    return value;
  }
  if (typeof value === 'bigint') return { $int: value.toString() };
  if (Array.isArray(value)) return value.map(encode);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = encode(item);
    }
    const keys = Object.keys(out);
    return keys.length === 1 && TAGS.has(keys[0] as string) ? { $object: out } : out;
  }
  return value;
}
