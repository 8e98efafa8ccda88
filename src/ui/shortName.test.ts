import { describe, expect, it } from 'vitest';
import { shortFunctionName } from './shortName.ts';

describe('shortFunctionName', () => {
  it('keeps the function name of a demangled kernel signature', () => {
    expect(
      shortFunctionName(
        'void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::normal_and_transform<float, float, 4ul>(at::TensorIteratorBase&)::{lambda(float)#1}>(int, at::PhiloxCudaState, float*)',
      ),
    ).toBe('distribution_elementwise_grid_stride_kernel');
    expect(shortFunctionName('void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)')).toBe('Kernel');
    expect(shortFunctionName('void gemm_kernel<float>(float const*, float*, int) const')).toBe('gemm_kernel');
    expect(shortFunctionName('my_ns::scale(float*, int)')).toBe('scale');
  });

  it('leaves plain names alone', () => {
    expect(shortFunctionName('ampere_sgemm_128x64_tn')).toBe('ampere_sgemm_128x64_tn');
    expect(shortFunctionName('Memcpy HtoD')).toBe('Memcpy HtoD');
    expect(shortFunctionName('')).toBe('');
    expect(shortFunctionName('f()')).toBe('f');
  });
});
