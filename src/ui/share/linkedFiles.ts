/**
 * The files a shared link's view was made on. A link carries the view (URL hash), never the
 * files: opened without them, the page says which files to drop for the view to apply.
 */
import { decodeViewHash } from './hashState.ts';

/** File names the hash's view refers to, in viewer order, without repeats; [] when none. */
export function linkedFiles(hash: string): string[] {
  const { state } = decodeViewHash(hash);
  return state ? [...new Set(state.captures.filter((name) => name !== ''))] : [];
}
