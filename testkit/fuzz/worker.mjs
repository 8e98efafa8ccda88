// Worker thread entry: registers tsx so the TypeScript worker (and the decoders it imports) load
// as they do under the CLI, then hands over to it.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
