/** Text widths (cached per string) and eliding labels to a width with an ellipsis. */

const ELLIPSIS = '…';
/** Entries kept before the width cache starts over (names repeat, so this rarely triggers). */
const CACHE_LIMIT = 50_000;

export class TextMeasurer {
  private readonly widths = new Map<string, number>();
  /** Widths of the prefixes that eliding a text measured (index n: its first n characters), per text. */
  private readonly prefixWidths = new Map<string, number[]>();
  private font = '';

  /** `measure` must measure in the font last given to `setFont`. */
  constructor(private readonly measure: (text: string) => number) {}

  /** Declares the font measured from now on; a different font drops the cached widths. */
  setFont(font: string): void {
    if (font === this.font) return;
    this.font = font;
    this.widths.clear();
    this.prefixWidths.clear();
  }

  width(text: string): number {
    let w = this.widths.get(text);
    if (w === undefined) {
      if (this.widths.size >= CACHE_LIMIT) this.widths.clear();
      w = this.measure(text);
      this.widths.set(text, w);
    }
    return w;
  }

  /**
   * `text` if it fits in `maxWidth`, else its longest prefix that fits followed by an ellipsis,
   * or '' when fewer than two characters would remain (a lone letter says nothing).
   */
  elide(text: string, maxWidth: number): string {
    if (this.width(text) <= maxWidth) return text;
    const ellipsis = this.width(ELLIPSIS);
    if (text.length < 3 || maxWidth < ellipsis) return '';
    // Start from the average character width, then correct by measuring prefixes (kept per text,
    // apart from the names' widths: a box that grows or shrinks while zooming elides its name again
    // in every frame).
    const room = maxWidth - ellipsis;
    let n = Math.min(text.length - 1, Math.floor(room / (this.width(text) / text.length)));
    while (n > 0 && this.prefixWidth(text, n) > room) n--;
    while (n + 1 < text.length && this.prefixWidth(text, n + 1) <= room) n++;
    return n < 2 ? '' : `${text.slice(0, n).trimEnd()}${ELLIPSIS}`;
  }

  /** Width of the first n characters of `text`. */
  private prefixWidth(text: string, n: number): number {
    let list = this.prefixWidths.get(text);
    if (list === undefined) {
      if (this.prefixWidths.size >= CACHE_LIMIT) this.prefixWidths.clear();
      this.prefixWidths.set(text, (list = []));
    }
    let w = list[n];
    if (w === undefined) w = list[n] = this.measure(text.slice(0, n));
    return w;
  }
}
