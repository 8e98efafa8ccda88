/**
 * W/A/S/D navigation with smooth animation: a held key keeps zooming or panning, faster the longer
 * it is held; a quick tap still moves a noticeable step (a key counts as held for at least
 * MIN_PRESS_MS). Pure state: the controller feeds key events and asks for a step each frame.
 */
import { panBy, zoomAt, type ViewLimits, type ViewWindow } from './navigation.ts';

export type NavKey = 'w' | 'a' | 's' | 'd';

/** Shortest effective press. */
export const MIN_PRESS_MS = 140;
/** Zoom speed, as ln(zoom factor) per second: from the start of a press to full speed. */
const ZOOM_RATE = [1.8, 4.5] as const;
/** Pan speed, in view widths per second. */
const PAN_RATE = [0.7, 2.0] as const;
/** Time to reach full speed. */
const RAMP_MS = 600;
/** Longest step: after a stall (background tab) the view must not jump. */
const MAX_STEP_MS = 50;

interface Press {
  downMs: number;
  upMs: number | null;
}

export function navKeyOf(key: string): NavKey | null {
  const k = key.toLowerCase();
  return k === 'w' || k === 'a' || k === 's' || k === 'd' ? k : null;
}

export class HeldKeys {
  private readonly presses = new Map<NavKey, Press>();
  private lastStepMs: number | null = null;

  press(key: NavKey, nowMs: number): void {
    const current = this.presses.get(key);
    if (current && current.upMs === null) return;
    this.presses.set(key, { downMs: nowMs, upMs: null });
  }

  release(key: NavKey, nowMs: number): void {
    const p = this.presses.get(key);
    if (p && p.upMs === null) p.upMs = nowMs;
  }

  clear(): void {
    this.presses.clear();
    this.lastStepMs = null;
  }

  /** True while some key still acts (held, or within its minimum press). */
  get active(): boolean {
    return this.presses.size > 0;
  }

  /** Advances the view to `nowMs`; `anchorNs` is where zooming centres (pointer or view centre). */
  step(view: ViewWindow, nowMs: number, anchorNs: number, limits: ViewLimits): ViewWindow {
    const fromMs = this.lastStepMs ?? nowMs - 16;
    this.lastStepMs = nowMs;
    let zoom = 0;
    let pan = 0;
    for (const [key, p] of this.presses) {
      const endMs = Math.max(p.upMs ?? Infinity, p.downMs + MIN_PRESS_MS);
      const a = Math.max(fromMs, p.downMs);
      const b = Math.min(nowMs, endMs, a + MAX_STEP_MS);
      if (b > a) {
        // Speed ramps linearly with the time held; integrate over [a, b].
        const ramp = (t: number) => Math.min(1, (t - p.downMs) / RAMP_MS);
        const mean = (ramp(a) + ramp(b)) / 2;
        const seconds = (b - a) / 1000;
        if (key === 'w' || key === 's') {
          const rate = ZOOM_RATE[0] + (ZOOM_RATE[1] - ZOOM_RATE[0]) * mean;
          zoom += (key === 'w' ? -1 : 1) * rate * seconds;
        } else {
          const rate = PAN_RATE[0] + (PAN_RATE[1] - PAN_RATE[0]) * mean;
          pan += (key === 'a' ? -1 : 1) * rate * seconds;
        }
      }
      if (nowMs >= endMs) this.presses.delete(key);
    }
    if (this.presses.size === 0) this.lastStepMs = null;
    let next = view;
    if (zoom !== 0) next = zoomAt(next, anchorNs, Math.exp(zoom), limits);
    if (pan !== 0) next = panBy(next, pan * (next.endNs - next.startNs), limits);
    return next;
  }
}
