/**
 * Group keys of ranges and marks for the statistics tables. A grouper hands out small dense
 * group ids (0, 1, 2...) in first-seen order from per-style / per-thread lookup tables, so the hot
 * loops pay one typed-array read per event and no string work after the first event of a group.
 *
 * Groups are keyed by what the user reads, not by per-process handles: a domain is created per
 * process, so two processes that each create "pipeline" hold two domain entries; their
 * "pipeline:stage" ranges still make one name row (as nsys' nvtx_sum gives), one domain row and
 * one category row. Grouping by thread or process is where processes separate.
 */
import { payloadValue, formatPayload } from '../model/payload.ts';
import { modelPayloadSummary } from '../model/extPayloadReader.ts';
import { categoryLabel, domainLabel, processLabel, threadLabel } from '../model/trackTree.ts';
import { PayloadType, type Model, type TrackKind } from '../model/types.ts';

export type GroupBy = 'name' | 'family' | 'thread' | 'process' | 'category' | 'domain' | 'parent' | 'payload';

export const GROUP_BY_VALUES: readonly GroupBy[] = ['name', 'family', 'thread', 'process', 'category', 'domain', 'parent', 'payload'];

/** Title of the group column of a statistics table (CLI and panel alike). */
export const GROUP_BY_TITLE: Readonly<Record<GroupBy, string>> = {
  name: 'Range',
  family: 'Range (numbers folded)',
  thread: 'Thread',
  process: 'Process',
  category: 'Category',
  domain: 'Domain',
  parent: 'Parent range',
  payload: 'Payload',
};

/** nsys "Style" of a range, from the kind of its row. */
export type RangeStyle = 'PushPop' | 'StartEnd' | 'API' | 'GPU';

/** Row kinds as a small integer (index into STYLE_OF_CLASS), used as a bit in style masks. */
export function kindClass(kind: TrackKind): number {
  switch (kind) {
    case 'pushpop':
      return 0;
    case 'category':
      return 1;
    case 'api':
      return 2;
    default:
      return 3;
  }
}

export const STYLE_OF_CLASS: readonly RangeStyle[] = ['PushPop', 'StartEnd', 'API', 'GPU'];

/** Style text of a mask of kind classes: "PushPop", or "PushPop+StartEnd" for a mixed group. */
export function styleText(mask: number): string {
  const parts: string[] = [];
  for (let c = 0; c < STYLE_OF_CLASS.length; c++) if (mask & (1 << c)) parts.push(STYLE_OF_CLASS[c]);
  return parts.join('+');
}

/** One group of a statistics table. */
export interface GroupInfo {
  /** Stable key, unique within the table (e.g. "PushPop|pipeline|12": style, domain name, name id). */
  key: string;
  /** What the table shows: "domain:name" (default domain without prefix), a thread label... */
  label: string;
  /** Name groups (and parent groups): the event name and its domain name ('' = default domain). */
  name?: string;
  domain?: string;
}

/** `domain:name`, the default domain without prefix (nsys' "Range" column). */
export function qualifiedName(model: Model, style: number): string {
  const name = model.strings[model.styles.name[style]];
  const domain = model.domains[model.styles.domain[style]]?.name ?? '';
  return domain ? `${domain}:${name}` : name;
}

/**
 * A name with its trailing number folded to `*` (`ProfilerStep#12` -> `ProfilerStep#*`, `iteration
 * 7` -> `iteration *`), so that the instances of an iteration-like range compare in one group.
 */
export function foldNumber(name: string): string {
  return name.replace(/\d+$/, '*');
}

const TOP_LEVEL = '(top level)';
const NO_PAYLOAD = '(no payload)';
/** Extended payloads group by their decoded text up to this length, shown up to the second. */
const EXT_KEY_CHARS = 4096;
const EXT_LABEL_CHARS = 160;
const NO_THREAD = '(no thread)';

/** Assigns group ids to events. One instance per table computation. */
export class Grouper {
  readonly groups: GroupInfo[] = [];
  private readonly ids = new Map<string, number>();
  /** Lookup tables, -1 = not seen yet. */
  private readonly byStyle: Int32Array[];
  private readonly byThread: Int32Array;
  private readonly byProcess: Int32Array;
  private readonly byCategory: Int32Array;
  private readonly byDomain: Int32Array;

  constructor(
    private readonly model: Model,
    readonly by: GroupBy,
  ) {
    const styles = model.styles.name.length;
    // One table per kind class, plus one for class-blind name groups (parent, marks).
    this.byStyle = [...STYLE_OF_CLASS, 'any'].map(() => new Int32Array(styles).fill(-1));
    this.byThread = new Int32Array(model.threads.length + 1).fill(-1);
    this.byProcess = new Int32Array(model.processes.length + 1).fill(-1);
    this.byCategory = new Int32Array(model.categories.length + 1).fill(-1);
    this.byDomain = new Int32Array(model.domains.length).fill(-1);
  }

  get size(): number {
    return this.groups.length;
  }

