/**
 * The timeline's former formatting module, kept as a re-export for code written against it while
 * the formatters moved to `src/format/`; import from there in new code.
 */
export { formatDuration, formatInUnit, formatTimeAtResolution, formatTimestamp, unitIndexFor, unitNs } from '../format/time.ts';
export { formatValue } from '../format/numbers.ts';
