/** Deliberately broken: getHistory(sessionId, 0) returns the whole active history (LIM-01). */
import { Message, StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

export class LimitZeroMemory extends ReferenceMemory {
  override async getHistory(sessionId: string, limit?: number): Promise<Message[]> {
    return super.getHistory(sessionId, limit === 0 ? Infinity : limit);
  }
}

if (require.main === module) {
  serve(referenceFactory('broken-limit-zero', (config: StoreConfig) => new LimitZeroMemory(config)));
}
