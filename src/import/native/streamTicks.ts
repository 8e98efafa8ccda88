/**
 * The tick span of a run of thread-stream records: the sum of their `dt` fields
 * (docs/capture-format.md, section 7). After a gap in a stream the previous tick is lost, so the
 * reader places the chunk by its seal tick minus this span (its last event at the flush time).
 */
import { Op } from './format.ts';
import { ByteReader, FormatError } from './reader.ts';

/** Sum of the dt of the fixed-grammar records in `r` from its position; stops early at damage. */
export function recordTickSpan(bytes: Uint8Array, start: number, end: number): number {
  const r = new ByteReader(bytes, start, end, 0);
  let span = 0;
  try {
    while (!r.done) {
      const op = r.u8();
      if (op >= Op.FirstLengthPrefixed) {
        r.bytesOf(r.varint()); // their own ticks are relative to T0
        continue;
      }
      switch (op) {
        case Op.String:
          r.varint();
          r.bytesOf(r.varint());
          break;
        case Op.Thread:
          r.varint();
          r.bytesOf(r.varint());
          break;
        case Op.ThreadOsName:
          r.bytesOf(r.varint());
          break;
        case Op.Pop:
          span += r.svarint();
          break;
        case Op.Push:
        case Op.Mark:
        case Op.End:
        case Op.PopDomain:
          span += r.svarint();
          r.varint();
          break;
        case Op.Start:
        case Op.EndDomain:
          span += r.svarint();
          r.varint();
          r.varint();
          break;
        case Op.PushEx:
        case Op.MarkEx:
          span += r.svarint();
          r.varint();
          r.bytesOf(r.varint());
          break;
        case Op.StartEx:
          span += r.svarint();
          r.varint();
          r.varint();
          r.bytesOf(r.varint());
          break;
        case Op.Sync:
          span += r.svarint();
          r.u8();
          r.varint();
          break;
        default:
          return span;
      }
    }
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
  }
  return span;
}
