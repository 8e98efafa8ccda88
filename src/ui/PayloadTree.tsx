/**
 * The extended payloads of the selected range or mark (NVTX payload extension), decoded against
 * the capture's schemas: a tree of fields (name, type, value, unit), hidden fields behind a toggle,
 * the payloads given at pop/end apart, problems shown with the bytes involved, and the raw bytes of
 * every blob on request.
 */
import { useMemo, useState } from 'react';
import type { Model } from '../model/types.ts';
import type { DecodedField, DecodedPayload } from '../payload/decoded.ts';
import { formatFieldValue } from '../payload/payloadText.ts';
import { decodeModelPayload, type ModelPayloads } from '../model/extPayloadReader.ts';
import type { PayloadBlob } from '../payload/schema.ts';
import './payloadTree.css';

export function PayloadTree({ model, payload }: { model: Model; payload: number }) {
  const decoded = useMemo(() => decodeModelPayload(model, payload), [model, payload]);
  const [showHidden, setShowHidden] = useState(false);
  if (!decoded) return null;
  const shown = (list: DecodedPayload[]) => list.filter((p) => p.kind !== 'referenced');
  const begin = shown(decoded.decodedBegin);
  const end = shown(decoded.decodedEnd);
  const hidden = [...begin, ...end].reduce((n, p) => n + countHidden(p.fields), 0);
  return (
    <div className="payload-tree" data-testid="payload-tree">
      {begin.map((p, i) => (
        <PayloadBlock key={`b${i}`} payload={p} showHidden={showHidden} />
      ))}
      {end.length > 0 && <div className="pt-section">Given at pop/end</div>}
      {end.map((p, i) => (
        <PayloadBlock key={`e${i}`} payload={p} showHidden={showHidden} />
      ))}
      {hidden > 0 && (
        <label className="pt-toggle">
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> show {hidden} hidden field
          {hidden === 1 ? '' : 's'}
        </label>
      )}
      <RawBytes decoded={decoded} />
    </div>
  );
}

function countHidden(fields: readonly DecodedField[]): number {
  let n = 0;
  for (const f of fields) n += (f.hidden ? 1 : 0) + (f.children ? countHidden(f.children) : 0);
  return n;
}

function PayloadBlock({ payload, showHidden }: { payload: DecodedPayload; showHidden: boolean }) {
  const title = payload.schemaName ?? (payload.kind === 'schema' ? `schema ${payload.schemaId}` : payloadKindLabel(payload));
  return (
    <div className="pt-payload">
      <div className="pt-payload-title">
        {title}
        <span className="muted">
          {' '}
          · {payload.size} byte{payload.size === 1 ? '' : 's'}
        </span>
      </div>
      {payload.error && (
        <div className="pt-error" role="note">
          ⚠ {payload.error}
        </div>
      )}
      <ul className="pt-fields" role="tree">
        {payload.fields.map((f, i) => (
          <FieldRow key={i} field={f} path={f.name} depth={0} showHidden={showHidden} />
        ))}
      </ul>
    </div>
  );
}

function payloadKindLabel(p: DecodedPayload): string {
  switch (p.kind) {
    case 'raw':
      return 'raw bytes';
    case 'predefined':
      return p.fields[0]?.type ?? 'value';
    case 'unknown':
      return `unknown schema ${p.schemaId}`;
    default:
      return `schema ${p.schemaId}`;
  }
}

function FieldRow({ field, path, depth, showHidden }: { field: DecodedField; path: string; depth: number; showHidden: boolean }) {
  const [open, setOpen] = useState(depth < 2);
  if (field.hidden && !showHidden) return null;
  const children = field.children;
  const value = field.children !== undefined ? formatFieldValue(field) : formatFieldValue({ ...field, unit: undefined });
  return (
    <li role="treeitem" aria-expanded={children ? open : undefined} className={field.hidden ? 'pt-hidden' : undefined}>
      <div className="pt-row" data-testid="payload-field" data-path={path} title={field.description}>
        {children ? (
          <button type="button" className="pt-twisty" aria-label={open ? 'Collapse' : 'Expand'} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="pt-twisty" aria-hidden="true" />
        )}
        <span className="pt-name">{field.name}</span>
        <span className="pt-type">{field.type}</span>
        <span className={`pt-value${field.error ? ' pt-bad' : ''}`} data-testid="payload-value">
          {field.display === 'color' && typeof field.value === 'number' && <Swatch argb={field.value} />}
          {field.error && field.value === undefined && field.children === undefined ? '⚠' : value}
        </span>
        <span className="pt-unit">{field.unit ?? ''}</span>
      </div>
      {field.error && (
        <div className="pt-error">
          ⚠ {field.error}
          {field.raw !== undefined && field.raw !== '' && <code className="pt-hex"> {field.raw}</code>}
        </div>
      )}
      {children && open && (
        <ul className="pt-fields" role="group">
          {children.map((c, i) => (
            <FieldRow key={i} field={c} path={c.name.startsWith('[') ? `${path}${c.name}` : `${path}.${c.name}`} depth={depth + 1} showHidden={showHidden} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Swatch({ argb }: { argb: number }) {
  const rgb = (argb >>> 0) & 0xffffff;
  return <span className="swatch pt-swatch" style={{ background: `#${rgb.toString(16).padStart(6, '0')}` }} aria-hidden="true" />;
}

/** Every stored blob of the event (payloads, pop/end payloads, deep-copied memory) as a hex dump. */
function RawBytes({ decoded }: { decoded: ModelPayloads }) {
  const blobs: { label: string; blob: PayloadBlob | { address: number | bigint; bytes: Uint8Array } }[] = [
    ...decoded.begin.map((b, i) => ({ label: `payload ${i} · schema ${b.schemaId}`, blob: b })),
    ...decoded.end.map((b, i) => ({ label: `pop/end payload ${i} · schema ${b.schemaId}`, blob: b })),
    ...decoded.memory.map((m) => ({ label: 'copied memory', blob: m })),
    ...(decoded.offsetBase ? [{ label: 'batch flex data', blob: decoded.offsetBase }] : []),
  ];
  return (
    <details className="pt-raw">
      <summary>Raw bytes</summary>
      {blobs.map(({ label, blob }, i) => (
        <div key={i}>
          <div className="muted">
            {label} · {blob.bytes.length} bytes
            {blob.address !== undefined && ` · at 0x${BigInt(blob.address).toString(16)}`}
          </div>
          <pre className="pt-hexdump">{hexDump(blob.bytes)}</pre>
        </div>
      ))}
    </details>
  );
}

/** 16 bytes per line with the offset, at most 4 KiB. */
export function hexDump(bytes: Uint8Array, max = 4096): string {
  const lines: string[] = [];
  const n = Math.min(bytes.length, max);
  for (let at = 0; at < n; at += 16) {
    const row = Array.from(bytes.subarray(at, Math.min(at + 16, n)), (b) => b.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${at.toString(16).padStart(4, '0')}  ${row}`);
  }
  if (bytes.length > n) lines.push(`… ${bytes.length - n} more bytes`);
  return lines.join('\n');
}
