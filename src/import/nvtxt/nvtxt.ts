// Placeholder until the NVTXT importer lands (same session).
import type { Importer } from '../types.ts';

export const nvtxtImporter: Importer = {
  id: 'nvtxt',
  label: 'NVTXT text',
  extensions: ['nvtxt'],
  sniff: () => false,
  decode: async () => {
    throw new Error('NVTXT importer not implemented yet');
  },
};
