#pragma once

// What lets one source serve the CPU and, through nvcc, the GPU: functions
// marked NQUEENS_HD compile for both (the GPU engine's kernels and the
// rules they share with the quadrant engine); elsewhere the marks are empty.

#ifdef __CUDACC__
#define NQUEENS_HD __host__ __device__
#define NQUEENS_UNROLL _Pragma("unroll")
#else
#define NQUEENS_HD
#define NQUEENS_UNROLL
#endif
