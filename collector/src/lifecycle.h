/* Process-level life of the collector: one-time setup, exit, fatal signals, fork. */
#ifndef NVTXC_LIFECYCLE_H
#define NVTXC_LIFECYCLE_H

/* Sets the collector up once per process; 1 when capturing, 0 when disabled (no output, or not wanted). */
int lifecycle_init_once(void);

#endif
