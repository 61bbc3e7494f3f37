/**
 * The reference backend without a range cap, declared (`rangeCap: false`): a session range read
 * returns every match. Correct by the documents (RANGE-01 binds only backends with a cap), so
 * the kit reports RANGE-01 'excluded by tier' and fails nothing.
 *
 * Run it as an adapter: `node dist/no-range-cap.js`.
 */
import { BackendFactory, StoreConfig } from './contract';
import { ReferenceMemory } from './reference';
import { serve } from './serve';

export const noRangeCapFactory: BackendFactory = {
  name: 'typescript-no-range-cap',
  capabilities: { ordering: 'timestamp', metadataAtomicity: 'atomic', archiveAtomicity: 'atomic', rangeCap: false },
  open: (config: StoreConfig) => new ReferenceMemory({ ...config, rangeQueryLimit: Infinity }),
};

if (require.main === module) serve(noRangeCapFactory);
