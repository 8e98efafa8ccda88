/**
 * Numeric cache keys: a few small non-negative integer fields packed into one double, so that the
 * builder's hot lookups (stack row of a thread, row of a category, category of an id) hit a
 * `Map<number, …>` instead of building a string. A double holds integers exactly up to 2^53, so
 * the fields' widths add up to at most 53 bits, and a field outside its width gives no key: the
 * caller then takes its string-keyed path (never a wrong hit).
 */

/** What `pack` returns when a field does not fit its width. */
export const NO_KEY = -1;

export interface KeyPacking {
  /** Bits of each field, most significant first. */
  readonly widths: readonly number[];
  /** The key of these fields (as many as `widths`, missing ones are 0), or `NO_KEY` when one does not fit. */
  pack(a: number, b?: number, c?: number): number;
}

/** A packing of up to three fields of the given bit widths (most significant first; 53 bits in all at most). */
export function keyPacking(...widths: number[]): KeyPacking {
  if (widths.length < 1 || widths.length > 3) throw new RangeError('keyPacking: one to three fields');
  if (widths.some((w) => !Number.isInteger(w) || w < 1) || widths.reduce((s, w) => s + w, 0) > 53) {
    throw new RangeError(`keyPacking: field widths ${widths.join('+')} do not fit 53 bits`);
  }
  const [wa, wb = 0, wc = 0] = widths;
  const limitA = 2 ** wa;
  const limitB = 2 ** wb;
  const limitC = 2 ** wc;
  const scaleA = 2 ** (wb + wc);
  const scaleB = 2 ** wc;
  return {
    widths,
    pack(a: number, b = 0, c = 0): number {
      // `x >= 0 && x < limit` is false for NaN too; `% 1` rejects fractions.
      if (!(a >= 0 && a < limitA && b >= 0 && b < limitB && c >= 0 && c < limitC) || a % 1 !== 0 || b % 1 !== 0 || c % 1 !== 0) {
        return NO_KEY;
      }
      return a * scaleA + b * scaleB + c;
    },
  };
}
