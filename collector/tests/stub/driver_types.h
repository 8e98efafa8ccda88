/* Stand-in for the CUDA runtime types when the NVTX headers come without the CUDA toolkit. */
#ifndef NVTXC_TEST_STUB_DRIVER_TYPES_H
#define NVTXC_TEST_STUB_DRIVER_TYPES_H
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#endif
