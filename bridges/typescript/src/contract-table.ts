/**
 * Generated from aalis_memory.methods and aalis_memory.defaults by
 * `python -m aalis_memory.conformance contract-tables`:
 * do not edit by hand (a kit test fails while it is stale).
 */

/** The required methods of the contract, by their protocol names. */
export const REQUIRED_METHODS = [
  'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata',
  'listMetadata', 'deleteMetadata', 'commitMetadata'
] as const;

/** The optional methods of the contract (a backend has them or not: detected by presence). */
export const OPTIONAL_METHODS = [
  'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange',
  'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent',
  'deleteMessagesByTimestamps'
] as const;

/** Each method's params after `handle`, in the order the backend's method takes them. */
export const PARAMS: Readonly<Record<string, readonly string[]>> = {
  saveMessage: ['sessionId', 'message'],
  getHistory: ['sessionId', 'limit'],
  clearSession: ['sessionId'],
  archiveSpan: ['sessionId', 'span'],
  saveMetadata: ['namespace', 'key', 'data'],
  getMetadata: ['namespace', 'key'],
  listMetadata: ['namespace'],
  deleteMetadata: ['namespace', 'key'],
  commitMetadata: ['ops'],
  clearAll: [],
  getFullHistory: ['sessionId', 'limit'],
  countHistory: ['sessionId'],
  getMessagesBySessionRange: ['sessionId', 'fromTs', 'toTs', 'roles', 'excludeKinds'],
  getRecentMessagesAcrossSessions: ['query'],
  listMetadataKeys: ['namespace'],
  updateMessageContent: ['sessionId', 'oldText', 'newText', 'recentLimit'],
  deleteMessagesByTimestamps: ['sessionId', 'timestamps'],
};

/** The reads that return stored messages (alone or in records): what the isolation probe reads. */
export const MESSAGE_READS = [
  'getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions'
] as const;

/** The params the kit may leave out (the backend's own default applies), by method. */
export const OPTIONAL_PARAMS: Readonly<Record<string, readonly string[]>> = {
  getHistory: ['limit'],
  getFullHistory: ['limit'],
  getMessagesBySessionRange: ['roles', 'excludeKinds'],
  updateMessageContent: ['recentLimit'],
};

/** The contract's defaults and caps (docs/contract.md, "Defaults and caps"). */
export const DEFAULT_HISTORY_LIMIT = 50;
export const DEFAULT_FULL_HISTORY_LIMIT = 200;
export const DEFAULT_UPDATE_RECENT_LIMIT = 100;
export const DEFAULT_RANGE_QUERY_LIMIT = 500;
export const DEFAULT_CROSS_SESSION_MAX_LIMIT = 1000;
export const DEFAULT_CROSS_SESSION_ROLES: readonly string[] = ['user', 'assistant'];
