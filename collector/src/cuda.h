/*
 * Recording the CUDA side of the program (docs/capture-format.md, section 10): attaching CUPTI when
 * the CUDA driver initialises (InitializeInjection, through CUDA_INJECTION64_PATH), saying once why
 * CUDA is not recorded when it cannot be, and flushing GPU work at exit and on fatal signals.
 * Without the CUPTI headers (NVTXC_WITH_CUPTI 0) it only says so.
 */
#ifndef NVTXC_CUDA_H
#define NVTXC_CUDA_H

/* The driver's cuInit is attaching the collector (after lifecycle_init_once): starts recording once. */
void cuda_attach(void);
/* Normal exit: flushes GPU work, or says why CUDA was not recorded (when the program loaded CUDA). */
void cuda_at_exit(void);
/* A fatal signal that ends the process: best-effort flush of GPU work (not from inside CUPTI). */
void cuda_in_fatal_signal(int sig);
/* In a fork child: CUDA does not survive fork(); the child records none. */
void cuda_after_fork_child(void);

#endif
