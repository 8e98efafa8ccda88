/** Linear / Log switch of a duration histogram's axis (the statistics row detail and the Compare tab). */
export function DurationAxisToggle({
  scale,
  canLog,
  onScale,
  className = 'segmented',
}: {
  /** The axis in effect (linear when a log axis is not possible). */
  scale: 'linear' | 'log';
  /** Whether the durations allow a log axis (positive and not all equal). */
  canLog: boolean;
  onScale(scale: 'linear' | 'log'): void;
  className?: string;
}) {
  return (
    <div className={className} role="group" aria-label="Duration axis">
      <button type="button" aria-pressed={scale === 'linear'} onClick={() => onScale('linear')}>
        Linear
      </button>
      <button
        type="button"
        aria-pressed={scale === 'log'}
        disabled={!canLog}
        onClick={() => onScale('log')}
        title={canLog ? 'Logarithmic duration axis' : 'A log axis needs positive durations that differ'}
      >
        Log
      </button>
    </div>
  );
}
