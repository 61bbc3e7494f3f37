/**
 * The protocol's value encoding (docs/stdio-protocol.md): JSON with one-member tagged objects
 * for what JSON cannot spell. Decoded values that are no JSON type (bytes, maps, opaque values)
 * are what a backend's own argument checks must refuse.
 */

/** A value the caller's language had and JSON has not (a set, a date, a regex...). */
export class Opaque {
  constructor(readonly type: string) {}
}

const TAGS = new Set(['$num', '$int', '$bytes', '$map', '$opaque', '$object']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.getPrototypeOf(value) === Object.prototype;
}

export function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
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
      case '$map':
        return new Map((body as unknown[][]).map(([k, v]) => [decode(k), decode(v)]));
      case '$opaque':
        return new Opaque(String(body));
      case '$object':
        return decodeMembers(body as Record<string, unknown>);
      default:
        break;
    }
  }
  return decodeMembers(value);
}

function decodeMembers(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, key, { value: decode(item), enumerable: true, writable: true, configurable: true });
  }
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
