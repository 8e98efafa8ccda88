/**
 * Lookup over a `PayloadRegistry` (plain data) by (domain, id). Built once per registry and rebuilt
 * when the registry grew (a decoder may decode while it is still registering schemas).
 */
import type {
  EnumDef,
  PayloadRegistry,
  RegisteredStringDef,
  SchemaDef,
  ScopeDef,
  TypeInfoDef,
} from './schema.ts';

export interface RegistryIndex {
  readonly registry: PayloadRegistry;
  schema(domain: number, id: number): SchemaDef | undefined;
  enumDef(domain: number, id: number): EnumDef | undefined;
  registeredString(domain: number, handle: number): string | undefined;
  scope(domain: number, id: number): ScopeDef | undefined;
  readonly typeTable: readonly TypeInfoDef[] | undefined;
  /** Per-index cache for derived data (layouts), dropped with the index. */
  readonly cache: Map<unknown, unknown>;
}

const key = (domain: number, id: number) => `${domain}:${id}`;

interface Cached {
  index: RegistryIndex;
  schemas: number;
  enums: number;
  strings: number;
  scopes: number;
  typeInfo: number;
}

const indexes = new WeakMap<PayloadRegistry, Cached>();

/** The index of a registry; rebuilt when one of its lists changed length (registrations appended). */
export function indexRegistry(registry: PayloadRegistry): RegistryIndex {
  const cached = indexes.get(registry);
  if (
    cached &&
    cached.schemas === registry.schemas.length &&
    cached.enums === registry.enums.length &&
    cached.strings === (registry.strings?.length ?? 0) &&
    cached.scopes === (registry.scopes?.length ?? 0) &&
    cached.typeInfo === (registry.typeInfo?.length ?? 0)
  ) {
    return cached.index;
  }
  const schemas = new Map<string, SchemaDef>();
  const enums = new Map<string, EnumDef>();
  const strings = new Map<string, RegisteredStringDef>();
  const scopes = new Map<string, ScopeDef>();
  // Later registrations of the same id win (a collector should have refused duplicates).
  for (const s of registry.schemas) schemas.set(key(s.domain, s.id), s);
  for (const e of registry.enums) enums.set(key(e.domain, e.id), e);
  for (const s of registry.strings ?? []) strings.set(key(s.domain, s.handle), s);
  for (const s of registry.scopes ?? []) scopes.set(key(s.domain, s.id), s);
  const index: RegistryIndex = {
    registry,
    schema: (d, id) => schemas.get(key(d, id)),
    enumDef: (d, id) => enums.get(key(d, id)),
    registeredString: (d, h) => strings.get(key(d, h))?.text,
    scope: (d, id) => scopes.get(key(d, id)),
    typeTable: registry.typeInfo,
    cache: new Map(),
  };
  indexes.set(registry, {
    index,
    schemas: registry.schemas.length,
    enums: registry.enums.length,
    strings: registry.strings?.length ?? 0,
    scopes: registry.scopes?.length ?? 0,
    typeInfo: registry.typeInfo?.length ?? 0,
  });
  return index;
}

/** An empty registry (payloads of predefined types need no registrations). */
export function emptyRegistry(): PayloadRegistry {
  return { schemas: [], enums: [] };
}
