/**
 * Start/end ranges by id through the builder: with ids reused, interleaved across threads, a
 * start while open, an end without a start and ranges never ended, the ranges and messages are
 * those of the plain rule (one map of open ranges by id, the first start kept), which the reference
 * below follows event by event.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { ModelBuilder } from '../builder.ts';
import { ISSUES_LISTED_PER_KIND } from '../issueList.ts';
import { RangeFlag } from '../types.ts';
import { OpenStartEnds } from './openStartEnds.ts';

describe('open start/end ranges', () => {
  it('give the ranges and messages of a map of open ranges by id, on random streams', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = new Random(seed);
      const b = new ModelBuilder({ fileName: 'startend.test', format: 'test', byteSize: 0 });
      const threads = [b.thread(1, 1, 'a'), b.thread(1, 2, 'b'), b.thread(1, 3, 'c')];
      const open = new Map<number, { thread: number; t: number; name: string }>();
      const expected: string[] = [];
      const messages: string[] = [];
      // Issues per (kind, thread): past ISSUES_LISTED_PER_KIND the list groups them.
      const perGroup = new Map<string, number>();
      const note = (kind: string, thread: number, message: string) => {
        messages.push(message);
        perGroup.set(`${kind} ${thread}`, (perGroup.get(`${kind} ${thread}`) ?? 0) + 1);
      };
      let t = 0;
      let lastT = 0;
      const events = rnd.int(1, 150);
      for (let k = 0; k < events; k++) {
        t += rnd.int(0, 5);
        const id = rnd.int(0, 40);
        const thread = threads[rnd.int(0, 2)];
        if (rnd.next() < 0.55) {
          const name = `r${rnd.int(0, 6)}`;
          b.rangeStart(id, thread, t, { name, category: rnd.int(0, 2) });
          if (open.has(id)) note('start-while-open', thread, `range id ${id} started again while still open; the first start is kept`);
          else {
            open.set(id, { thread, t, name });
            lastT = t;
          }
        } else {
          b.rangeEnd(id, thread, t);
          // Every end counts toward the capture's end; a start only when it is kept.
          lastT = t;
          const o = open.get(id);
          if (!o) note('end-without-start', thread, `range id ${id} ended but is not open (never started, or ended twice)`);
          else {
            open.delete(id);
            expected.push(`${o.name} ${o.t}-${t} on ${o.thread}${thread !== o.thread ? ' cross' : ''}`);
          }
        }
      }
      for (const [id, o] of open) {
        note('never-ended', o.thread, `start/end range id ${id} never ended; closed at the end of the capture`);
        expected.push(`${o.name} ${o.t}-${lastT} on ${o.thread} unterminated`);
      }
      const m = b.finish();
      const zero = m.tracks.length === 0 ? 0 : Number(BigInt(m.capture.originNs));
      const actual = Array.from(m.ranges.startNs, (s, i) => {
        const f = m.ranges.flags[i];
        const tail = f & RangeFlag.Unterminated ? ' unterminated' : f & RangeFlag.CrossThread ? ' cross' : '';
        return `${m.strings[m.styles.name[m.ranges.style[i]]]} ${s + zero}-${m.ranges.endNs[i] + zero} on ${m.ranges.thread[i]}${tail}`;
      });
      expect(actual.sort(), `seed ${seed}`).toEqual(expected.sort());
      if (Math.max(0, ...perGroup.values()) > ISSUES_LISTED_PER_KIND) continue;
      compared++;
      expect(
        m.issues.map((i) => i.message),
        `seed ${seed}`,
      ).toEqual(messages);
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe('OpenStartEnds', () => {
  it('opens, finds, closes and lists ids as the Map of open ids it replaced, on random ids of every kind', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = new Random(seed);
      const table = new OpenStartEnds();
      // The old structure: a Map from id to slot, slots reused from a free list.
      const map = new Map<string | number, number>();
      const free: number[] = [];
      // Small ids, ids above 2^32 (a thread in the high bits), strings, and the ids a Map treats specially.
      const kinds = [
        () => rnd.int(0, 30),
        () => rnd.int(0, 7) * 2 ** 32 + rnd.int(0, 30),
        () => `id${rnd.int(0, 30)}`,
        () => rnd.pick([0, -0, NaN, 2 ** 53, -5, 1.5, '', '0']),
      ];
      for (let step = 0; step < 2000; step++) {
        const key = rnd.pick(kinds)();
        expect(table.has(key), `seed ${seed} step ${step}`).toBe(map.has(key));
        if (rnd.chance(0.5)) {
          if (map.has(key)) continue;
          const slot = table.open(key);
          const want = free.pop() ?? map.size;
          expect(slot).toBe(want);
          map.set(key, slot);
          table.t[slot] = step;
        } else {
          const want = map.get(key) ?? -1;
          expect(table.close(key)).toBe(want);
          if (want >= 0) {
            map.delete(key);
            free.push(want);
          }
        }
        if (step % 97 === 0) expect(table.entries()).toEqual([...map.entries()]);
      }
      expect(table.entries()).toEqual([...map.entries()]);
      table.clear();
      expect(table.entries()).toEqual([]);
      expect(table.open(1)).toBe(0);
    }
  });
});
