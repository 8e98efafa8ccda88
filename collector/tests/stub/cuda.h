/* Stand-in for the CUDA driver header when the NVTX headers come without the CUDA toolkit:
   nvToolsExtCuda.h only needs these handle types. */
#ifndef NVTXC_TEST_STUB_CUDA_H
#define NVTXC_TEST_STUB_CUDA_H
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
#endif
