/** Deliberately broken: the required method archiveSpan is missing (REQ-01). */
import { MemoryService, StoreConfig } from './contract';
import { ReferenceMemory, referenceFactory } from './reference';
import { serve } from './serve';

/** The reference store without its archiveSpan method. */
export function withoutArchiveSpan(config: StoreConfig): MemoryService {
  const store = new ReferenceMemory(config);
  Object.defineProperty(store, 'archiveSpan', { value: undefined });
  return store as unknown as MemoryService;
}

if (require.main === module) serve(referenceFactory('broken-no-archive', withoutArchiveSpan));
