/** Copy or download a statistics table as CSV or JSON. */
import { useEffect, useState } from 'react';
import { downloadBlob } from '../share/exportChrome.ts';
import { usePopover } from '../usePopover.ts';

/** Clipboard text: the async API where the page may use it, else a hidden textarea and copy. */
export async function copyText(text: string, doc: Document = document): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused (e.g. an embedding frame): try the old way.
    }
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.append(area);
  area.select();
  const ok = doc.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

export function TableExport({
  what,
  rows,
  fileStem,
  csv,
  json,
}: {
  /** "range table", for labels. */
  what: string;
  rows: number;
  fileStem: string;
  csv(): string;
  json(): string;
}) {
  const { open, setOpen, close, ref } = usePopover();
  const [note, setNote] = useState<{ text: string; error?: boolean } | null>(null);
  useEffect(() => {
    if (!note || note.error) return;
    const timer = setTimeout(() => setNote(null), 2500);
    return () => clearTimeout(timer);
  }, [note]);
  const copy = (format: 'CSV' | 'JSON') => {
    copyText(format === 'CSV' ? csv() : json()).then(
      () => {
        setNote({ text: `Copied ${rows} ${rows === 1 ? 'row' : 'rows'} as ${format}` });
        close();
      },
      (e: unknown) => setNote({ text: `Copy failed: ${e instanceof Error ? e.message : String(e)}`, error: true }),
    );
  };
  const download = (format: 'CSV' | 'JSON') => {
    const text = format === 'CSV' ? csv() : json();
    downloadBlob(new Blob([text], { type: format === 'CSV' ? 'text/csv' : 'application/json' }), `${fileStem}.${format.toLowerCase()}`);
    setNote(null);
    close();
  };
  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="button small"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => {
          setNote(null);
          setOpen(!open);
        }}
        disabled={rows === 0}
        title={`Copy or download the ${what}`}
        data-testid="table-export"
      >
        Export ▾
      </button>
      {note && (
        <span className={`st-note${note.error ? ' error' : ''}`} role="status">
          {note.text}
        </span>
      )}
      {open && (
        <div className="popover st-export" role="menu" aria-label={`Export the ${what}`}>
          <button type="button" role="menuitem" className="button small" onClick={() => copy('CSV')}>
            Copy CSV
          </button>
          <button type="button" role="menuitem" className="button small" onClick={() => copy('JSON')}>
            Copy JSON
          </button>
          <button type="button" role="menuitem" className="button small" onClick={() => download('CSV')} data-testid="download-csv">
            Download CSV
          </button>
          <button type="button" role="menuitem" className="button small" onClick={() => download('JSON')}>
            Download JSON
          </button>
        </div>
      )}
    </div>
  );
}
