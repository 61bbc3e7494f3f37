import { serve } from '@aalis/memory-stdio-bridge';
import { MemoryBackend } from './memory.js';

serve({
  name: 'js-memory',
  capabilities: { ordering: 'timestamp', metadataAtomicity: 'atomic', archiveAtomicity: 'atomic' },
  open: ({ rangeQueryLimit, crossSessionMaxLimit }) => new MemoryBackend({ rangeQueryLimit, crossSessionMaxLimit }),
});
