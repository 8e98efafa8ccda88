/**
 * Grouping by a field of the events' payloads. Extended payloads are decoded with the payload
 * decoder (`src/payload/`); their leaf fields (numbers, enums, strings, nested struct members) are
 * offered by dotted path. The statistics engine groups by payload *value*, so grouping by a field
 * is done on a projection of the model whose payload rows hold that field's text: the engine runs
 * unchanged on it.
 */
import { formatFieldValue } from '../../payload/payloadText.ts';
import { decodeModelPayload, isExtPayload } from '../../model/extPayloadReader.ts';
import type { DecodedField, DecodedPayload } from '../../payload/decoded.ts';
import { PayloadType, type Model } from '../../model/types.ts';

/** Payload rows decoded to find field names: enough to meet every schema of a typical capture. */
export const FIELD_SAMPLE = 2000;

/** What the payloads of a model offer for grouping. */
export interface PayloadChoices {
  /** Some events carry a core (scalar, string, JSON) payload: group by its value. */
  values: boolean;
  /** Dotted paths of the extended payloads' leaf fields, in first-seen order. */
  fields: string[];
}

function isLeaf(f: DecodedField): boolean {
  return f.children === undefined && (f.kind === 'scalar' || f.kind === 'enum' || f.kind === 'string');
}

/** Leaf fields with their dotted paths, struct members included, array elements not. */
function visitLeaves(fields: readonly DecodedField[], prefix: string, visit: (path: string, f: DecodedField) => boolean): boolean {
  for (const f of fields) {
    if (f.name.startsWith('[')) continue;
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    if (isLeaf(f)) {
      if (!visit(path, f)) return false;
    } else if (f.kind === 'struct' && f.children && !visitLeaves(f.children, path, visit)) {
      return false;
    }
  }
  return true;
}

function decodedOf(model: Model, payload: number): DecodedPayload[] {
  const decoded = decodeModelPayload(model, payload, { maxElements: 16 });
  return decoded ? [...decoded.decodedBegin, ...decoded.decodedEnd].filter((p) => p.kind !== 'referenced') : [];
}

/** The grouping choices the payloads of the ranges give (ext payloads sampled up to `sample`). */
export function payloadChoices(model: Model, sample = FIELD_SAMPLE): PayloadChoices {
  const seen = new Set<string>();
  const fields: string[] = [];
  let values = false;
  let decoded = 0;
  const payloads = model.ranges.payload;
  for (let i = 0; i < payloads.length; i++) {
    const p = payloads[i];
    if (p < 0) continue;
    if (!isExtPayload(model, p)) {
      values ||= model.payloads.type[p] !== PayloadType.Ext;
      continue;
    }
    if (decoded >= sample) {
      if (values) break;
      continue;
    }
    decoded++;
    for (const d of decodedOf(model, p)) {
      visitLeaves(d.fields, '', (path) => {
        if (!seen.has(path)) {
          seen.add(path);
          fields.push(path);
        }
        return true;
      });
    }
  }
  return { values, fields };
}

/** Text of field `path` of a payload row (the first payload of the event that has it), or undefined. */
export function payloadFieldText(model: Model, payload: number, path: string): string | undefined {
  let text: string | undefined;
  for (const d of decodedOf(model, payload)) {
    visitLeaves(d.fields, '', (p, f) => {
      if (p !== path) return true;
      text = formatFieldValue(f);
      return false;
    });
    if (text !== undefined) return text;
  }
  return undefined;
}

const projections = new WeakMap<Model, Map<string, Model>>();

/**
 * The model with every payload row replaced by the text of field `path` ("(no path)" where the
 * event's payload lacks it), so that the engine's 'payload' grouping groups by that field. Shares
 * every other column with the model; cached per model and path.
 */
export function projectPayloadField(model: Model, path: string): Model {
  let byPath = projections.get(model);
  if (!byPath) projections.set(model, (byPath = new Map()));
  const cached = byPath.get(path);
  if (cached) return cached;
  const n = model.payloads.type.length;
  const strings = model.strings.slice();
  const ids = new Map<string, number>();
  const type = new Uint8Array(n).fill(PayloadType.String);
  const bits = new Float64Array(n);
  const missing = `(no ${path})`;
  for (let p = 0; p < n; p++) {
    const text = isExtPayload(model, p) ? (payloadFieldText(model, p, path) ?? missing) : missing;
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      strings.push(text);
      ids.set(text, id);
    }
    bits[p] = id;
  }
  const projected: Model = { ...model, strings, payloads: { type, bits } };
  byPath.set(path, projected);
  return projected;
}
