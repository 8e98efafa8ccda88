/**
 * Attribute precedence of one logical event (nvToolsExtPayload.h, "NVTX_PAYLOAD_EVENT_ATTRIBUTE_
 * PRECEDENCE" in the API reference): core `nvtxEventAttributes_t` first, then the payloads in array
 * order, then the schema entries in order; the latest value wins. A range's pop/end payloads come
 * after its push/start payloads.
 *
 * Where the documents differ: the reference text lets pop/end payloads re-specify any attribute,
 * while the header (nvtxRangePopPayload / nvtxRangeEndPayload) says they "overwrite event
 * attributes (message and color)". The header wins: pop/end payloads override message and color
 * only; their category and scope are ignored (a range's row is fixed when it starts anyway).
 */
import type { DecodedPayload, TimestampRef } from './decoded.ts';

/** Attributes given with the core event (`nvtxEventAttributes_t`). */
export interface CoreAttributes {
  message?: string;
  color?: number;
  category?: number;
}

type AttributeName = 'message' | 'color' | 'category' | 'scope' | 'pid' | 'tid';

export interface EffectiveAttributes {
  message?: string;
  /** ARGB. */
  color?: number;
  category?: number;
  scope?: number | bigint;
  pid?: number | bigint;
  tid?: number | bigint;
  /** Where each attribute came from: 'core', 'begin[i]' or 'end[i]' (payload position). */
  source: Partial<Record<AttributeName, string>>;
  /** Deferred events: the last timestamp given for each role. */
  begin?: TimestampRef;
  end?: TimestampRef;
  mark?: TimestampRef;
}

const END_OVERRIDES: ReadonlySet<AttributeName> = new Set(['message', 'color']);

/**
 * The effective attributes of an event from its core attributes, its payloads, and (for ranges)
 * the payloads given at pop/end. Payloads of kind 'referenced' carry nothing and are skipped.
 */
export function effectiveAttributes(
  core: CoreAttributes,
  begin: readonly DecodedPayload[],
  end: readonly DecodedPayload[] = [],
): EffectiveAttributes {
  const out: EffectiveAttributes = { source: {} };
  const set = (name: AttributeName, value: string | number | bigint | undefined, source: string) => {
    if (value === undefined) return;
    (out as unknown as Record<string, unknown>)[name] = value;
    out.source[name] = source;
  };
  set('message', core.message, 'core');
  set('color', core.color, 'core');
  if (core.category) set('category', core.category, 'core');

  const apply = (payloads: readonly DecodedPayload[], label: string, allowed?: ReadonlySet<AttributeName>) => {
    payloads.forEach((p, i) => {
      if (p.kind === 'referenced') return;
      const a = p.attributes;
      for (const name of ['message', 'color', 'category', 'scope', 'pid', 'tid'] as const) {
        if (!allowed || allowed.has(name)) set(name, a[name], `${label}[${i}]`);
      }
      for (const t of p.timestamps) {
        const role = t.role === 'none' && p.role === 'mark' ? 'mark' : t.role;
        if (role === 'begin' || role === 'end' || role === 'mark') out[role] = t;
      }
    });
  };
  apply(begin, 'begin');
  apply(end, 'end', END_OVERRIDES);
  return out;
}
