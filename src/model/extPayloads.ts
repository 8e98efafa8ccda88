/**
 * Builder-side store of extended payloads (NVTX payload extension): the blobs of each event, the
 * blobs given later at pop/end, and deep-copied memory, chained per event. `finish()` lays them out
 * as `Model.extPayloads`; src/payload decodes them.
 */
import { f64, i32, u32, u8 } from './growable.ts';
import { ExtPayloadRole, type ExtPayloadColumns } from './types.ts';

/** A payload blob as a decoder hands it over (`nvtxPayloadData_t` with its bytes copied). */
export interface ExtPayloadInput {
  schemaId: number;
  bytes: Uint8Array;
  /** Where the blob lived in the program, for pointers into it. */
  address?: number | bigint;
}

/** Memory the collector deep-copied for pointer entries of an event's payloads. */
export interface ExtMemoryInput {
  address: number | bigint;
  bytes: Uint8Array;
}

export class ExtPayloadTable {
  private readonly schema = f64();
  private readonly domain = u32();
  private readonly offset = f64();
  private readonly length = u32();
  private readonly address = f64();
  private readonly role = u8();
  private readonly next = i32();
  private data = new Uint8Array(4096);
  private used = 0;

  get size(): number {
    return this.schema.length;
  }

  /**
   * Adds one event's blobs (and memory, and the data OFFSET_FROM_BASE entries count from: its bytes,
   * or a row from `addShared`) as a chain; returns its first row, or -1 when empty.
   */
  add(domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[] = [], offsetBase?: ExtMemoryInput | number): number {
    let head = -1;
    let prev = -1;
    const push = (schemaId: number, bytes: Uint8Array, address: number | bigint | undefined, role: number) => {
      const row = this.schema.length;
      this.schema.push(schemaId);
      this.domain.push(domain);
      this.offset.push(this.used);
      this.length.push(bytes.length);
      this.address.push(address === undefined ? 0 : Number(address));
      this.role.push(role);
      this.next.push(-1);
      this.append(bytes);
      if (prev >= 0) this.next.set(prev, row);
      else head = row;
      prev = row;
    };
    for (const b of blobs) push(b.schemaId, b.bytes, b.address, ExtPayloadRole.Begin);
    for (const m of memory) push(0, m.bytes, m.address, ExtPayloadRole.Memory);
    if (typeof offsetBase === 'number') {
      if (prev >= 0) this.next.set(prev, offsetBase);
    } else if (offsetBase && head >= 0) push(0, offsetBase.bytes, offsetBase.address, ExtPayloadRole.OffsetBase);
    return head;
  }

  /**
   * An offset base stored once, outside any chain, and returned as a row that chains of `add` may
   * end in (the flex data of an event batch, shared by all its events). Such chains are never given
   * to `link` (deferred events have no pop/end payloads), so the shared row's `next` stays -1.
   */
  addShared(domain: number, base: ExtMemoryInput): number {
    const row = this.schema.length;
    this.schema.push(0);
    this.domain.push(domain);
    this.offset.push(this.used);
    this.length.push(base.bytes.length);
    this.address.push(Number(base.address));
    this.role.push(ExtPayloadRole.OffsetBase);
    this.next.push(-1);
    this.append(base.bytes);
    return row;
  }

  /** Marks the payload blobs of a chain as given at pop/end. */
  markEnd(head: number): void {
    for (let r = head; r >= 0; r = this.next.get(r)) {
      if (this.role.get(r) === ExtPayloadRole.Begin) this.role.set(r, ExtPayloadRole.End);
    }
  }

  /** Appends chain `other` to chain `head` (an event's pop/end payloads to its begin payloads). */
  link(head: number, other: number): void {
    if (head === other) return;
    let r = head;
    while (this.next.get(r) >= 0) r = this.next.get(r);
    this.next.set(r, other);
  }

  finish(): ExtPayloadColumns {
    return {
      schema: this.schema.toArray(),
      domain: this.domain.toArray(),
      offset: this.offset.toArray(),
      length: this.length.toArray(),
      address: this.address.toArray(),
      role: this.role.toArray(),
      next: this.next.toArray(),
      bytes: this.data.slice(0, this.used),
    };
  }

  private append(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.data.length) {
      const grown = new Uint8Array(Math.max(this.data.length * 2, this.used + bytes.length));
      grown.set(this.data.subarray(0, this.used));
      this.data = grown;
    }
    this.data.set(bytes, this.used);
    this.used += bytes.length;
  }
}
