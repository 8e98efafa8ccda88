/** Files being loaded (progress bar, Cancel) and files that could not be loaded at all (dismissable). */
import { useViewer } from '../state/context.tsx';
import type { FailedLoad, PendingLoad } from '../state/viewerStore.ts';
import { formatBytes, formatProgress } from '../format/numbers.ts';
import { pageNotices } from './share/notices.ts';

export function LoadStrip() {
  const loads = useViewer((s) => s.loads);
  const failed = useViewer((s) => s.failed);
  if (loads.length === 0 && failed.length === 0) return null;
  return (
    <div className="load-strip" aria-live="polite">
      {loads.map((l) => (
        <LoadProgress key={l.id} load={l} />
      ))}
      {failed.map((f) => (
        <LoadFailure key={f.id} failure={f} />
      ))}
    </div>
  );
}

function LoadProgress({ load }: { load: PendingLoad }) {
  const fraction = load.bytesTotal > 0 ? load.bytesDone / load.bytesTotal : 0;
  const percent = formatProgress(fraction);
  return (
    <div className="load-entry" data-testid="load-progress">
      <span className="load-name" title={load.name}>
        {load.name}
      </span>
      <progress
        className="load-bar"
        max={Math.max(1, load.bytesTotal)}
        // Without a known total (a download without Content-Length) the bar is indeterminate.
        value={load.bytesTotal > 0 ? load.bytesDone : undefined}
        aria-label={`Loading ${load.name}`}
      />
      <span className="load-figures">
        {load.bytesTotal > 0
          ? `${formatBytes(load.bytesDone)} / ${formatBytes(load.bytesTotal)} · ${percent}`
          : load.bytesDone > 0
            ? `${formatBytes(load.bytesDone)} received`
            : 'fetching…'}
      </span>
      <button
        type="button"
        className="button small"
        onClick={() => {
          load.cancel();
          // The entry disappears with the load: say what became of the file.
          pageNotices.getState().notify('info', `Loading ${load.name} was cancelled; nothing of it was kept. Open it again to load it.`);
        }}
      >
        Cancel
      </button>
    </div>
  );
}

function LoadFailure({ failure }: { failure: FailedLoad }) {
  const dismiss = useViewer((s) => s.dismissFailure);
  return (
    <div className="load-entry failed" role="alert" data-testid="load-failure">
      <span className="load-failed-label">Could not load</span>
      <span className="load-name" title={failure.name}>
        {failure.name}
      </span>
      <span className="load-message">{withoutFilePrefix(failure.message, failure.name)}</span>
      <button type="button" className="button small" onClick={() => dismiss(failure.id)}>
        Dismiss
      </button>
    </div>
  );
}

/** Loader messages start with the file name, which the entry already shows. */
function withoutFilePrefix(message: string, name: string): string {
  return message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message;
}
