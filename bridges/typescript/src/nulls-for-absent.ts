/**
 * Correct, JavaScript-flavoured: every optional Message field a message was saved without is
 * returned as null (what BSON and many JavaScript stores do). The transport takes null for
 * absent; only the rule on returning absent fields as absent (MSG-07, a reading) speaks of it.
 */
import { Message, StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

const OPTIONAL = ['toolCalls', 'toolCallId', 'name', 'kind', 'reasoningContent', 'segments', 'images', 'audios', 'metadata'];

export class NullsForAbsentMemory extends ReferenceMemory {
  protected override out(message: Message): Message {
    const copy = super.out(message) as unknown as Record<string, unknown>;
    for (const field of OPTIONAL) if (!(field in copy)) copy[field] = null;
    return copy as unknown as Message;
  }
}

if (require.main === module) {
  serve(referenceFactory('nulls-for-absent', (config: StoreConfig) => new NullsForAbsentMemory(config)));
}