  private intern(key: string, make: () => Omit<GroupInfo, 'key'>): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.groups.length;
      const made = make();
      // Fields named one by one, one shape for every group: V8 builds spread objects far slower.
      this.groups.push({ key, label: made.label, name: made.name, domain: made.domain });
      this.ids.set(key, id);
    }
    return id;
  }

  /** Group of range `i` lying on a row of kind class `cls` (see `kindClass`). */
  rangeGroup(i: number, cls: number): number {
    const r = this.model.ranges;
    switch (this.by) {
      case 'name':
      case 'family':
      case 'category':
      case 'domain':
        return this.styleGroup(r.style[i], cls);
      case 'parent': {
        const p = r.parent[i];
        if (p < 0) return this.intern('top', () => ({ label: TOP_LEVEL }));
        return this.nameGroup(r.style[p], -1);
      }
      case 'payload':
        return this.payloadGroup(r.payload[i]);
      default:
        return this.attributeGroup(r.style[i], r.thread[i]);
    }
  }

  /**
   * When the grouping depends on the style alone (name, category, domain): the table style ->
   * group id for ranges of kind class `cls`, -1 where not seen yet (then call `rangeGroup`).
   * Hot loops read it directly instead of calling `rangeGroup` per range.
   */
  styleTable(cls: number): Int32Array | undefined {
    return this.by === 'name' || this.by === 'family' || this.by === 'category' || this.by === 'domain' ? this.byStyle[cls] : undefined;
  }

  private styleGroup(style: number, cls: number): number {
    if (this.by === 'name' || this.by === 'family') return this.nameGroup(style, cls);
    const table = this.byStyle[cls];
    if (table[style] < 0) table[style] = this.attributeGroup(style, -1);
    return table[style];
  }

  /** Group of mark `i`. Parent grouping puts every mark in one "(top level)" group. */
  markGroup(i: number): number {
    const m = this.model.marks;
    switch (this.by) {
      case 'name':
      case 'family':
        return this.nameGroup(m.style[i], -1);
      case 'parent':
        return this.intern('top', () => ({ label: TOP_LEVEL }));
      case 'payload':
        return this.payloadGroup(m.payload[i]);
      default:
        return this.attributeGroup(m.style[i], m.thread[i]);
    }
  }

  /** Name groups: per style kind class (cls >= 0, nsys keeps PushPop and StartEnd apart) or not (-1). */
  private nameGroup(style: number, cls: number): number {
    const table = this.byStyle[cls < 0 ? STYLE_OF_CLASS.length : cls];
    const known = table[style];
    if (known >= 0) return known;
    const model = this.model;
    const nameId = model.styles.name[style];
    const domainId = model.styles.domain[style];
    // The domain's name, not its per-process index; the name id (or the folded family) last keeps the key unambiguous.
    const folded = this.by === 'family' ? foldNumber(model.strings[nameId]) : undefined;
    const domain = model.domains[domainId]?.name ?? '';
    const key = `${cls < 0 ? '' : STYLE_OF_CLASS[cls]}|${domain}|${folded === undefined ? nameId : `f${folded}`}`;
    const id = this.intern(key, () => {
      if (folded === undefined) return { label: qualifiedName(model, style), name: model.strings[nameId], domain };
      return { label: domain ? `${domain}:${folded}` : folded, domain };
    });
    table[style] = id;
    return id;
  }

  private attributeGroup(style: number, thread: number): number {
    const model = this.model;
    switch (this.by) {
      case 'thread': {
        const slot = thread + 1;
        if (this.byThread[slot] >= 0) return this.byThread[slot];
        const label = thread < 0 ? NO_THREAD : this.threadText(thread);
        return (this.byThread[slot] = this.intern(`t${thread}`, () => ({ label })));
      }
      case 'process': {
        const process = thread < 0 ? -1 : model.threads[thread].process;
        const slot = process + 1;
        if (this.byProcess[slot] >= 0) return this.byProcess[slot];
        const label = process < 0 ? '(no process)' : processLabel(model, process);
        return (this.byProcess[slot] = this.intern(`p${process}`, () => ({ label })));
      }
      case 'category': {
        const category = model.styles.category[style];
        const slot = category + 1;
        if (this.byCategory[slot] >= 0) return this.byCategory[slot];
        const label = this.categoryText(category, model.styles.domain[style]);
        // By text: the same category of the same-named domain in two processes is one row.
        return (this.byCategory[slot] = this.intern(category < 0 ? 'c-' : `c:${label}`, () => ({ label })));
      }
      default: {
        const domain = model.styles.domain[style];
        if (this.byDomain[domain] >= 0) return this.byDomain[domain];
        const name = model.domains[domain].name;
        return (this.byDomain[domain] = this.intern(`d${name}`, () => ({ label: domainLabel(model, domain), domain: name })));
      }
    }
  }

  private payloadGroup(payload: number): number {
    if (payload < 0) return this.intern('none', () => ({ label: NO_PAYLOAD }));
    const p = payloadValue(this.model, payload)!;
    if (p.type === PayloadType.Ext) {
      // An extended payload's value is only its row: group by the decoded record instead.
      const text = modelPayloadSummary(this.model, payload, EXT_KEY_CHARS);
      return this.intern(`x${text}`, () => ({ label: text.length > EXT_LABEL_CHARS ? `${text.slice(0, EXT_LABEL_CHARS - 1)}…` : text || 'extended payload' }));
    }
    const key = `v${typeof p.value === 'string' ? 's' : 'n'}${String(p.value)}`;
    return this.intern(key, () => ({ label: formatPayload(this.model, payload) }));
  }

  private threadText(thread: number): string {
    const model = this.model;
    const label = threadLabel(model, thread);
    return model.processes.length > 1 ? `${label} · ${processLabel(model, model.threads[thread].process)}` : label;
  }

  private categoryText(category: number, styleDomain: number): string {
    const model = this.model;
    if (category < 0) return categoryLabel(model, -1);
    const domain = model.domains[model.categories[category].domain]?.name ?? model.domains[styleDomain]?.name ?? '';
    const label = categoryLabel(model, category);
    return domain ? `${domain}:${label}` : label;
  }
}
