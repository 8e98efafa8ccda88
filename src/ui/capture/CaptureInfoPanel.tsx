/** The Capture tab: what each loaded file is and holds, and the facts it records (src/analysis/captureFacts.ts). */
import { useMemo } from 'react';
import { useViewer } from '../../state/context.tsx';
import { captureFacts } from '../../analysis/captureFacts.ts';
import { FORMAT_LIST } from '../formatList.ts';
import './captureInfo.css';

/** Longest value shown in full; longer ones (a JSON list of device properties) are cut, whole in their title. */
const SHOWN_CHARS = 400;

export function CaptureInfoPanel() {
  const captures = useViewer((s) => s.captures);
  const all = useMemo(
    () =>
      captures.map((c) => {
        const formatLabel = FORMAT_LIST.find((f) => f.id === c.model.capture.format)?.label ?? c.model.capture.format;
        return { id: c.id, ...captureFacts(c.model, { formatLabel, decodeMs: c.decodeMs }) };
      }),
    [captures],
  );
  if (all.length === 0) return <p className="panel-empty">No capture loaded.</p>;
  return (
    <div className="capture-info" data-testid="capture-info">
      {all.map((c) => (
        <section key={c.id} className="capture-info-file" aria-label={`About ${c.title}`}>
          <h3 className="section-title">{c.title}</h3>
          <div className="capture-info-columns">
            <dl className="capture-info-list">
              {c.facts.map(([label, value]) => (
                <Fact key={label} label={label} value={value} />
              ))}
            </dl>
            {c.properties.length > 0 && (
              <div className="capture-info-recorded">
                <h4 className="capture-info-subtitle">Recorded in the file</h4>
                <dl className="capture-info-list" data-testid="capture-properties">
                  {c.properties.map(([key, value]) => (
                    <Fact key={key} label={key} value={value} />
                  ))}
                </dl>
              </div>
            )}
          </div>
        </section>
      ))}
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  const cut = value.length > SHOWN_CHARS;
  return (
    <>
      <dt>{label}</dt>
      <dd title={cut ? value : undefined}>{cut ? `${value.slice(0, SHOWN_CHARS)}…` : value}</dd>
    </>
  );
}
