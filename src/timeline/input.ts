/**
 * Pointer, wheel and keyboard input of the timeline. Handlers only change state (the store's view,
 * span and selection; the pointer; held keys; the scroll position) and ask for frames: nothing
 * draws here.
 */
import type { ViewerStore } from '../state/viewerStore.ts';
import type { Frame } from './frame.ts';
import { hitTestFrame, locateMark, locateRange, rowAtFrameY, RULER_HEIGHT_CSS } from './frame.ts';
import { navKeyOf, type HeldKeys } from './keyboard.ts';
import { flagAt } from './renderers/flags.ts';
import { panBy, viewAround, wheelAction, wheelPixels, zoomAt, type ViewLimits } from './navigation.ts';
import type { MenuTarget } from './menu/menuItems.ts';
import type { CssPx } from './units.ts';

/** Movement (CSS px) before a press becomes a drag rather than a click. */
const DRAG_THRESHOLD_CSS: CssPx = 4;

export interface InputHost {
  readonly store: ViewerStore;
  /** The frame as it would be drawn now (for hit testing and conversions). */
  frame(): Frame;
  limits(): ViewLimits;
  setPointer(pointer: { xCss: CssPx; yCss: CssPx } | null): void;
  setDragging(mode: DragMode | null): void;
  readonly keys: HeldKeys;
  startKeyAnimation(): void;
  readonly scroller: HTMLElement;
  /** Right-click: open the menu for what is under the pointer (viewport px). */
  openMenu(target: MenuTarget, clientX: number, clientY: number): void;
  /** A flag was clicked or dropped: open its note editor (viewport px). */
  openFlag(id: number, clientX: number, clientY: number): void;
  /** Where the pointer is over the canvas, or null. */
  pointer(): { xCss: CssPx; yCss: CssPx } | null;
  /** The canvas's box in the viewport. */
  canvasRect(): DOMRect;
}

/**
 * What a drag does: pan the view (and scroll the rows), select a span on the time axis, or shift
 * one capture in time (a drag on its header row when several are loaded, to align unrelated clocks).
 */
export type DragMode = 'pan' | 'span' | 'shift';

interface Drag {
  pointerId: number;
  mode: DragMode;
  /** The capture a 'shift' drag moves, and its offset when the drag started. */
  captureId: number;
  offset0: number;
  x0: CssPx;
  y0: CssPx;
  startNs: number;
  endNs: number;
  nsPerPx: number;
  scrollTop0: CssPx;
  moved: boolean;
}

