/** The value filter of a column: a popover listing the column's values with check boxes and counts. */
import { useMemo, useState } from 'react';
import { formatCount } from '../../format/numbers.ts';
import { usePopover } from '../usePopover.ts';
import type { ColumnValue } from './eventTable.ts';

/** Values listed at once; a search narrows longer lists. */
const LIST_LIMIT = 300;

export interface ValueFilterProps {
  label: string;
  values: () => ColumnValue[];
  hidden: ReadonlySet<number> | undefined;
  onChange(hidden: ReadonlySet<number>): void;
}

export function ValueFilter({ label, values, hidden, onChange }: ValueFilterProps) {
  const { open, setOpen, ref } = usePopover<HTMLSpanElement>();
  const active = hidden !== undefined && hidden.size > 0;
  return (
    <span className="value-filter" ref={ref}>
      <button
        type="button"
        className={`value-filter-button${active ? ' active' : ''}`}
        aria-label={`Filter ${label}`}
        aria-expanded={open}
        title={active ? `${hidden.size} value${hidden.size === 1 ? '' : 's'} hidden` : `Filter by ${label.toLowerCase()}`}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!open);
        }}
      >
        ▾
      </button>
      {open && <ValueList label={label} values={values()} hidden={hidden ?? new Set()} onChange={onChange} />}
    </span>
  );
}

function ValueList({ label, values, hidden, onChange }: { label: string; values: ColumnValue[]; hidden: ReadonlySet<number>; onChange(h: ReadonlySet<number>): void }) {
  const [text, setText] = useState('');
  const shown = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return needle ? values.filter((v) => v.label.toLowerCase().includes(needle)) : values;
  }, [values, text]);
  const toggle = (value: number) => {
    const next = new Set(hidden);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    onChange(next);
  };
  const setAll = (hide: boolean) => {
    const next = new Set(hidden);
    for (const v of shown) {
      if (hide) next.add(v.value);
      else next.delete(v.value);
    }
    onChange(next);
  };
  const only = (value: number) => onChange(new Set(values.filter((v) => v.value !== value).map((v) => v.value)));
  return (
    <div className="popover value-popover" role="dialog" aria-label={`${label} values`} onClick={(e) => e.stopPropagation()}>
      {values.length > 8 && (
        <input
          className="text-input"
          type="search"
          placeholder={`Find a ${label.toLowerCase()}…`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoFocus
        />
      )}
      <div className="value-actions">
        <button type="button" className="link" onClick={() => setAll(false)}>
          Show {text ? 'these' : 'all'}
        </button>
        <button type="button" className="link" onClick={() => setAll(true)}>
          Hide {text ? 'these' : 'all'}
        </button>
      </div>
      <ul className="value-list">
        {shown.slice(0, LIST_LIMIT).map((v) => (
          <li key={v.value}>
            <label title={v.label}>
              <input type="checkbox" checked={!hidden.has(v.value)} onChange={() => toggle(v.value)} />
              <span className="value-label">{v.label || '(empty)'}</span>
              <span className="value-count">{formatCount(v.count)}</span>
            </label>
            <button type="button" className="value-only" onClick={() => only(v.value)} title={`Show only ${v.label}`}>
              only
            </button>
          </li>
        ))}
      </ul>
      {shown.length > LIST_LIMIT && <p className="value-more">{formatCount(shown.length - LIST_LIMIT)} more: narrow the search</p>}
      {shown.length === 0 && <p className="value-more">Nothing matches.</p>}
    </div>
  );
}
