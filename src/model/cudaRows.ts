/**
 * Labels of the CUDA rows in a model, shared by the nsys importer (which makes the rows) and the
 * CUDA statistics (which find them again): one definition, so the two cannot drift apart. Part of
 * the model so that both layers may import it.
 */

/** Group label above the GPU rows of a process: Process > CUDA > GPU n > streams. */
export const CUDA_GROUP = 'CUDA';

/** Per-device row of CUDA synchronization records: host waits, linked to their API call, not GPU work. */
export const SYNC_ROW_LABEL = 'Synchronization';

/** Per-thread row of NVTX ranges projected onto the GPU (see src/import/cuda/projection.ts). */
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

/** Per-stream row of GPU-side annotations (Kineto `gpu_user_annotation`): shown, never GPU work. */
export function gpuAnnotationRowLabel(streamLabel: string): string {
  return `${streamLabel} · annotations`;
}

const ANNOTATION_SUFFIX = gpuAnnotationRowLabel('');

/**
 * Whether a row holds GPU work (kernels, copies, sets): a 'gpu' row under the CUDA group that is
 * neither the synchronization row nor an annotation row.
 */
export function isGpuWorkRow(track: { kind: string; label: string; path: readonly string[] }): boolean {
  return track.kind === 'gpu' && track.path[0] === CUDA_GROUP && track.label !== SYNC_ROW_LABEL && !track.label.endsWith(ANNOTATION_SUFFIX);
}

/**
 * Whether a GPU work name is a memory operation (copy or set) rather than a kernel: the names the
 * nsys importer gives them (`[CUDA memcpy Host-to-Device]`, `[CUDA memset]`) and the ones PyTorch's
 * profiler writes (`Memcpy HtoD (Pinned -> Device)`, `Memset (Device)`).
 */
export function isMemoryOperationName(name: string): boolean {
  return /^(\[CUDA mem(cpy|set)\b|Mem(cpy|set)\b)/.test(name);
}