/** Attaches input handlers to the overlay canvas and the window; returns the detacher. */
export function attachInput(canvas: HTMLCanvasElement, host: InputHost): () => void {
  let drag: Drag | null = null;
  const local = (e: MouseEvent) => {
    const rect = canvas.getBoundingClientRect();
    return { xCss: e.clientX - rect.left, yCss: e.clientY - rect.top };
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const p = local(e);
    const frame = host.frame();
    const s = host.store.getState();
    const shifted = captureToShift(frame, p.yCss);
    drag = {
      pointerId: e.pointerId,
      mode: p.yCss < RULER_HEIGHT_CSS ? 'span' : shifted ? 'shift' : 'pan',
      captureId: shifted?.captureId ?? -1,
      offset0: shifted?.offsetNs ?? 0,
      x0: p.xCss,
      y0: p.yCss,
      startNs: s.viewStartNs,
      endNs: s.viewEndNs,
      nsPerPx: frame.scale.nsPerPx,
      scrollTop0: host.scroller.scrollTop,
      moved: false,
    };
    canvas.setPointerCapture(e.pointerId);
    e.preventDefault();
  };

  const onPointerMove = (e: PointerEvent) => {
    const p = local(e);
    host.setPointer(p);
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = p.xCss - drag.x0;
    const dy = p.yCss - drag.y0;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_CSS) return;
    if (!drag.moved) host.setDragging(drag.mode);
    drag.moved = true;
    if (drag.mode === 'pan') {
      const view = panBy({ startNs: drag.startNs, endNs: drag.endNs }, -dx * drag.nsPerPx, host.limits());
      host.store.getState().setView(view.startNs, view.endNs);
      host.scroller.scrollTop = drag.scrollTop0 - dy;
    } else if (drag.mode === 'shift') {
      host.store.getState().setCaptureOffset(drag.captureId, drag.offset0 + dx * drag.nsPerPx);
    } else {
      const width = host.frame().widthCss;
      const t0 = drag.startNs + drag.x0 * drag.nsPerPx;
      const t1 = drag.startNs + Math.min(width, Math.max(0, p.xCss)) * drag.nsPerPx;
      host.store.getState().setSpan({ startNs: Math.min(t0, t1), endNs: Math.max(t0, t1) });
    }
  };

  const onPointerUp = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const wasClick = !drag.moved;
    drag = null;
    host.setDragging(null);
    if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
    const p = local(e);
    // A drag released outside the canvas gets no pointerleave afterwards.
    const frame = host.frame();
    if (p.xCss < 0 || p.yCss < 0 || p.xCss > frame.widthCss || p.yCss > frame.heightCss) host.setPointer(null);
    if (!wasClick) return;
    const s = host.store.getState();
    const flag = flagAt(frame, s.flags, p.xCss, p.yCss);
    if (flag) {
      host.openFlag(flag.id, e.clientX, e.clientY);
      return;
    }
    const hit = hitTestFrame(frame, p.xCss, p.yCss);
    if (hit === 'ruler') s.setSpan(null);
    else if (hit === null) s.select(null);
    else if (hit.kind === 'range' || hit.kind === 'mark') s.select({ kind: hit.kind, capture: hit.row.captureId, index: hit.index });
  };

  const onPointerCancel = () => {
    drag = null;
    host.setDragging(null);
  };

  const onPointerLeave = () => {
    if (!drag) host.setPointer(null);
  };

  const onDoubleClick = (e: MouseEvent) => {
    const p = local(e);
    if (p.yCss < RULER_HEIGHT_CSS) {
      // A double-click on the time axis drops a flag there.
      const s = host.store.getState();
      if (flagAt(host.frame(), s.flags, p.xCss, p.yCss)) return;
      host.openFlag(s.addFlag(host.frame().scale.toNs(p.xCss)), e.clientX, e.clientY);
      return;
    }
    const hit = hitTestFrame(host.frame(), p.xCss, p.yCss);
    if (!hit || hit === 'ruler' || hit.kind !== 'range') return;
    const { model, offsetNs } = hit.row;
    const view = viewAround(model.ranges.startNs[hit.index] + offsetNs, model.ranges.endNs[hit.index] + offsetNs, host.limits());
    host.store.getState().setView(view.startNs, view.endNs);
  };

  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    const p = local(e);
    const frame = host.frame();
    const hit = hitTestFrame(frame, p.xCss, p.yCss);
    if (hit && hit !== 'ruler' && (hit.kind === 'range' || hit.kind === 'mark')) {
      host.openMenu({ kind: hit.kind, row: hit.row, index: hit.index }, e.clientX, e.clientY);
      return;
    }
    const row = rowAtFrameY(frame, p.yCss);
    if (row) host.openMenu({ kind: 'row', row }, e.clientX, e.clientY);
  };

  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const frame = host.frame();
    const s = host.store.getState();
    const view = { startNs: s.viewStartNs, endNs: s.viewEndNs };
    const dx = wheelPixels(e.deltaX, e.deltaMode, frame.widthCss);
    const dy = wheelPixels(e.deltaY, e.deltaMode, frame.heightCss);
    const limits = host.limits();
    const action = wheelAction(dx, dy, { ctrl: e.ctrlKey || e.metaKey, shift: e.shiftKey });
    let next = view;
    if (action.kind === 'zoom') {
      // Over the track tree, zoom at the view's centre.
      const x = e.currentTarget === canvas ? local(e).xCss : frame.widthCss / 2;
      next = zoomAt(view, frame.scale.toNs(x), action.factor, limits);
    } else if (action.kind === 'pan') {
      next = panBy(view, action.deltaCss * frame.scale.nsPerPx, limits);
    } else {
      if (action.deltaCss !== 0) host.scroller.scrollTop += action.deltaCss;
      if (action.panCss !== 0) next = panBy(view, action.panCss * frame.scale.nsPerPx, limits);
    }
    if (next !== view) s.setView(next.startNs, next.endNs);
  };

  // Over the track tree the plain wheel keeps its native scroll; Ctrl+wheel, pinch and Shift+wheel
  // act on the timeline as over the canvas (not on the page's zoom).
  const onTreeWheel = (e: WheelEvent) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) onWheel(e);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (ignoreKey(e, host.store)) return;
    const nav = navKeyOf(e.key);
    if (nav) {
      e.preventDefault();
      if (!e.repeat) {
        host.keys.press(nav, performance.now());
        host.startKeyAnimation();
      }
      return;
    }
    const s = host.store.getState();
    switch (e.key) {
      case 'f':
      case 'F':
        e.preventDefault();
        s.zoomToFit();
        break;
      case 'z':
      case 'Z': {
        e.preventDefault();
        const target = zoomTarget(host);
        if (target) s.setView(target.startNs, target.endNs);
        break;
      }
      case 'm':
      case 'M': {
        // A flag at the pointer (or the view's centre when the pointer is elsewhere).
        e.preventDefault();
        const frame = host.frame();
        const p = host.pointer();
        s.addFlag(p ? frame.scale.toNs(p.xCss) : (s.viewStartNs + s.viewEndNs) / 2);
        break;
      }
      case 'ContextMenu':
      case 'F10': {
        // The keyboard's way to the right-click menu: the selected range's or mark's.
        if (e.key === 'F10' && !e.shiftKey) break;
        e.preventDefault();
        const target = selectedTarget(host);
        if (target) host.openMenu(target.target, target.x, target.y);
        break;
      }
      case 'Escape':
        if (s.selection || s.span) {
          s.select(null);
          s.setSpan(null);
        }
        break;
    }
  };

  const onKeyUp = (e: KeyboardEvent) => {
    const nav = navKeyOf(e.key);
    if (nav) host.keys.release(nav, performance.now());
  };

  const onBlur = () => host.keys.clear();

  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerCancel);
  canvas.addEventListener('pointerleave', onPointerLeave);
  canvas.addEventListener('dblclick', onDoubleClick);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('contextmenu', onContextMenu);
  host.scroller.addEventListener('wheel', onTreeWheel, { passive: false });
  window.addEventListener('keydown', onKeyDown);
  window.addEventListener('keyup', onKeyUp);
  window.addEventListener('blur', onBlur);
  return () => {
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerCancel);
    canvas.removeEventListener('pointerleave', onPointerLeave);
    canvas.removeEventListener('dblclick', onDoubleClick);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('contextmenu', onContextMenu);
    host.scroller.removeEventListener('wheel', onTreeWheel);
    window.removeEventListener('keydown', onKeyDown);
    window.removeEventListener('keyup', onKeyUp);
    window.removeEventListener('blur', onBlur);
  };
}

