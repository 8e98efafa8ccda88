/**
 * What the filter menu offers: the processes and their threads, domains, categories (as their
 * hierarchy) and event names of every loaded capture, merged by identity (pid, tid, domain name,
 * category id, name) since one filter applies to all captures, with event counts.
 */
import { processLabel, threadLabel } from '../../model/trackTree.ts';
import type { Model } from '../../model/types.ts';
import { filterItemKey, type FilterItem } from '../../analysis/eventFilters.ts';

export interface Choice {
  item: FilterItem;
  key: string;
  label: string;
  /** Ranges and marks. */
  count: number;
  /** Nesting in its list (category hierarchy, threads under processes). */
  depth: number;
  /** Key of the choice that hides this one with it (parent category, process of a thread), or ''. */
  parentKey: string;
}

export interface FilterChoices {
  /** Each process followed by its threads (depth 1). */
  threads: Choice[];
  domains: Choice[];
  /** Categories of each domain, depth-first along the hierarchy; "No category" per domain. */
  categories: Choice[];
  names: Choice[];
}

/** Events per style and per thread of a model (ranges and marks), computed once per model. */
interface ModelCounts {
  perStyle: Float64Array;
  /** Per thread + 1 (index 0: no thread). */
  perThread: Float64Array;
}

const countsCache = new WeakMap<Model, ModelCounts>();

function modelCounts(model: Model): ModelCounts {
  const cached = countsCache.get(model);
  if (cached) return cached;
  const perStyle = new Float64Array(model.styles.name.length);
  const perThread = new Float64Array(model.threads.length + 1);
  const { style: rs, thread: rt } = model.ranges;
  for (let i = 0; i < rs.length; i++) {
    perStyle[rs[i]]++;
    perThread[rt[i] + 1]++;
  }
  const { style: ms, thread: mt } = model.marks;
  for (let i = 0; i < ms.length; i++) {
    perStyle[ms[i]]++;
    perThread[mt[i] + 1]++;
  }
  const counts = { perStyle, perThread };
  countsCache.set(model, counts);
  return counts;
}

class ChoiceList {
  private readonly byKey = new Map<string, Choice>();
  readonly list: Choice[] = [];

  add(item: FilterItem, label: string, count: number, depth = 0, parentKey = ''): Choice {
    const key = filterItemKey(item);
    let c = this.byKey.get(key);
    if (!c) {
      c = { item, key, label, count: 0, depth, parentKey };
      this.byKey.set(key, c);
      this.list.push(c);
    }
    c.count += count;
    return c;
  }
}

const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label, undefined, { numeric: true }) || (a.key < b.key ? -1 : 1);

