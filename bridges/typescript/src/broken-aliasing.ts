/** Deliberately broken: reads hand out the stored message objects themselves (ISO-02). */
import { Message, StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

export class AliasingMemory extends ReferenceMemory {
  protected override out(message: Message): Message {
    return message;
  }
}

if (require.main === module) {
  serve(referenceFactory('broken-aliasing', (config: StoreConfig) => new AliasingMemory(config)));
}
