import { describe, expect, it } from 'vitest';
import { importers } from '../import/formats.ts';
import { FORMAT_LIST } from './formatList.ts';

describe('FORMAT_LIST', () => {
  it('matches the importer table (ids, labels, extensions, order)', () => {
    expect(FORMAT_LIST).toEqual(importers.map((imp) => ({ id: imp.id, label: imp.label, extensions: [...imp.extensions] })));
  });
});
