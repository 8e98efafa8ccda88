/**
 * The push/pop hierarchy of one thread row (a 'pushpop' track), like `nsys stats
 * nvtx_pushpop_trace`: every range with Start, End, Duration, DurChild, DurNonChild, Name, Lvl,
 * NumChild and its range stack, shown as a tree. The tree is built once per row as typed arrays
 * (children in CSR form); what is on screen is the tree flattened into a Uint32Array of range
 * indices, rebuilt when a node opens or closes. Ranges hidden by the event filters leave the
 * tree and their children take their place. The keyboard reducer is pure.
 */
import { RangeFlag, type Model } from '../../model/types.ts';
import type { CaptureFilter } from '../../analysis/eventFilters.ts';

export interface PushPopTree {
  model: Model;
  track: number;
  /** The row's ranges are [begin, end) of `model.ranges`; per-node arrays are indexed by range - begin. */
  begin: number;
  end: number;
  /** Children of node l are `children[childOffset[l] .. childOffset[l + 1])` (range indices, by start). */
  childOffset: Uint32Array;
  children: Uint32Array;
  /** Ranges without a parent on the row, by start. */
  roots: Uint32Array;
  /** Sum of the direct children's durations (each clipped to the parent's end). */
  durChild: Float64Array;
  maxDepth: number;
}

const treeCache = new WeakMap<Model, Map<number, PushPopTree>>();

export function pushPopTree(model: Model, track: number): PushPopTree {
  let perModel = treeCache.get(model);
  if (!perModel) treeCache.set(model, (perModel = new Map()));
  const cached = perModel.get(track);
  if (cached) return cached;
  const { rangeBegin: begin, rangeEnd: end } = model.tracks[track];
  const n = end - begin;
  const { parent, startNs, endNs, depth } = model.ranges;
  const counts = new Uint32Array(n + 1);
  const durChild = new Float64Array(n);
  let rootCount = 0;
  let maxDepth = 0;
  for (let i = begin; i < end; i++) {
    const p = parent[i];
    if (depth[i] > maxDepth) maxDepth = depth[i];
    if (p < 0) {
      rootCount++;
      continue;
    }
    counts[p - begin + 1]++;
    const e = Math.min(endNs[i], endNs[p]);
    if (e > startNs[i]) durChild[p - begin] += e - startNs[i];
  }
  const childOffset = new Uint32Array(n + 1);
  for (let l = 0; l < n; l++) childOffset[l + 1] = childOffset[l] + counts[l + 1];
  const fill = childOffset.slice(0, n);
  const children = new Uint32Array(n - rootCount);
  const roots = new Uint32Array(rootCount);
  let r = 0;
  // Rows are sorted by (depth, start), so each node's children arrive in start order.
  for (let i = begin; i < end; i++) {
    const p = parent[i];
    if (p < 0) roots[r++] = i;
    else children[fill[p - begin]++] = i;
  }
  const tree = { model, track, begin, end, childOffset, children, roots, durChild, maxDepth };
  perModel.set(track, tree);
  return tree;
}

export function childCount(tree: PushPopTree, range: number): number {
  const l = range - tree.begin;
  return tree.childOffset[l + 1] - tree.childOffset[l];
}

/** The nsys columns of one range. */
export interface PushPopRow {
  startNs: number;
  endNs: number;
  durationNs: number;
  durChildNs: number;
  durNonChildNs: number;
  level: number;
  numChild: number;
  /**
   * Still open at the end of the capture: End is only where the capture stopped, so Duration and
   * DurNonChild are lower bounds (the panel says so instead of showing them as measured).
   */
  unended: boolean;
}

export function pushPopRow(tree: PushPopTree, range: number): PushPopRow {
  const { startNs, endNs, depth } = tree.model.ranges;
  const durationNs = endNs[range] - startNs[range];
  const durChildNs = tree.durChild[range - tree.begin];
  return {
    startNs: startNs[range],
    endNs: endNs[range],
    durationNs,
    durChildNs,
    durNonChildNs: durationNs - durChildNs,
    level: depth[range],
    numChild: childCount(tree, range),
    unended: (tree.model.ranges.flags[range] & RangeFlag.Unterminated) !== 0,
  };
}

/** The ranges enclosing `range` on its row, outermost first (the range stack without the range). */
export function ancestors(model: Model, range: number): number[] {
  const out: number[] = [];
  for (let p = model.ranges.parent[range]; p >= 0; p = model.ranges.parent[p]) out.push(p);
  return out.reverse();
}

// ---------------------------------------------------------------- flattening

/** Open nodes: per node (range - begin), 1 = expanded. Closing a node keeps its descendants' flags. */
export type Expansion = Uint8Array;

export function noExpansion(tree: PushPopTree): Expansion {
  return new Uint8Array(tree.end - tree.begin);
}

function shown(filter: CaptureFilter | null, range: number): boolean {
  return filter === null || filter.ranges.shown(range);
}

/**
 * Pushes the shown nodes among `nodes` onto `out` in order; a hidden node is replaced by its own
 * shown children (recursively), so filtering keeps the descendants of what it hides.
 */
function appendShown(tree: PushPopTree, nodes: ArrayLike<number>, from: number, to: number, filter: CaptureFilter | null, out: number[]): void {
  for (let k = from; k < to; k++) {
    const c = nodes[k];
    if (shown(filter, c)) out.push(c);
    else {
      const l = c - tree.begin;
      appendShown(tree, tree.children, tree.childOffset[l], tree.childOffset[l + 1], filter, out);
    }
  }
}

