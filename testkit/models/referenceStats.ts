/**
 * Test support: a straightforward reference for the range table, written from the definitions
 * only (one object per range, full sorts, interval arithmetic span by span), to check the fast
 * engine against. Shares nothing with src/analysis except the public option types.
 */
import { foldNumber } from '../../src/analysis/groups.ts';
import { payloadValue } from '../../src/model/payload.ts';
import { RangeFlag, type Model } from '../../src/model/types.ts';
import type { GroupBy, SpanMode, TimeSpan } from '../../src/analysis/index.ts';

export interface ReferenceRow {
  label: string;
  style: string;
  count: number;
  /** Instances still open at the capture end: in no other column. */
  unended: number;
  totalNs: number;
  selfNs: number;
  avgNs: number;
  medianNs: number;
  minNs: number;
  maxNs: number;
  stdDevNs: number;
  p90Ns: number;
  p99Ns: number;
  timePercent: number;
}

export interface ReferenceOptions {
  spans?: TimeSpan[];
  mode?: SpanMode;
  tracks?: number[];
  groupBy?: GroupBy;
  hiddenNames?: string[];
  hiddenThreads?: number[];
}

interface Item {
  index: number;
  start: number;
  end: number;
  kind: string;
  label: string;
  name: string;
  domain: string;
  thread: number;
  parent: number;
  track: number;
  unended: boolean;
}

