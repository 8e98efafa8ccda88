/**
 * A name shortened in the middle: "run 12 of the sweep" → "run 1…sweep". Captures of one
 * experiment often share a prefix and differ at the end, so the end is kept as well as the start.
 */
export function middleEllipsis(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  const room = Math.max(1, maxChars - 1);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(chars.length - tail).join('') : ''}`;
}
