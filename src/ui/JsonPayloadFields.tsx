/**
 * A JSON object payload (Chrome `args`, nsys extra columns) as one line per field instead of its
 * raw text; anything else (scalars, arrays, big objects) stays text.
 */
import { useMemo } from 'react';
import { payloadJson } from '../model/payload.ts';
import type { Model } from '../model/types.ts';
import './payloadFields.css';

/** Beyond this many fields the raw text is shorter to read. */
const MAX_FIELDS = 40;

export function jsonObjectFields(model: Model, payload: number): [key: string, value: string][] | undefined {
  const value = payloadJson(model, payload);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 || entries.length > MAX_FIELDS) return undefined;
  return entries.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
}

export function JsonPayloadFields({ fields }: { fields: [string, string][] }) {
  return (
    <dl className="payload-fields" data-testid="payload-fields">
      {fields.map(([k, v]) => (
        <div key={k} className="payload-field">
          <dt>{k}</dt>
          <dd>
            <code>{v}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function useJsonObjectFields(model: Model, payload: number): [string, string][] | undefined {
  return useMemo(() => (payload < 0 ? undefined : jsonObjectFields(model, payload)), [model, payload]);
}