export function filterChoices(models: readonly Model[]): FilterChoices {
  const processes = new ChoiceList();
  const threads = new Map<string, ChoiceList>();
  const domains = new ChoiceList();
  const names = new ChoiceList();
  // Categories per domain name: choices by id, and parent ids.
  const categories = new Map<string, { list: ChoiceList; parent: Map<number, number> }>();

  for (const model of models) {
    const counts = modelCounts(model);
    const domainName = (d: number) => model.domains[d]?.name ?? '';
    model.processes.forEach((p, pi) => {
      const perProcess = model.threads.reduce((n, t, ti) => n + (t.process === pi ? counts.perThread[ti + 1] : 0), 0);
      const pc = processes.add({ kind: 'process', pid: p.pid }, processLabel(model, pi), perProcess);
      let list = threads.get(pc.key);
      if (!list) threads.set(pc.key, (list = new ChoiceList()));
      model.threads.forEach((t, ti) => {
        if (t.process === pi) list!.add({ kind: 'thread', pid: p.pid, tid: t.tid }, threadLabel(model, ti), counts.perThread[ti + 1], 1, pc.key);
      });
    });
    const perDomain = new Float64Array(model.domains.length);
    const perCategory = new Float64Array(model.categories.length);
    const noCategory = new Float64Array(model.domains.length);
    for (let s = 0; s < counts.perStyle.length; s++) {
      const n = counts.perStyle[s];
      if (n === 0) continue;
      const d = model.styles.domain[s];
      const c = model.styles.category[s];
      perDomain[d] += n;
      if (c >= 0) perCategory[c] += n;
      else noCategory[d] += n;
      names.add({ kind: 'name', domain: domainName(d), name: model.strings[model.styles.name[s]] }, qualified(domainName(d), model.strings[model.styles.name[s]]), n);
    }
    model.domains.forEach((d, di) => {
      if (perDomain[di] > 0) domains.add({ kind: 'domain', domain: d.name }, d.name || 'default domain', perDomain[di]);
    });
    model.categories.forEach((c, ci) => {
      const dn = domainName(c.domain);
      let entry = categories.get(dn);
      if (!entry) categories.set(dn, (entry = { list: new ChoiceList(), parent: new Map() }));
      const label = c.name ? `${c.name} (${c.id})` : `Category ${c.id}`;
      entry.list.add({ kind: 'category', domain: dn, id: c.id }, label, perCategory[ci]);
      if (c.parent >= 0 && !entry.parent.has(c.id)) entry.parent.set(c.id, model.categories[c.parent].id);
    });
    model.domains.forEach((d, di) => {
      if (noCategory[di] === 0 || model.categories.every((c) => c.domain !== di)) return;
      let entry = categories.get(d.name);
      if (!entry) categories.set(d.name, (entry = { list: new ChoiceList(), parent: new Map() }));
      entry.list.add({ kind: 'category', domain: d.name, id: 0 }, 'No category', noCategory[di]);
    });
  }

  const threadChoices: Choice[] = [];
  // Processes by pid, threads by tid: the order of the track tree.
  const byId = (a: Choice, b: Choice) => idOf(a) - idOf(b);
  for (const p of [...processes.list].sort(byId)) {
    threadChoices.push(p);
    threadChoices.push(...[...(threads.get(p.key)?.list ?? [])].sort(byId));
  }

  const categoryChoices: Choice[] = [];
  const multiDomain = categories.size > 1;
  for (const [domain, { list, parent }] of [...categories].sort(([a], [b]) => a.localeCompare(b))) {
    const byId = new Map(list.list.map((c) => [(c.item as { id: number }).id, c]));
    const children = new Map<number, Choice[]>();
    const roots: Choice[] = [];
    for (const c of list.list) {
      const id = (c.item as { id: number }).id;
      const p = parent.get(id);
      if (p !== undefined && byId.has(p)) {
        if (!children.has(p)) children.set(p, []);
        children.get(p)!.push(c);
      } else roots.push(c);
    }
    // Counts of a category include its descendants: hiding it hides them too.
    const visit = (nodes: Choice[], depth: number, parentKey: string, seen: Set<number>): number => {
      let total = 0;
      for (const c of nodes.sort(byLabel)) {
        const id = (c.item as { id: number }).id;
        if (seen.has(id)) continue;
        seen.add(id);
        c.depth = depth;
        c.parentKey = parentKey;
        if (multiDomain && depth === 0) c.label = `${domain || 'default domain'}: ${c.label}`;
        categoryChoices.push(c);
        c.count += visit(children.get(id) ?? [], depth + 1, c.key, seen);
        total += c.count;
      }
      return total;
    };
    visit(roots, 0, '', new Set());
  }

  return {
    threads: threadChoices,
    domains: [...domains.list].sort(byLabel),
    categories: categoryChoices,
    names: [...names.list].sort(byLabel),
  };
}

function idOf(c: Choice): number {
  return c.item.kind === 'thread' ? c.item.tid : c.item.kind === 'process' ? c.item.pid : 0;
}

function qualified(domain: string, name: string): string {
  return domain ? `${domain}:${name}` : name;
}
