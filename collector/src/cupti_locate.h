/* Where libcupti is: the search order of the collector (which library a CUDA program needs). */
#ifndef NVTXC_CUPTI_LOCATE_H
#define NVTXC_CUPTI_LOCATE_H

#include <stddef.h>

/*
 * The libcupti to load, in this order: `requested` (the --cupti PATH of nvtx-capture: a file or a
 * directory; nothing else is tried when it is given), next to the libcudart the process loaded
 * (and the toolkit and pip layouts relative to it), the CUDA toolkit's library directories
 * ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/local/cuda-*), the pip wheels (nvidia/cuda_cupti/lib,
 * nvidia/cu13/lib, nvidia/cu12/lib) in the Python paths of the process (site-packages directories
 * of the objects it loaded, $PYTHONPATH, $VIRTUAL_ENV), then the loader's own search (libcupti.so).
 * Returns 0 with a path in `out`; 1 when nothing was found in those places and only the loader's
 * search is left (`out` is then the library's name); -1 when the requested one is not there.
 * `why` lists the directories looked at (for the message when nothing loads).
 */
int cupti_locate(const char *requested, char *out, size_t cap, char *why, size_t why_cap);

#endif