function union(spans: TimeSpan[]): [number, number][] {
  const sorted = spans.map((s): [number, number] => [Math.min(s.startNs, s.endNs), Math.max(s.startNs, s.endNs)]).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

function inside(u: [number, number][], s: number, e: number): number {
  let sum = 0;
  for (const [a, b] of u) sum += Math.max(0, Math.min(b, e) - Math.max(a, s));
  return sum;
}

/** Sort-based quantile, linear interpolation between closest ranks. */
export function referenceQuantile(values: number[], p: number): number {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const h = (v.length - 1) * p;
  const k = Math.floor(h);
  return k + 1 < v.length ? v[k] + (h - k) * (v[k + 1] - v[k]) : v[k];
}

export function referenceRangeStats(model: Model, options: ReferenceOptions): ReferenceRow[] {
  const r = model.ranges;
  const items: Item[] = [];
  model.tracks.forEach((track, t) => {
    if (track.kind !== 'pushpop' && track.kind !== 'category') return;
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      const style = r.style[i];
      const name = model.strings[model.styles.name[style]];
      const domain = model.domains[model.styles.domain[style]].name;
      items.push({
        index: i,
        start: r.startNs[i],
        end: r.endNs[i],
        kind: track.kind === 'pushpop' ? 'PushPop' : 'StartEnd',
        label: domain ? `${domain}:${name}` : name,
        name,
        domain,
        thread: r.thread[i],
        parent: r.parent[i],
        track: t,
        unended: (r.flags[i] & RangeFlag.Unterminated) !== 0,
      });
    }
  });
  const byIndex = new Map(items.map((it) => [it.index, it]));
  const u = options.spans && options.spans.length > 0 ? union(options.spans) : null;
  const mode = options.mode ?? 'clip';
  const hiddenNames = new Set(options.hiddenNames ?? []);
  const hiddenThreads = new Set(options.hiddenThreads ?? []);
  const shown = (it: Item) => !hiddenNames.has(it.name) && !hiddenThreads.has(it.thread);
  const inTracks = (it: Item) => !options.tracks || options.tracks.includes(it.track);

  /** Counted time, or -1 when out of scope. */
  const counted = (it: Item): number => {
    if (!u) return it.end - it.start;
    if (it.start === it.end) return u.some(([a, b]) => a <= it.start && it.start <= b) ? 0 : -1;
    const c = inside(u, it.start, it.end);
    if (c <= 0) return -1;
    if (mode === 'clip') return c;
    if (mode === 'overlap') return it.end - it.start;
    return u.some(([a, b]) => a <= it.start && it.end <= b) ? it.end - it.start : -1;
  };

  const keyOf = (it: Item): { key: string; label: string } => {
    switch (options.groupBy ?? 'name') {
      case 'name':
        return { key: `${it.kind}|${it.label}`, label: it.label };
      case 'family': {
        const label = foldNumber(it.label);
        return { key: `${it.kind}|${label}`, label };
      }
      case 'thread': {
        const th = model.threads[it.thread];
        const label = th.name ? `${th.name} (${th.tid})` : `Thread ${th.tid}`;
        const p = model.processes[th.process];
        return { key: `t${it.thread}`, label: `${label} · ${p.name ? `${p.name} (${p.pid})` : `Process ${p.pid}`}` };
      }
      case 'process': {
        const p = model.processes[model.threads[it.thread].process];
        const label = p.name ? `${p.name} (${p.pid})` : `Process ${p.pid}`;
        return { key: label, label };
      }
      case 'domain':
        return { key: it.domain, label: it.domain || 'default domain' };
      case 'category': {
        const c = model.styles.category[r.style[it.index]];
        if (c < 0) return { key: 'c-', label: 'No category' };
        const cat = model.categories[c];
        const label = cat.name ? `${cat.name} (${cat.id})` : `Category ${cat.id}`;
        const domain = model.domains[cat.domain].name;
        const text = domain ? `${domain}:${label}` : label;
        return { key: `c:${text}`, label: text };
      }
      case 'parent': {
        if (it.parent < 0) return { key: 'top', label: '(top level)' };
        const p = byIndex.get(it.parent)!;
        return { key: `p${p.label}`, label: p.label };
      }
      case 'payload': {
        const p = payloadValue(model, r.payload[it.index]);
        return p ? { key: `v${String(p.value)}`, label: String(p.value) } : { key: 'none', label: '(no payload)' };
      }
    }
  };

  const groups = new Map<string, { label: string; kinds: Set<string>; values: number[]; covered: number; unended: number }>();
  const group = (it: Item) => {
    const { key, label } = keyOf(it);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { label, kinds: new Set(), values: [], covered: 0, unended: 0 }));
    return g;
  };
  for (const it of items) {
    if (!inTracks(it) || !shown(it)) continue;
    const c = counted(it);
    if (c < 0) continue;
    const g = group(it);
    g.kinds.add(it.kind);
    if (it.unended) {
      g.unended++;
      continue;
    }
    g.values.push(c);
    // Children: every range whose parent is this one, clamped to this range's end.
    for (const child of items) {
      if (child.parent !== it.index) continue;
      const e = Math.min(child.end, it.end);
      if (e <= child.start) continue;
      g.covered += !u || mode !== 'clip' ? e - child.start : inside(u, child.start, e);
    }
  }
  const rows: ReferenceRow[] = [];
  let sum = 0;
  for (const g of groups.values()) {
    const n = g.values.length;
    const total = g.values.reduce((a, b) => a + b, 0);
    const mean = n > 0 ? total / n : NaN;
    const variance = n > 1 ? g.values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : n === 1 ? 0 : NaN;
    sum += total;
    rows.push({
      label: g.label,
      style: ['PushPop', 'StartEnd'].filter((k) => g.kinds.has(k)).join('+'),
      count: n,
      unended: g.unended,
      totalNs: total,
      selfNs: Math.max(0, total - g.covered),
      avgNs: mean,
      medianNs: referenceQuantile(g.values, 0.5),
      minNs: n > 0 ? Math.min(...g.values) : NaN,
      maxNs: n > 0 ? Math.max(...g.values) : NaN,
      stdDevNs: Math.sqrt(variance),
      p90Ns: referenceQuantile(g.values, 0.9),
      p99Ns: referenceQuantile(g.values, 0.99),
      timePercent: 0,
    });
  }
  for (const row of rows) row.timePercent = sum > 0 ? (100 * row.totalNs) / sum : 0;
  return rows;
}
