/** The header's Export menu: each loaded capture as Chrome trace JSON (for Perfetto, chrome://tracing). */
import { useState } from 'react';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { usePopover } from '../usePopover.ts';
import { exportChromeTrace } from './exportChrome.ts';
import './share.css';

export function ExportMenu() {
  const captures = useViewer((s) => s.captures);
  const { open, setOpen, close, ref } = usePopover();
  if (captures.length === 0) return null;
  return (
    <div className="popover-anchor" ref={ref}>
      <button type="button" className="button" aria-expanded={open} aria-haspopup="menu" onClick={() => setOpen(!open)} title="Export the loaded captures" data-testid="export-menu">
        Export
      </button>
      {open && (
        <div className="popover" role="menu" aria-label="Export">
          <p className="popover-note">Chrome trace JSON, for Perfetto and chrome://tracing:</p>
          {captures.map((c) => (
            <ExportItem key={c.id} capture={c} onDone={close} />
          ))}
        </div>
      )}
    </div>
  );
}

function ExportItem({ capture, onDone }: { capture: LoadedCapture; onDone(): void }) {
  const [state, setState] = useState<'idle' | 'busy' | { error: string }>('idle');
  const run = () => {
    setState('busy');
    exportChromeTrace(capture.model).then(
      () => {
        setState('idle');
        onDone();
      },
      (e: unknown) => setState({ error: e instanceof Error ? e.message : String(e) }),
    );
  };
  return (
    <div className="export-item">
      <button type="button" role="menuitem" className="button" disabled={state === 'busy'} onClick={run} data-testid="export-chrome-json">
        {state === 'busy' ? 'Exporting…' : `Chrome JSON: ${capture.model.capture.displayName}`}
      </button>
      {typeof state === 'object' && <p className="export-error" role="alert">Export failed: {state.error}</p>}
    </div>
  );
}