/** The capture whose header row is at canvas y, when several captures are loaded (one has nothing to align with). */
export function captureToShift(frame: Frame, yCss: CssPx): { captureId: number; offsetNs: number } | null {
  if (frame.layout.captures.length < 2) return null;
  const row = rowAtFrameY(frame, yCss);
  return row && row.kind === 'capture' ? { captureId: row.captureId, offsetNs: row.offsetNs } : null;
}

/** Keys belong to the focused field, to shortcuts with modifiers, and to open dialogs. */
function ignoreKey(e: KeyboardEvent, store: ViewerStore): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return true;
  if (store.getState().showShortcuts) return true;
  const target = e.target as HTMLElement | null;
  if (!target || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.closest('[role="dialog"], [role="menu"]') !== null;
}

/** The selected range or mark as a menu target, with the viewport point of its box (null when off screen). */
function selectedTarget(host: InputHost): { target: MenuTarget; x: number; y: number } | null {
  const sel = host.store.getState().selection;
  if (!sel) return null;
  const frame = host.frame();
  const box =
    sel.kind === 'range'
      ? locateRange(frame, sel.capture, sel.index)
      : (() => {
          const m = locateMark(frame, sel.capture, sel.index);
          return m && { x0: m.x - m.half, x1: m.x + m.half, y: m.y - m.half, h: 2 * m.half };
        })();
  if (!box) return null;
  const x = Math.min(Math.max(box.x0, 0) + 8, frame.widthCss);
  const y = box.y + box.h;
  if (y < RULER_HEIGHT_CSS || y > frame.heightCss) return null;
  const row = rowAtFrameY(frame, box.y + box.h / 2);
  if (!row) return null;
  const rect = host.canvasRect();
  return { target: { kind: sel.kind, row, index: sel.index }, x: rect.left + x, y: rect.top + y };
}

/** Z: the selected range (or a mark's neighbourhood), else the selected span. */
function zoomTarget(host: InputHost): { startNs: number; endNs: number } | null {
  const s = host.store.getState();
  const limits = host.limits();
  const sel = s.selection;
  if (sel) {
    const capture = s.captures.find((c) => c.id === sel.capture);
    if (capture) {
      const { model, offsetNs } = capture;
      if (sel.kind === 'range') {
        return viewAround(model.ranges.startNs[sel.index] + offsetNs, model.ranges.endNs[sel.index] + offsetNs, limits);
      }
      const t = model.marks.timeNs[sel.index] + offsetNs;
      const half = (s.viewEndNs - s.viewStartNs) / 8;
      return viewAround(t - half, t + half, limits, 0);
    }
  }
  if (s.span) return viewAround(s.span.startNs, s.span.endNs, limits, 0.02);
  return null;
}
