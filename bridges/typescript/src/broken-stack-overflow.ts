/**
 * Deliberately broken: saveMessage measures how deep a message's metadata nests by recursion,
 * before the reference's own (iterative) checks. Moderate nesting passes; a payload nested
 * thousands of levels overflows the stack, a RangeError "Maximum call stack size exceeded" that
 * reaches Python as a RecursionError, where INPUT-07 asks a ValueError (never RecursionError).
 */
import { Message, StoreConfig, ValueError } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

/** The nesting the reference refuses past (checks.ts MAX_NESTING). */
const MAX_DEPTH = 32;

/** How many containers deep `value` nests (Infinity when circular), by recursion: the bug. */
function depth(value: unknown, ancestors: Set<unknown>): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (ancestors.has(value)) return Infinity;
  ancestors.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  const deepest = children.reduce((most: number, child: unknown) => Math.max(most, depth(child, ancestors)), 0);
  ancestors.delete(value);
  return deepest + 1;
}

export class StackOverflowMemory extends ReferenceMemory {
  override async saveMessage(sessionId: string, message: Message): Promise<void> {
    const metadata = (message as Partial<Message> | null)?.metadata;
    if (depth(metadata, new Set()) > MAX_DEPTH) {
      throw new ValueError(`message.metadata: nested deeper than ${MAX_DEPTH} levels (or circular)`);
    }
    return super.saveMessage(sessionId, message);
  }
}

if (require.main === module) {
  serve(referenceFactory('broken-stack-overflow', (config: StoreConfig) => new StackOverflowMemory(config)));
}
