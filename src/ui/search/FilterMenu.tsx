/**
 * The Filters button and its menu: check boxes for processes and threads, domains, categories
 * (hiding a category hides its children) and names. Unchecked items leave the timeline, the tables
 * and the statistics; the filter lives in the store and the URL.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { useViewer } from '../../state/context.tsx';
import { isHidden, NO_FILTERS, withHidden, type EventFilters } from '../../analysis/eventFilters.ts';
import { formatCount } from '../../format/numbers.ts';
import { usePopover } from '../usePopover.ts';
import { filterChoices, type Choice } from './filterChoices.ts';
import '../events/panels.css';
import './search.css';

/** Names listed at once; the search box narrows longer lists. */
const NAME_LIMIT = 200;

export function FilterMenu() {
  const filters = useViewer((s) => s.filters);
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const count = filters.hidden.length;
  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className={`button filter-button${count > 0 ? ' active' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        title="Hide domains, categories, processes, threads or names"
        data-testid="filter-button"
      >
        Filters{count > 0 && <span className="filter-count">{count}</span>}
      </button>
      {open && <FilterPopover />}
    </div>
  );
}

function FilterPopover() {
  const captures = useViewer((s) => s.captures);
  const filters = useViewer((s) => s.filters);
  const setFilters = useViewer((s) => s.setFilters);
  const choices = useMemo(() => filterChoices(captures.map((c) => c.model)), [captures]);
  const [nameText, setNameText] = useState('');
  const names = useMemo(() => {
    const needle = nameText.trim().toLowerCase();
    return needle ? choices.names.filter((c) => c.label.toLowerCase().includes(needle)) : choices.names;
  }, [choices, nameText]);

  const toggle = (c: Choice) => setFilters(withHidden(filters, [c.item], !isHidden(filters, c.item)));
  const setMany = (list: readonly Choice[], hidden: boolean) => setFilters(withHidden(filters, list.map((c) => c.item), hidden));

  return (
    <div className="popover filter-popover" role="dialog" aria-label="Filters">
      <div className="filter-head">
        <strong>Show events of</strong>
        <div className="header-spacer" />
        <button type="button" className="link" disabled={filters.hidden.length === 0} onClick={() => setFilters(NO_FILTERS)}>
          Show everything
        </button>
      </div>
      <div className="filter-sections">
        {choices.threads.length > 0 && (
          <FilterSection title="Processes and threads" choices={choices.threads} filters={filters} onToggle={toggle} onMany={setMany} />
        )}
        {choices.domains.length > 1 && <FilterSection title="Domains" choices={choices.domains} filters={filters} onToggle={toggle} onMany={setMany} />}
        {choices.categories.length > 0 && (
          <FilterSection title="Categories" choices={choices.categories} filters={filters} onToggle={toggle} onMany={setMany} />
        )}
        <FilterSection
          title="Names"
          choices={names.slice(0, NAME_LIMIT)}
          filters={filters}
          onToggle={toggle}
          onMany={(_, hidden) => setMany(names, hidden)}
          extra={
            choices.names.length > 8 && (
              <input
                className="text-input"
                type="search"
                placeholder="Find a name…"
                aria-label="Find a name"
                value={nameText}
                onChange={(e) => setNameText(e.target.value)}
              />
            )
          }
          footer={names.length > NAME_LIMIT && <p className="value-more">{formatCount(names.length - NAME_LIMIT)} more: narrow the search</p>}
        />
      </div>
    </div>
  );
}

interface SectionProps {
  title: string;
  choices: readonly Choice[];
  filters: EventFilters;
  onToggle(c: Choice): void;
  onMany(list: readonly Choice[], hidden: boolean): void;
  extra?: ReactNode;
  footer?: ReactNode;
}

function FilterSection({ title, choices, filters, onToggle, onMany, extra, footer }: SectionProps) {
  // Hidden through a parent (a process, a parent category): shown unchecked and disabled.
  const hiddenKeys = new Set(choices.filter((c) => isHidden(filters, c.item)).map((c) => c.key));
  const byKey = new Map(choices.map((c) => [c.key, c]));
  const hiddenByParent = (c: Choice): string => {
    for (let p = byKey.get(c.parentKey); p; p = byKey.get(p.parentKey)) if (hiddenKeys.has(p.key)) return p.label;
    return '';
  };
  const hiddenHere = choices.filter((c) => hiddenKeys.has(c.key)).length;
  return (
    <section className="filter-section" aria-label={title}>
      <div className="filter-section-head">
        <h3>{title}</h3>
        {hiddenHere > 0 && <span className="value-count">{hiddenHere} hidden</span>}
        <div className="header-spacer" />
        <button type="button" className="link" onClick={() => onMany(choices, false)}>
          all
        </button>
        <button type="button" className="link" onClick={() => onMany(choices, true)}>
          none
        </button>
      </div>
      {extra}
      <ul className="value-list filter-list">
        {choices.map((c) => {
          const parent = hiddenByParent(c);
          return (
            <li key={c.key} style={{ paddingLeft: c.depth * 16 }}>
              <label title={parent ? `Hidden with ${parent}` : c.label}>
                <input type="checkbox" checked={!hiddenKeys.has(c.key) && !parent} disabled={parent !== ''} onChange={() => onToggle(c)} />
                <span className="value-label">{c.label}</span>
                <span className="value-count">{formatCount(c.count)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {footer}
    </section>
  );
}
