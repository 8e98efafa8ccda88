/**
 * The panels' formatting imports, re-exported from `src/format/` (one formatter for the CLI, the
 * panels and the timeline, so a duration reads the same everywhere). New code imports from there.
 */
export { formatBytes, formatCount, formatValue } from '../format/numbers.ts';
export { formatDuration, formatDurationShort, formatTimestamp } from '../format/time.ts';
