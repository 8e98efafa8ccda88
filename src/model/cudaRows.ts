/**
 * Labels of the CUDA rows in a model, shared by the nsys importer (which makes the rows) and the
 * CUDA statistics (which find them again): one definition, so the two cannot drift apart. Part of
 * the model so that both layers may import it.
 */

/** Group label above the GPU rows of a process: Process > CUDA > GPU n > streams. */
export const CUDA_GROUP = 'CUDA';

/** Per-device row of CUDA synchronization records: host waits, linked to their API call, not GPU work. */
export const SYNC_ROW_LABEL = 'Synchronization';

/** Per-thread row of NVTX ranges projected onto the GPU (see src/import/nsys/projection.ts). */
export const PROJECTION_ROW_LABEL = 'NVTX (GPU projection)';
