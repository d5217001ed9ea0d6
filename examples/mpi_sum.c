/* mpi_sum.c - one array spread over MPI ranks, one GPU each, summed with
 * cured_reduce_sharded: every rank gets the bits cured_reduce gives for the
 * whole array on one GPU (and cured_reduce_cpu on the CPU).
 *
 *   mpirun -np 2 ./mpi_sum [N [DTYPE]]     N elements (default 2^24 + 3),
 *                                          DTYPE f32 (default), f64 or i32
 *
 * Rank r takes GPU (node-local rank) % (GPUs on the node) and holds
 * elements [first_r, first_r + n_r) of the global array, shards of unequal
 * sizes (rank r's share grows with r; small N leaves some empty). Element i
 * is a function of i alone, so every rank makes its own shard and rank 0
 * the whole array, on the host, for the CPU's answer. Rank 0 makes the
 * communicator's id and MPI_Bcast's it; each rank joins on its GPU
 * (cured_comm_create_rank), reduces (sum, then argmax), and checks the call
 * (cured_comm_check). Rank 0 prints one line per op with the bits of every
 * rank and the CPU's.
 *
 * Exit status: 0 when every rank's bits equal the CPU's, 1 otherwise (or on
 * an error, one line on stderr), 2 for bad arguments.
 */
#include <cuda_runtime.h>
#include <mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"

/* Element i of the global array: signs and exponents spread wide, so a sum
 * in any other order than exact would lose bits. */
static void element(cured_dtype dtype, uint64_t i, void *out)
{
    uint64_t x = i * 0x9e3779b97f4a7c15ull + 12345;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    double mant = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
    double v = ldexp(mant, (int)(x % 41) - 20) * ((x >> 8) & 1 ? -1 : 1);
    if (dtype == CURED_F32) {
        float f = (float)v;
        memcpy(out, &f, 4);
    } else if (dtype == CURED_F64) {
        memcpy(out, &v, 8);
    } else {
        int32_t k = (int32_t)(uint32_t)x;
        memcpy(out, &k, 4);
    }
}

/* The first element of rank r's shard of n over `ranks`: shares r + 1. */
static uint64_t shard_first(uint64_t n, int r, int ranks)
{
    uint64_t total = (uint64_t)ranks * (ranks + 1) / 2, before = (uint64_t)r * (r + 1) / 2;
    return (uint64_t)((double)n * (double)before / (double)total);
}

static int fail(int rank, const char *what, cured_status st)
{
    fprintf(stderr, "mpi_sum: rank %d: %s: %s\n", rank, what, cured_status_string(st));
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks, local;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);

    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : ((uint64_t)1 << 24) + 3;
    cured_dtype dtype = CURED_F32;
    if ((argc > 2 && cured_dtype_from_name(argv[2], &dtype) != CURED_SUCCESS) ||
        (dtype != CURED_F32 && dtype != CURED_F64 && dtype != CURED_I32) || argc > 3) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np N mpi_sum [N_ELEMENTS [f32|f64|i32]]\n");
        MPI_Finalize();
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "mpi_sum: rank %d: no CUDA device\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cudaSetDevice(local % devices);

    cured_comm_id id;
    if (rank == 0) {
        cured_status st = cured_comm_id_create(&id);
        if (st != CURED_SUCCESS)
            return fail(rank, "cured_comm_id_create", st);
    }
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    cured_comm *comm;
    cured_status st = cured_comm_create_rank(&id, ranks, rank, &comm);
    if (st != CURED_SUCCESS)
        return fail(rank, "cured_comm_create_rank", st);

    /* this rank's shard, made on the host and copied to its GPU */
    size_t size = cured_dtype_size(dtype);
    uint64_t first = shard_first(n, rank, ranks);
    uint64_t count = shard_first(n, rank + 1, ranks) - first;
    unsigned char *host = malloc(count * size + 1);
    for (uint64_t i = 0; i < count; i++)
        element(dtype, first + i, host + i * size);
    void *d_shard = NULL, *d_out = NULL;
    if (cudaMalloc(&d_shard, count * size + 16) != cudaSuccess ||
        cudaMalloc(&d_out, 8) != cudaSuccess ||
        cudaMemcpy(d_shard, host, count * size, cudaMemcpyHostToDevice) != cudaSuccess)
        return fail(rank, "cudaMalloc/cudaMemcpy", CURED_ERROR_CUDA);
    free(host);

    /* rank 0: the whole array on the host, for the CPU's bits */
    unsigned char *whole = NULL;
    if (rank == 0) {
        whole = malloc(n * size + 1);
        for (uint64_t i = 0; i < n; i++)
            element(dtype, i, whole + i * size);
    }

    static const cured_op ops[] = {CURED_OP_SUM, CURED_OP_ARGMAX};
    int all_equal = 1;
    for (int k = 0; k < 2; k++) {
        uint64_t got = 0, cpu = 0;
        st = cured_reduce_sharded(comm, ops[k], dtype, d_shard, count, d_out, 0, NULL);
        if (st != CURED_SUCCESS)
            return fail(rank, "cured_reduce_sharded", st);
        st = cured_comm_check(comm, NULL);
        if (st != CURED_SUCCESS)
            return fail(rank, "cured_comm_check", st);
        cured_dtype rt;
        cured_reduce_result_dtype(ops[k], dtype, 0, &rt);
        if (cudaMemcpy(&got, d_out, cured_dtype_size(rt), cudaMemcpyDeviceToHost) !=
            cudaSuccess)
            return fail(rank, "cudaMemcpy", CURED_ERROR_CUDA);
        uint64_t *every = rank == 0 ? malloc((size_t)ranks * 8) : NULL;
        MPI_Gather(&got, 1, MPI_UINT64_T, every, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            st = cured_reduce_cpu(ops[k], dtype, n ? whole : NULL, n, &cpu, 0, 0);
            if (st != CURED_SUCCESS)
                return fail(rank, "cured_reduce_cpu", st);
            int equal = 1;
            printf("%s %s, n %llu over %d ranks:", cured_op_name(ops[k]),
                   cured_dtype_name(dtype), (unsigned long long)n, ranks);
            for (int r = 0; r < ranks; r++) {
                printf(" %llx", (unsigned long long)every[r]);
                equal &= every[r] == cpu;
            }
            printf(" (cpu %llx): %s\n", (unsigned long long)cpu,
                   equal ? "equal" : "DIFFERENT");
            all_equal &= equal;
            free(every);
        }
    }
    MPI_Bcast(&all_equal, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(whole);
    cudaFree(d_shard);
    cudaFree(d_out);
    cured_comm_destroy(comm);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return all_equal ? 0 : 1;
}
