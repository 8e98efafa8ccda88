/**
 * `NVTX_EVENTS.eventType` codes. Exports that have `ENUM_NSYS_EVENT_TYPE` name them, and that table
 * wins; without it (older exports, or an export made without enum tables) the built-in codes below,
 * taken from the enum of Nsight Systems 2025.1 (schema 3.17), are used.
 */

export type NvtxKind =
  | 'mark'
  | 'push'
  | 'pop'
  | 'start'
  | 'end'
  | 'pushpop'
  | 'startend'
  | 'category'
  | 'thread'
  | 'process'
  | 'fileDisplay'
  | 'domainCreate'
  | 'domainDestroy'
  | 'nameDevice'
  | 'nameContext'
  | 'nameStream';

/** Enum symbol -> kind; the NVTXT-imported types ('Nvtxt...') behave like their NVTX twins. */
const KIND_BY_NAME: Record<string, NvtxKind> = {
  NvtxCategory: 'category',
  NvtxMark: 'mark',
  NvtxPushRange: 'push',
  NvtxPopRange: 'pop',
  NvtxStartRange: 'start',
  NvtxEndRange: 'end',
  NvtxThread: 'thread',
  NvtxPushPopRange: 'pushpop',
  NvtxStartEndRange: 'startend',
  NvtxtCategory: 'category',
  NvtxtMark: 'mark',
  NvtxtPushRange: 'push',
  NvtxtPopRange: 'pop',
  NvtxtStartRange: 'start',
  NvtxtEndRange: 'end',
  NvtxtPushPopRange: 'pushpop',
  NvtxtStartEndRange: 'startend',
  NvtxtMetaThread: 'thread',
  NvtxtMetaProcess: 'process',
  NvtxtMetaFileDisplay: 'fileDisplay',
  NvtxDomainCreate: 'domainCreate',
  NvtxDomainDestroy: 'domainDestroy',
  NvtxNameCudaDevice: 'nameDevice',
  NvtxNameCudaContext: 'nameContext',
  NvtxNameCudaStream: 'nameStream',
};

/** Codes of Nsight Systems 2025.1 (ENUM_NSYS_EVENT_TYPE), for exports without the enum table. */
export const BUILTIN_EVENT_TYPES: ReadonlyMap<number, string> = new Map([
  [33, 'NvtxCategory'],
  [34, 'NvtxMark'],
  [35, 'NvtxPushRange'],
  [36, 'NvtxPopRange'],
  [37, 'NvtxStartRange'],
  [38, 'NvtxEndRange'],
  [39, 'NvtxThread'],
  [59, 'NvtxPushPopRange'],
  [60, 'NvtxStartEndRange'],
  [64, 'NvtxtCategory'],
  [65, 'NvtxtMark'],
  [66, 'NvtxtPushRange'],
  [67, 'NvtxtPopRange'],
  [68, 'NvtxtStartRange'],
  [69, 'NvtxtEndRange'],
  [70, 'NvtxtPushPopRange'],
  [71, 'NvtxtStartEndRange'],
  [72, 'NvtxtMetaThread'],
  [73, 'NvtxtMetaProcess'],
  [74, 'NvtxtMetaFileDisplay'],
  [75, 'NvtxDomainCreate'],
  [76, 'NvtxDomainDestroy'],
  [97, 'NvtxNameCudaDevice'],
  [98, 'NvtxNameCudaContext'],
  [99, 'NvtxNameCudaStream'],
]);

export interface EventTypeTable {
  kind: Map<number, NvtxKind>;
  /** Symbol names of every code the file's enum (or the built-in table) knows, for messages. */
  name: Map<number, string>;
  /** Codes of one kind, for SQL `IN (...)` lists. */
  codes(...kinds: NvtxKind[]): number[];
}

/** The event type table from the file's enum (id -> symbol), or the built-in one. */
export function eventTypeTable(fileEnum: Map<number, string> | undefined): EventTypeTable {
  // An enum with no NVTX type at all (unreadable in a damaged file, or emptied) says nothing: the built-in codes stand.
  const usable = fileEnum && [...fileEnum.values()].some((symbol) => KIND_BY_NAME[symbol] !== undefined);
  const name = new Map(usable ? fileEnum : BUILTIN_EVENT_TYPES);
  const kind = new Map<number, NvtxKind>();
  for (const [code, symbol] of name) {
    const k = KIND_BY_NAME[symbol];
    if (k) kind.set(code, k);
  }
  return {
    kind,
    name,
    codes: (...kinds) => [...kind].filter(([, k]) => kinds.includes(k)).map(([code]) => code),
  };
}
