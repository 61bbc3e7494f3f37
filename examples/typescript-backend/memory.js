/**
 * A small in-memory MemoryService backend, written as plain JavaScript code writes one: an ES
 * module, JavaScript numbers, records with every field (null where a message has none), null
 * for a missing metadata entry, RangeError for a bad value, and only the nine required methods
 * (the optional ones are left out: the kit reports their rules `not implemented`).
 *
 * It knows nothing of the kit: adapter.js serves it.
 */

const DEFAULT_HISTORY_LIMIT = 50;
const MAX_PAYLOAD_BYTES = 15 * 1024 * 1024;
const MAX_NESTING = 32;
const CONTROL_KINDS = ['event-marker'];
const FIELDS = ['toolCalls', 'toolCallId', 'name', 'kind', 'reasoningContent', 'segments', 'images', 'audios', 'metadata'];
const TEXT_FIELDS = ['toolCallId', 'name', 'kind', 'reasoningContent'];
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype) {
    return value.constructor?.name ?? 'object';
  }
  return typeof value;
}

function isObject(value) {
  return kindOf(value) === 'object';
}

function text(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${kindOf(value)}`);
  if (LONE_SURROGATE.test(value)) throw new RangeError(`${what} is not valid Unicode (a lone surrogate)`);
  return value;
}

function limitOf(limit, fallback, what) {
  if (limit === undefined || limit === null) return fallback;
  if (limit === Infinity) return Infinity;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`${what} must be a non-negative integer or Infinity, got ${String(limit)}`);
  }
  return limit;
}

function timestampOf(value, what) {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number (epoch ms), got ${kindOf(value)}`);
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be finite, got ${value}`);
  return value;
}

/** Plain JSON only (no cycles, no NaN, no Map or Date...), at most MAX_NESTING levels deep. */
function checkJson(value, what, depth = 1) {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') return void text(value, what);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${what}: ${value} is not JSON`);
    return;
  }
  if (!Array.isArray(value) && !isObject(value)) throw new TypeError(`${what}: a ${kindOf(value)} is not JSON`);
  if (depth > MAX_NESTING) throw new RangeError(`${what}: nested deeper than ${MAX_NESTING} levels (or circular)`);
  for (const [key, item] of Object.entries(value)) {
    text(key, what);
    checkJson(item, what, depth + 1);
  }
}

/** The JSON text a value is kept as: a copy no caller can change afterwards. */
function frozenJson(value, what) {
  checkJson(value, what);
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) throw new RangeError(`${what}: over ${MAX_PAYLOAD_BYTES} bytes`);
  return json;
}

/** A message as stored: every field present, null where the message has none. */
function record(message, now) {
  if (!isObject(message)) throw new TypeError(`message must be an object, got ${kindOf(message)}`);
  text(message.role, 'message.role');
  if (message.content !== null) text(message.content, 'message.content');
  for (const field of TEXT_FIELDS) if (message[field] != null) text(message[field], `message.${field}`);
  for (const field of ['images', 'audios']) {
    if (message[field] != null && !(Array.isArray(message[field]) && message[field].every((i) => typeof i === 'string'))) {
      throw new TypeError(`message.${field} must be a list of strings`);
    }
  }
  for (const field of ['toolCalls', 'segments']) {
    if (message[field] != null && !(Array.isArray(message[field]) && message[field].every(isObject))) {
      throw new TypeError(`message.${field} must be a list of objects`);
    }
  }
  if (message.metadata != null && !isObject(message.metadata)) throw new TypeError('message.metadata must be an object');
  const stored = { role: message.role, content: message.content, timestamp: message.timestamp ?? now };
  timestampOf(stored.timestamp, 'message.timestamp');
  for (const field of FIELDS) stored[field] = message[field] ?? null;
  return frozenJson(stored, 'message');
}

const isControl = (message) => message.kind !== null && CONTROL_KINDS.includes(message.kind);

