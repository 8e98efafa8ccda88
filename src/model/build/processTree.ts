/**
 * Processes, threads, domains and categories while building: each interned by the ids the
 * capture gives it, in first-seen order, as the model's tables.
 */
import type { CategoryInfo, DomainInfo, ProcessInfo, ThreadInfo } from '../types.ts';
import { keyPacking, NO_KEY } from './cacheKey.ts';
import type { SourceLocation } from './inputs.ts';
import type { IssueLog } from './issues.ts';

/** Category cache key: (domain, category id as the capture gives it, a uint32). */
const CATEGORY_KEY = keyPacking(21, 32);

export class ProcessTree {
  readonly processes: ProcessInfo[] = [];
  private readonly processIds = new Map<number, number>();
  readonly threads: ThreadInfo[] = [];
  private readonly threadIds = new Map<string, number>();
  readonly domains: DomainInfo[] = [{ name: '', process: -1 }];
  private readonly domainIds = new Map<string, number>();
  readonly categories: CategoryInfo[] = [];
  private readonly categoryIds = new Map<string, number>();
  /** Numeric cache in front of `categoryIds`. */
  private readonly categoryCache = new Map<number, number>();

  constructor(private readonly issues: IssueLog) {}

  process(pid: number, name?: string): number {
    let p = this.processIds.get(pid);
    if (p === undefined) {
      p = this.processes.length;
      this.processes.push({ pid, name: '' });
      this.processIds.set(pid, p);
    }
    if (name !== undefined) this.processes[p].name = name;
    return p;
  }

  thread(pid: number, tid: number, name?: string): number {
    const process = this.process(pid);
    const key = `${pid}:${tid}`;
    let t = this.threadIds.get(key);
    if (t === undefined) {
      t = this.threads.length;
      this.threads.push({ tid, process, name: '' });
      this.threadIds.set(key, t);
    }
    if (name !== undefined) this.threads[t].name = name;
    return t;
  }

  processSortIndex(pid: number, sortIndex: number): void {
    this.processes[this.process(pid)].sortIndex = sortIndex;
  }

  threadSortIndex(pid: number, tid: number, sortIndex: number): void {
    this.threads[this.thread(pid, tid)].sortIndex = sortIndex;
  }

  /** A domain of a process (pid -1: not tied to a process). '' is the default domain (index 0). */
  domain(pid: number, name: string): number {
    if (name === '' && pid === -1) return 0;
    const key = `${pid}\u0000${name}`;
    let d = this.domainIds.get(key);
    if (d === undefined) {
      d = this.domains.length;
      this.domains.push({ name, process: pid === -1 ? -1 : this.process(pid) });
      this.domainIds.set(key, d);
    }
    return d;
  }

  /** Index of category `id` of `domain`, created unnamed on first use; -1 for id 0 (none). */
  category(domain: number, id: number): number {
    if (id === 0) return -1;
    const cacheKey = CATEGORY_KEY.pack(domain, id);
    if (cacheKey !== NO_KEY) {
      const cached = this.categoryCache.get(cacheKey);
      if (cached !== undefined) return cached;
    }
    const key = `${domain}:${id}`;
    let c = this.categoryIds.get(key);
    if (c === undefined) {
      c = this.categories.length;
      this.categories.push({ id, name: '', domain, parent: -1 });
      this.categoryIds.set(key, c);
    }
    if (cacheKey !== NO_KEY) this.categoryCache.set(cacheKey, c);
    return c;
  }

  nameCategory(domain: number, id: number, name: string, where?: SourceLocation): void {
    if (id === 0) {
      this.issues.report('warning', `category 0 means "no category" and cannot be named ("${name}")`, where);
      return;
    }
    this.categories[this.category(domain, id)].name = name;
  }

  /** Makes `childId` a child of `parentId`; rejects (and reports) self-links and cycles. */
  addChildCategory(domain: number, parentId: number, childId: number, where?: SourceLocation): boolean {
    if (parentId === 0 || childId === 0) {
      this.issues.report('error', 'AddChildCategory: category 0 means "no category" and cannot be linked', where);
      return false;
    }
    const parent = this.category(domain, parentId);
    const child = this.category(domain, childId);
    for (let c = parent; c !== -1; c = this.categories[c].parent) {
      if (c === child) {
        this.issues.report('error', `AddChildCategory ${parentId} -> ${childId} would make a cycle; ignored`, where);
        return false;
      }
    }
    this.categories[child].parent = parent;
    return true;
  }

  /** A thread as messages name it: "name" (tid), or the tid. */
  threadLabel(thread: number): string {
    if (thread < 0) return '?';
    const t = this.threads[thread];
    return t.name ? `"${t.name}" (${t.tid})` : String(t.tid);
  }
}
