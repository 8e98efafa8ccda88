import { expect, it } from 'vitest';
import { budgetFromQuery, defaultModelBudget } from './modelBudget.ts';

it('the default budget is half the memory the browser reports, 2 GiB when it does not say', () => {
  expect(defaultModelBudget(8)).toBe(4 * 2 ** 30);
  expect(defaultModelBudget(2)).toBe(2 ** 30);
  expect(defaultModelBudget(undefined)).toBe(2 * 2 ** 30);
  expect(defaultModelBudget(0)).toBe(2 * 2 ** 30);
});

it('?memoryLimitMB= sets the budget; anything but a positive number is ignored', () => {
  expect(budgetFromQuery('?memoryLimitMB=64')).toBe(64 * 1048576);
  expect(budgetFromQuery('?demo&memoryLimitMB=0.5')).toBe(524288);
  expect(budgetFromQuery('?memoryLimitMB=lots')).toBeUndefined();
  expect(budgetFromQuery('?memoryLimitMB=-1')).toBeUndefined();
  expect(budgetFromQuery('')).toBeUndefined();
});
