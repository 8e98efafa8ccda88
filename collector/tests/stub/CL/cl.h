/* Stand-in for the OpenCL header: nvToolsExtOpenCL.h only needs these handle types. */
#ifndef NVTXC_TEST_STUB_CL_H
#define NVTXC_TEST_STUB_CL_H
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef struct _cl_sampler *cl_sampler;
#endif
