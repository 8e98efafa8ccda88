/** Messages between the page and the regular-expression worker (the name search's `.*` mode). */

export interface RegexRequest {
  id: number;
  /** The expression's source and flags, as `new RegExp` takes them. */
  source: string;
  flags: string;
  names: string[];
}

/** Per name of the request: 1 when it matches; or the expression's error. */
export type RegexReply = { id: number; matches: Uint8Array } | { id: number; error: string };
