// exp/cold_probe.cu - scratch: where a small sum's cold-start time goes.
// For one dtype and n, times CUB and cured at given shapes in four modes,
// interleaved, one call per sample:
//   cold  : L2 flushed (memset 2x L2), sync, [start] call [stop]
//   code  : flushed, then the same call on another buffer of n (the code,
//           the workspace and the params warm; the input cold), sync, timed
//   data  : flushed, then the input copied D2D (its lines in L2, the code
//           cold), sync, timed
//   warm  : sync after a call on the input, timed
//   cold_probe DTYPE LOG2N "SHAPE..." [RUNS]   SHAPE: def | G:B:C:e|p
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <string>
#include <algorithm>
#include "cured.h"
#include "reduce.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CS(x) do { cured_status s_ = (x); if (s_ != CURED_SUCCESS) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cured_status_string(s_)); exit(1); } } while (0)

__global__ void fill(unsigned *p, size_t nw, unsigned elem, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nw; i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    if (elem == 4) p[i] = 0x3f800000u | (x & 0x7fffffu);
    else if (elem == 8) p[i] = (i & 1) ? 0x3ff00000u | (x & 0xfffffu) : x;
    else p[i] = 0x3c003c00u | (x & 0x03ff03ffu);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: cold_probe DTYPE LOG2N \"SHAPE...\" [RUNS]\n"); return 2; }
  cured_dtype d; CS(cured_dtype_from_name(argv[1], &d));
  int lg = atoi(argv[2]);
  int runs = argc > 4 ? atoi(argv[4]) : 200;
  std::vector<std::string> names;
  { char *s = strdup(argv[3]); for (char *t = strtok(s, " "); t; t = strtok(NULL, " ")) names.push_back(t); }
  size_t elem = cured_dtype_size(d), n = (size_t)1 << lg, bytes = elem * n;
  size_t ws; CS(cured_reduce_workspace_bytes(&ws));
  cured_reducer *R; CS(cured_reducer_create(NULL, ws, &R));
  void *in, *in2, *scratch; CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&in2, bytes)); CK(cudaMalloc(&scratch, bytes));
  fill<<<256, 256>>>((unsigned *)in, bytes / 4, (unsigned)elem, 1); CK(cudaGetLastError());
  fill<<<256, 256>>>((unsigned *)in2, bytes / 4, (unsigned)elem, 2); CK(cudaGetLastError());
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  size_t flush_bytes = 2 * (size_t)prop.l2CacheSize; void *flush; CK(cudaMalloc(&flush, flush_bytes));
  double *out; CK(cudaMalloc(&out, 64 * 8));
  void *cub_tmp = NULL; size_t cub_bytes = 0;
  if (d == CURED_F32) cub::DeviceReduce::Sum(NULL, cub_bytes, (float *)in, (float *)out, n);
  else if (d == CURED_F64) cub::DeviceReduce::Sum(NULL, cub_bytes, (double *)in, (double *)out, n);
  else cub::DeviceReduce::Sum(NULL, cub_bytes, (__half *)in, (__half *)out, n);
  CK(cudaMalloc(&cub_tmp, cub_bytes + 1024));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  cured_reduce_shape def; CS(cured_reducer_shape(R, CURED_OP_SUM, d, n, &def));
  int J = names.size() + 1;
  std::vector<cured_reduce_shape> shapes(J, def);
  for (int j = 0; j < J - 1; j++) {
    if (names[j] == "def") continue;
    unsigned g, c; int bl; char v;
    if (sscanf(names[j].c_str(), "%u:%d:%u:%c", &g, &bl, &c, &v) != 4) { fprintf(stderr, "bad shape %s\n", names[j].c_str()); return 2; }
    shapes[j].grid = g; shapes[j].block = bl; shapes[j].cluster = c;
    shapes[j].variant = v == 'p' ? CURED_VARIANT_PLAIN : CURED_VARIANT_EXACT;
  }
  auto call = [&](int j, const void *src) {
    if (j == J - 1) {
      size_t tb = cub_bytes;
      if (d == CURED_F32) cub::DeviceReduce::Sum(cub_tmp, tb, (const float *)src, (float *)(out + 40), n, st);
      else if (d == CURED_F64) cub::DeviceReduce::Sum(cub_tmp, tb, (const double *)src, (double *)(out + 40), n, st);
      else cub::DeviceReduce::Sum(cub_tmp, tb, (const __half *)src, (__half *)(out + 40), n, st);
      CK(cudaGetLastError());
      return;
    }
    CS(cured_reduce_shaped(R, CURED_OP_SUM, d, src, n, out + j, 0, &shapes[j], st));
  };
  std::vector<float> us[64][4];
  for (int r = 0; r < runs; r++)
    for (int m = 0; m < 4; m++)
      for (int jj = 0; jj < J; jj++) {
        int j = (jj + r) % J;
        if (m < 3) CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, st));
        if (m == 1) call(j, in2);
        if (m == 2) CK(cudaMemcpyAsync(scratch, in, bytes, cudaMemcpyDeviceToDevice, st));
        if (m == 3) call(j, in);
        CK(cudaStreamSynchronize(st));
        CK(cudaEventRecord(a, st));
        call(j, in);
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        us[j][m].push_back(ms * 1e3f);
      }
  printf("%-5s %5s %-14s %6s %6s %6s %6s   (median us; p10..p90 of cold)\n", "dtype", "log2n", "job", "cold", "code", "data", "warm");
  for (int j = 0; j < J; j++) {
    double med[4], p10 = 0, p90 = 0;
    for (int m = 0; m < 4; m++) {
      std::sort(us[j][m].begin(), us[j][m].end());
      med[m] = us[j][m][runs / 2];
      if (m == 0) { p10 = us[j][m][runs / 10]; p90 = us[j][m][runs * 9 / 10]; }
    }
    char nm[64];
    if (j == J - 1) snprintf(nm, 64, "cub");
    else snprintf(nm, 64, "%s%s", names[j].c_str(), names[j] == "def" ? "" : "");
    if (j < J - 1 && names[j] == "def") snprintf(nm, 64, "def(%u:%d:%u)", def.grid, def.block, def.cluster);
    printf("%-5s %5d %-14s %6.2f %6.2f %6.2f %6.2f   %.2f..%.2f\n", argv[1], lg, nm, med[0], med[1], med[2], med[3], p10, p90);
  }
  fflush(stdout);
  return 0;
}