/** The shown children of a node (hidden children replaced by theirs), or the shown roots for -1. */
export function shownChildren(tree: PushPopTree, range: number, filter: CaptureFilter | null): number[] {
  const out: number[] = [];
  if (range < 0) appendShown(tree, tree.roots, 0, tree.roots.length, filter, out);
  else {
    const l = range - tree.begin;
    appendShown(tree, tree.children, tree.childOffset[l], tree.childOffset[l + 1], filter, out);
  }
  return out;
}

/** The nearest shown ancestor of a range on the tree (its parent in the displayed tree), or -1. */
export function shownParent(tree: PushPopTree, range: number, filter: CaptureFilter | null): number {
  const parent = tree.model.ranges.parent;
  for (let p = parent[range]; p >= 0; p = parent[p]) if (shown(filter, p)) return p;
  return -1;
}

/** The visible rows: shown roots, and below every expanded node its shown children, depth first. */
export function flattenTree(tree: PushPopTree, expanded: Expansion, filter: CaptureFilter | null): Uint32Array {
  let out = new Uint32Array(Math.max(16, Math.min(tree.end - tree.begin, 1024)));
  let n = 0;
  const push = (v: number) => {
    if (n === out.length) {
      const grown = new Uint32Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[n++] = v;
  };
  // Explicit stack of pending siblings (reversed), so deep trees cannot overflow the call stack.
  const stack: number[] = shownChildren(tree, -1, filter).reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    push(node);
    if (expanded[node - tree.begin]) {
      const kids = shownChildren(tree, node, filter);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
  }
  return out.slice(0, n);
}

/** Expands every ancestor of `range`, so that its row is visible. */
export function expandTo(tree: PushPopTree, expanded: Expansion, range: number): Expansion {
  const next = expanded.slice();
  for (let p = tree.model.ranges.parent[range]; p >= 0; p = tree.model.ranges.parent[p]) next[p - tree.begin] = 1;
  return next;
}

function setSubtree(tree: PushPopTree, expanded: Expansion, range: number, value: 0 | 1): Expansion {
  const next = expanded.slice();
  const stack = [range];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const l = node - tree.begin;
    const from = tree.childOffset[l];
    const to = tree.childOffset[l + 1];
    if (to > from || value === 0) next[l] = value;
    for (let k = from; k < to; k++) stack.push(tree.children[k]);
  }
  return next;
}

// ---------------------------------------------------------------- keyboard

export interface HierarchyView {
  expanded: Expansion;
  /** The visible rows (flattenTree of `expanded`). */
  rows: Uint32Array;
  /** The focused range, or -1. */
  focus: number;
}

export type HierarchyKey = 'ArrowRight' | 'ArrowLeft' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown' | '*' | '/';

export const HIERARCHY_KEYS: readonly string[] = ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', '*', '/'];

export function initialView(tree: PushPopTree, filter: CaptureFilter | null): HierarchyView {
  const expanded = noExpansion(tree);
  const rows = flattenTree(tree, expanded, filter);
  return { expanded, rows, focus: rows.length > 0 ? rows[0] : -1 };
}

function withExpansion(tree: PushPopTree, view: HierarchyView, expanded: Expansion, filter: CaptureFilter | null, focus = view.focus): HierarchyView {
  return { expanded, rows: flattenTree(tree, expanded, filter), focus };
}

/** Shows `range` (expanding its ancestors) and focuses it. */
export function revealInView(tree: PushPopTree, view: HierarchyView, range: number, filter: CaptureFilter | null): HierarchyView {
  if (range < tree.begin || range >= tree.end) return view;
  const expanded = expandTo(tree, view.expanded, range);
  return withExpansion(tree, view, expanded, filter, range);
}

/**
 * A key on the focused row: Right opens a closed node (its subtree comes back as it was left) or
 * moves to the first child of an open one; Left closes an open node or moves to the parent; `*`
 * opens the whole subtree, `/` closes it; Up/Down/Home/End/PageUp/PageDown move.
 */
export function hierarchyKey(tree: PushPopTree, view: HierarchyView, key: HierarchyKey, filter: CaptureFilter | null, pageRows = 10): HierarchyView {
  const { rows } = view;
  if (rows.length === 0) return view;
  let at = view.focus < 0 ? -1 : rows.indexOf(view.focus);
  if (at < 0) return { ...view, focus: rows[0] };
  const focus = view.focus;
  const l = focus - tree.begin;
  const open = view.expanded[l] === 1;
  // Without a filter the child count answers; with one, the children may all be hidden.
  const hasChildren = filter ? shownChildren(tree, focus, filter).length > 0 : childCount(tree, focus) > 0;
  const move = (to: number) => ({ ...view, focus: rows[Math.max(0, Math.min(rows.length - 1, to))] });
  switch (key) {
    case 'ArrowDown':
      return move(at + 1);
    case 'ArrowUp':
      return move(at - 1);
    case 'Home':
      return move(0);
    case 'End':
      return move(rows.length - 1);
    case 'PageDown':
      return move(at + pageRows);
    case 'PageUp':
      return move(at - pageRows);
    case 'ArrowRight': {
      if (!hasChildren) return view;
      if (!open) {
        const expanded = view.expanded.slice();
        expanded[l] = 1;
        return withExpansion(tree, view, expanded, filter);
      }
      return move(at + 1);
    }
    case 'ArrowLeft': {
      if (open && hasChildren) {
        const expanded = view.expanded.slice();
        expanded[l] = 0;
        return withExpansion(tree, view, expanded, filter);
      }
      const parent = shownParent(tree, focus, filter);
      if (parent < 0) return view;
      at = rows.indexOf(parent);
      return at < 0 ? view : move(at);
    }
    case '*':
      return hasChildren ? withExpansion(tree, view, setSubtree(tree, view.expanded, focus, 1), filter) : view;
    case '/':
      return withExpansion(tree, view, setSubtree(tree, view.expanded, focus, 0), filter);
  }
}
