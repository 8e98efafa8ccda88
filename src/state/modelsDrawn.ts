/**
 * Which models the timeline has drawn: the timeline says so once a layout's static frame has been
 * drawn to its end, and whoever waits on a model's first drawing (the load client, to let a held
 * whole-file decode go on as soon as a partial model is on screen) is told. Keyed by the model
 * object, weakly: a model dropped before it was drawn takes its waiters with it.
 */
const waiting = new WeakMap<object, (() => void)[]>();

/** Resolves once `model` is drawn by a timeline (never, if it is not: race it with a timeout). */
export function whenModelDrawn(model: object): Promise<void> {
  return new Promise((resolve) => {
    const list = waiting.get(model);
    if (list) list.push(resolve);
    else waiting.set(model, [resolve]);
  });
}

/** Called by the timeline with the models of a layout it has just drawn to the end. */
export function modelsDrawn(models: Iterable<object>): void {
  for (const model of models) {
    const list = waiting.get(model);
    if (!list) continue;
    waiting.delete(model);
    for (const resolve of list) resolve();
  }
}
