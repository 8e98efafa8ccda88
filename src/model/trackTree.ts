/**
 * The track tree at the left of the timeline, derived from the rows of a model:
 *   Process > Thread > [Domain >] Marks, Push/Pop, API rows, thread counters
 *   Process > NVTX > [Domain >] category rows, nested by the category hierarchy
 *   Process > custom groups (e.g. CUDA > GPU 0 > streams), process counters
 */
import { threadName } from './resources.ts';
import type { Model, Track, TrackNode } from './types.ts';

export function processLabel(model: Model, process: number): string {
  const p = model.processes[process];
  return p.name ? `${p.name} (${p.pid})` : `Process ${p.pid}`;
}

export function threadLabel(model: Model, thread: number): string {
  const t = model.threads[thread];
  const name = threadName(model, thread);
  return name ? `${name} (${t.tid})` : `Thread ${t.tid}`;
}

export function domainLabel(model: Model, domain: number): string {
  if (domain < 0) return '';
  return model.domains[domain].name || 'default domain';
}

export function categoryLabel(model: Model, category: number): string {
  if (category < 0) return 'No category';
  const c = model.categories[category];
  return c.name ? `${c.name} (${c.id})` : `Category ${c.id}`;
}

/**
 * The process-level group holding category rows: NVTX start/end ranges for NVTX sources; Chrome traces
 * put async (b/e, S/F) events there, which are not NVTX.
 */
function categoryGroupLabel(model: Model): string {
  return model.capture.format === 'chrome-json' ? 'Async' : 'NVTX';
}

export function buildTrackTree(model: Model): TrackNode[] {
  const roots: TrackNode[] = [];
  const processNodes = new Map<number, TrackNode>();
  const threadNodes = new Map<number, TrackNode>();

  const processNode = (p: number): TrackNode | undefined => {
    if (p < 0) return undefined;
    let node = processNodes.get(p);
    if (!node) {
      node = { label: processLabel(model, p), track: -1, children: [], detail: `pid ${model.processes[p].pid}` };
      processNodes.set(p, node);
    }
    return node;
  };
  const threadNode = (t: number): TrackNode => {
    let node = threadNodes.get(t);
    if (!node) {
      node = { label: threadLabel(model, t), track: -1, children: [], detail: `tid ${model.threads[t].tid}` };
      threadNodes.set(t, node);
    }
    return node;
  };
  const childGroup = (parent: TrackNode[], label: string): TrackNode => {
    let node = parent.find((n) => n.track === -1 && n.label === label);
    if (!node) {
      node = { label, track: -1, children: [] };
      parent.push(node);
    }
    return node;
  };
  const under = (base: TrackNode[], path: string[]): TrackNode[] => {
    let list = base;
    for (const label of path) list = childGroup(list, label).children;
    return list;
  };

  // Domains get their own level only where a thread or process uses more than the default one.
  const domainsUsed = new Map<string, Set<number>>();
  const noteDomain = (key: string, d: number) => {
    let s = domainsUsed.get(key);
    if (!s) domainsUsed.set(key, (s = new Set()));
    s.add(d);
  };
  model.tracks.forEach((t) => {
    if (t.kind === 'pushpop') noteDomain(`t${t.thread}`, t.domain);
    if (t.kind === 'category') noteDomain(`p${t.process}`, t.domain);
  });
  const domainPath = (key: string, d: number): string[] => {
    const used = domainsUsed.get(key);
    return used && (used.size > 1 || (d >= 0 && model.domains[d].name !== '')) ? [domainLabel(model, d)] : [];
  };

  const categoryNodes = new Map<string, TrackNode>();
  const categoryTracks = new Map<string, number>();
  model.tracks.forEach((t, i) => {
    if (t.kind === 'category') categoryTracks.set(`${t.process}:${t.domain}:${t.category}`, i);
  });
  const categoryNode = (t: Track, category: number, nvtx: TrackNode[]): TrackNode => {
    const key = `${t.process}:${t.domain}:${category}`;
    let node = categoryNodes.get(key);
    if (node) return node;
    const trackIndex = categoryTracks.get(key) ?? -1;
    node = { label: categoryLabel(model, category), track: trackIndex, children: [] };
    if (trackIndex >= 0) node.label = model.tracks[trackIndex].label || node.label;
    categoryNodes.set(key, node);
    const parent = category >= 0 ? model.categories[category].parent : -1;
    if (parent >= 0) categoryNode(t, parent, nvtx).children.push(node);
    else under(nvtx, domainPath(`p${t.process}`, t.domain)).push(node);
    return node;
  };

  model.tracks.forEach((t, i) => {
    const pNode = processNode(t.process);
    const processChildren = pNode ? pNode.children : roots;
    if (t.kind === 'category') {
      categoryNode(t, t.category, childGroup(processChildren, categoryGroupLabel(model)).children);
      return;
    }
    const leaf: TrackNode = { label: t.label, track: i, children: [] };
    if (t.thread >= 0) {
      const tNode = threadNode(t.thread);
      const path = t.kind === 'pushpop' ? domainPath(`t${t.thread}`, t.domain) : t.path;
      under(tNode.children, path).push(leaf);
    } else {
      under(processChildren, t.path).push(leaf);
    }
  });

  // Threads go under their process, sorted by sort index then tid; processes by sort index then pid.
  const threadOrder = [...threadNodes.keys()].sort(
    (a, b) => (model.threads[a].sortIndex ?? 0) - (model.threads[b].sortIndex ?? 0) || model.threads[a].tid - model.threads[b].tid,
  );
  for (const t of threadOrder) {
    const node = threadNodes.get(t)!;
    sortRows(node.children);
    processNode(model.threads[t].process)!.children.push(node);
  }
  const processOrder = [...processNodes.keys()].sort(
    (a, b) => (model.processes[a].sortIndex ?? 0) - (model.processes[b].sortIndex ?? 0) || model.processes[a].pid - model.processes[b].pid,
  );
  for (const p of processOrder) {
    const node = processNodes.get(p)!;
    // Threads first, then NVTX categories, then the rest, keeping insertion order inside each.
    node.children.sort((a, b) => rank(a) - rank(b));
    roots.push(node);
  }
  return roots;
}

const ROW_ORDER = ['Marks', 'Push/Pop'];

function sortRows(children: TrackNode[]): void {
  children.sort((a, b) => {
    const ra = ROW_ORDER.indexOf(a.label);
    const rb = ROW_ORDER.indexOf(b.label);
    return (ra === -1 ? ROW_ORDER.length : ra) - (rb === -1 ? ROW_ORDER.length : rb);
  });
}

function rank(node: TrackNode): number {
  if (node.detail?.startsWith('tid ')) return 0;
  if (node.label === 'NVTX' || node.label === 'Async') return 1;
  return 2;
}

/** Every track index below `node`, itself included, in tree order. */
export function tracksUnder(node: TrackNode, out: number[] = []): number[] {
  if (node.track >= 0) out.push(node.track);
  for (const c of node.children) tracksUnder(c, out);
  return out;
}