/** Keys in code point order (a plain sort compares UTF-16 code units). */
function byCodePoint(a, b) {
  const [left, right] = [[...a], [...b]];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = left[i].codePointAt(0) - right[i].codePointAt(0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

export class MemoryBackend {
  constructor({ rangeQueryLimit, crossSessionMaxLimit }) {
    this.rangeQueryLimit = rangeQueryLimit;
    this.crossSessionMaxLimit = crossSessionMaxLimit;
    this.sessions = new Map(); // sessionId -> [{ json, timestamp, seq, archived }], in history order
    this.namespaces = new Map(); // namespace -> Map(key -> { json, updatedAt })
    this.seq = 0;
  }

  async saveMessage(sessionId, message) {
    text(sessionId, 'sessionId');
    const json = record(message, Date.now());
    const row = { json, timestamp: JSON.parse(json).timestamp, seq: this.seq++, archived: false };
    const rows = this.sessions.get(sessionId) ?? [];
    let at = rows.length; // after every message of the same or an earlier timestamp
    while (at > 0 && rows[at - 1].timestamp > row.timestamp) at--;
    rows.splice(at, 0, row);
    this.sessions.set(sessionId, rows);
  }

  /** The newest `limit` conversation messages, with the control records among them. */
  async getHistory(sessionId, limit) {
    text(sessionId, 'sessionId');
    const wanted = limitOf(limit, DEFAULT_HISTORY_LIMIT, 'limit');
    if (wanted === 0) return [];
    // From the newest row back, parsing only what it returns: 20 messages cost the same on a
    // session of 50,000 (the kit's scaling probe, PERF-01, times that in every run).
    const rows = this.sessions.get(sessionId) ?? [];
    const window = [];
    let seen = 0;
    for (let index = rows.length - 1; index >= 0; index--) {
      if (rows[index].archived) continue;
      const message = JSON.parse(rows[index].json);
      if (!isControl(message) && ++seen > wanted) break;
      window.push(message);
    }
    return window.reverse();
  }

  async clearSession(sessionId) {
    this.sessions.delete(text(sessionId, 'sessionId'));
  }

  /** Archive the oldest `count` active messages but the positions in `keep`. */
  async archiveSpan(sessionId, span) {
    text(sessionId, 'sessionId');
    if (!isObject(span)) throw new TypeError(`span must be { count, keep }, got ${kindOf(span)}`);
    const count = limitOf(span.count, 0, 'span.count');
    if (count === Infinity) throw new RangeError('span.count must be a non-negative integer, got Infinity');
    let keep = span.keep ?? [];
    if (typeof keep === 'string') keep = [...keep];
    else if (isObject(keep)) keep = Object.keys(keep);
    else if (!Array.isArray(keep)) throw new TypeError(`span.keep must be a list, got ${kindOf(keep)}`);
    const kept = new Set(keep.map((position) => {
      const checked = limitOf(position, 0, 'span.keep position');
      if (checked === Infinity) throw new RangeError('span.keep position must be a non-negative integer, got Infinity');
      return checked;
    }));
    const oldest = []; // the first `count` active rows, not a copy of the whole session
    for (const row of this.sessions.get(sessionId) ?? []) {
      if (oldest.length >= count) break;
      if (!row.archived) oldest.push(row);
    }
    const rows = oldest.filter((_, position) => !kept.has(position));
    for (const row of rows) row.archived = true;
    return rows.length;
  }

  // -- metadata: namespace -> key -> { json, updatedAt } ----------------------------------

  async saveMetadata(namespace, key, data) {
    await this.commitMetadata([{ op: 'put', namespace, key, data }]);
  }

  async getMetadata(namespace, key) {
    text(namespace, 'namespace');
    text(key, 'key');
    const entry = this.namespaces.get(namespace)?.get(key);
    return entry === undefined ? null : JSON.parse(entry.json);
  }

  async listMetadata(namespace) {
    text(namespace, 'namespace');
    const entries = [...(this.namespaces.get(namespace) ?? new Map())];
    entries.sort(([a], [b]) => byCodePoint(a, b));
    return entries.map(([key, entry]) => ({ key, data: JSON.parse(entry.json), updatedAt: entry.updatedAt }));
  }

  async deleteMetadata(namespace, key) {
    await this.commitMetadata([{ op: 'del', namespace, key }]);
  }

  /** All or nothing: every op is checked (and its data copied) before the first is applied. */
  async commitMetadata(ops) {
    if (!Array.isArray(ops)) throw new TypeError(`ops must be a list, got ${kindOf(ops)}`);
    const checked = ops.map((op, index) => {
      if (!isObject(op) || (op.op !== 'put' && op.op !== 'del')) throw new TypeError(`ops[${index}] must be a put or a del`);
      const namespace = text(op.namespace, 'namespace');
      const key = text(op.key, 'key');
      if (op.op === 'del') return { namespace, key };
      if (!isObject(op.data)) throw new TypeError(`ops[${index}].data must be an object, got ${kindOf(op.data)}`);
      return { namespace, key, json: frozenJson(op.data, `ops[${index}].data`) };
    });
    for (const { namespace, key, json } of checked) {
      const entries = this.namespaces.get(namespace) ?? new Map();
      if (json === undefined) {
        entries.delete(key);
      } else {
        const previous = entries.get(key)?.updatedAt ?? -Infinity;
        entries.set(key, { json, updatedAt: Math.max(Date.now(), previous + 1) });
      }
      if (entries.size > 0) this.namespaces.set(namespace, entries);
      else this.namespaces.delete(namespace);
    }
  }
}
