/**
 * How much memory a capture's model may take while the load worker builds it (`modelBudgetBytes`):
 * past it the load stops and the model of what was read is kept and shown, with an error in the
 * load report naming where it stopped, instead of the tab running out of memory mid-way.
 */

/**
 * Half the device's memory as the browser reports it (`navigator.deviceMemory`, which Chromium
 * rounds and caps at 8 GB), so 4 GiB on most desktops; 2 GiB where the browser does not say.
 * Built columns grow by doubling, and `finish()` and the page's views need room beside the model.
 */
export function defaultModelBudget(deviceMemoryGB: number | undefined): number {
  const gb = deviceMemoryGB !== undefined && deviceMemoryGB > 0 ? deviceMemoryGB : 4;
  return (gb / 2) * 2 ** 30;
}

/** `?memoryLimitMB=N` of the page: a smaller budget than the default (a shared machine, tests). */
export function budgetFromQuery(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('memoryLimitMB');
  if (raw === null) return undefined;
  const mb = Number(raw);
  return Number.isFinite(mb) && mb > 0 ? mb * 1048576 : undefined;
}
