// exp/grid_sweep.cu - scratch: time cured_reduce_shaped at forced grids
// against the default shape and CUB, interleaved, warm back-to-back calls.
//   grid_sweep DTYPE "LG..." "GRID..."   (grid 0 = default shape)
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <algorithm>
#include "cured.h"
#include "reduce.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CS(x) do { cured_status s_ = (x); if (s_ != CURED_SUCCESS) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cured_status_string(s_)); exit(1); } } while (0)

__global__ void fill(unsigned *p, size_t nw, unsigned elem, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nw; i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    if (elem == 4) p[i] = 0x3f800000u | (x & 0x7fffffu);           // [1,2) floats
    else if (elem == 8) p[i] = (i & 1) ? 0x3ff00000u | (x & 0xfffffu) : x;
    else p[i] = 0x3c003c00u | (x & 0x03ff03ffu);                    // f16 pairs in [1,2)
  }
}
int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: grid_sweep DTYPE \"LG...\" \"GRID...\" [ROUNDS]\n"); return 2; }
  cured_dtype d; CS(cured_dtype_from_name(argv[1], &d));
  std::vector<int> lgs, grids; { char *s = strdup(argv[2]); for (char *t = strtok(s, " ,"); t; t = strtok(NULL, " ,")) lgs.push_back(atoi(t)); }
  { char *s = strdup(argv[3]); for (char *t = strtok(s, " ,"); t; t = strtok(NULL, " ,")) grids.push_back(atoi(t)); }
  int rounds = argc > 4 ? atoi(argv[4]) : 9;
  size_t elem = cured_dtype_size(d);
  size_t ws; CS(cured_reduce_workspace_bytes(&ws));
  cured_reducer *R; CS(cured_reducer_create(NULL, ws, &R));
  int maxlg = *std::max_element(lgs.begin(), lgs.end());
  void *in; CK(cudaMalloc(&in, (elem << maxlg) + 256));
  CK(cudaMemset(in, 0, (elem << maxlg) + 256));
  fill<<<2048, 256>>>((unsigned *)in, (elem << maxlg) / 4, (unsigned)elem, 12345); CK(cudaGetLastError());
  double *out; CK(cudaMalloc(&out, 64 * 8));
  void *cub_tmp = NULL; size_t cub_bytes = 0;
  if (d == CURED_F32) cub::DeviceReduce::Sum(NULL, cub_bytes, (float *)in, (float *)out, 1ull << maxlg);
  else if (d == CURED_F64) cub::DeviceReduce::Sum(NULL, cub_bytes, (double *)in, (double *)out, 1ull << maxlg);
  else if (d == CURED_I32) cub::DeviceReduce::Sum(NULL, cub_bytes, (int *)in, (int *)out, 1ull << maxlg);
  else if (d == CURED_F16) cub::DeviceReduce::Sum(NULL, cub_bytes, (__half *)in, (__half *)out, 1ull << maxlg);
  CK(cudaMalloc(&cub_tmp, cub_bytes + 1024));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  printf("%-5s %5s %8s %10s %8s %8s %s\n", "dtype", "log2n", "grid", "us/call", "p10", "p90", "bits");
  for (int lg : lgs) {
    uint64_t n = 1ull << lg;
    int J = grids.size() + 1;
    std::vector<std::vector<double>> us(J);
    std::vector<unsigned long long> bits(J);
    int calls = lg <= 24 ? 50 : lg <= 27 ? 20 : 6;
    cured_reduce_shape def; CS(cured_reducer_shape(R, CURED_OP_SUM, d, n, &def));
    auto run = [&](int j) {
      if (j == J - 1) {
        size_t tb = cub_bytes;
        if (d == CURED_F32) cub::DeviceReduce::Sum(cub_tmp, tb, (float *)in, (float *)(out + 40), n);
        else if (d == CURED_F64) cub::DeviceReduce::Sum(cub_tmp, tb, (double *)in, (double *)(out + 40), n);
        else if (d == CURED_I32) cub::DeviceReduce::Sum(cub_tmp, tb, (int *)in, (int *)(out + 40), n);
        else cub::DeviceReduce::Sum(cub_tmp, tb, (__half *)in, (__half *)(out + 40), n);
        return;
      }
      cured_reduce_shape s = def;
      if (grids[j] > 0) { s.grid = grids[j]; s.cluster = 1; }
      CS(cured_reduce_shaped(R, CURED_OP_SUM, d, in, n, out + j, 0, &s, NULL));
    };
    CK(cudaMemset(out, 0xff, 64 * 8));
    for (int r = 0; r < rounds; r++)
      for (int jj = 0; jj < J; jj++) {
        int j = (jj + r) % J;
        run(j);
        CK(cudaEventRecord(a));
        for (int c = 0; c < calls; c++) run(j);
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        us[j].push_back(ms * 1e3 / calls);
      }
    CK(cudaMemcpy(bits.data(), out, 8 * (J - 1), cudaMemcpyDeviceToHost));
    for (int j = 0; j < J; j++) {
      std::sort(us[j].begin(), us[j].end());
      size_t m = us[j].size();
      char g[32];
      if (j == J - 1) strcpy(g, "cub"); else if (grids[j] == 0) snprintf(g, 32, "def%u", def.grid); else snprintf(g, 32, "%d", grids[j]);
      printf("%-5s %5d %8s %10.2f %8.2f %8.2f %llx\n", argv[1], lg, g, us[j][m / 2], us[j][m / 10], us[j][m * 9 / 10],
             j == J - 1 ? 0ull : bits[j]);
    }
    fflush(stdout);
  }
  return 0;
}
