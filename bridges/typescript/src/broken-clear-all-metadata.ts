/** Deliberately broken: clearAll() wipes the metadata too (CLEAR-04). */
import { StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

export class ClearAllMetadataMemory extends ReferenceMemory {
  override async clearAll(): Promise<void> {
    await super.clearAll();
    this.metadata.clear();
  }
}

if (require.main === module) {
  serve(referenceFactory('broken-clear-all-metadata', (config: StoreConfig) => new ClearAllMetadataMemory(config)));
}
