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

/** `ResourceInfo.kind` / `ObjectRef.kind` of CUDA objects, as the native decoder names them too. */
export const CUDA_DEVICE = 'CUDA device';
export const CUDA_CONTEXT = 'CUDA context';
export const CUDA_STREAM = 'CUDA stream';

/**
 * CUPTI correlation ids are unique per process only; the model's id of a CUDA API call and its GPU
 * work is (process index) * CUDA_CORRELATION_SPAN + (CUPTI id).
 */
export const CUDA_CORRELATION_SPAN = 2 ** 32;

/** The CUPTI correlation id of a model correlation id made by the nsys importer. */
export function cuptiCorrelationId(modelId: number): number {
  return modelId % CUDA_CORRELATION_SPAN;
}
