/* test_bench_sharded_report.c - the table and CSV of `cured bench --gpus N`
 * for a small fixed set of rows, checked field by field.
 *
 * CPU only. Two GPUs, two sizes: at 2^20 one GPU takes 10 us, two take
 * 8 us of which NCCL's allgather is 4 (a speed-up of 1.25, NCCL 50 %); at
 * 2^30, 1000 us against 520 us, NCCL 5 us, and rank 1's bits differ.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sharded.h"

static bench_sharded_row row(int log2n, double one, double many, double nccl, int equal)
{
    bench_sharded_row r;
    memset(&r, 0, sizeof r);
    r.log2n = log2n;
    r.n = (uint64_t)1 << log2n;
    r.one_gpu = (bench_summary){one, one - 1, one + 1, one - 2, one + 2, 20};
    r.sharded = (bench_summary){many, many - 1, many + 1, many - 2, many + 2, 20};
    r.nccl = (bench_summary){nccl, nccl - 0.5, nccl + 0.5, nccl - 1, nccl + 1, 20};
    r.equal = equal;
    if (!equal)
        snprintf(r.note, sizeof r.note, "rank 1: 3f800000, 1 GPU 3f800001");
    return r;
}

static int setup(void **state)
{
    bench_sharded_results *res = calloc(1, sizeof *res);
    res->gpus = 2;
    snprintf(res->device, sizeof res->device, "Test GPU");
    bench_sharded_row r = row(20, 10, 8, 4, 1);
    assert_int_equal(bench_sharded_results_add(res, &r), 0);
    r = row(30, 1000, 520, 5, 0);
    assert_int_equal(bench_sharded_results_add(res, &r), 0);
    *state = res;
    return 0;
}

static int teardown(void **state)
{
    bench_sharded_results_free(*state);
    free(*state);
    return 0;
}

__attribute__((noinline)) static char *
print_to_string(void (*print)(FILE *, const bench_sharded_results *),
                const bench_sharded_results *res)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    print(f, res);
    fclose(f);
    return buf;
}

/* Splits s at commas into at most `max` fields (s is modified). */
static int fields(char *s, char **out, int max)
{
    int count = 0;
    for (char *p = s; p != NULL && count < max;) {
        out[count++] = p;
        p = strchr(p, ',');
        if (p != NULL)
            *p++ = '\0';
    }
    return count;
}

static void test_csv_fields(void **state)
{
    char *csv = print_to_string(bench_sharded_print_csv, *state);
    char *lines[3];
    int count = 0;
    for (char *p = strtok(csv, "\n"); p != NULL && count < 3; p = strtok(NULL, "\n"))
        lines[count++] = p;
    assert_int_equal(count, 3);
    char *head[24], *f[24];
    assert_int_equal(fields(lines[0], head, 24), 20);
    assert_string_equal(head[0], "gpus");
    assert_string_equal(head[7], "sharded_us");
    assert_string_equal(head[19], "equal");
    assert_int_equal(fields(lines[1], f, 24), 20);
    assert_string_equal(f[0], "2");
    assert_string_equal(f[1], "20");
    assert_string_equal(f[2], "1048576");
    assert_near(atof(f[3]), 10, 1e-9);  /* one GPU */
    assert_near(atof(f[7]), 8, 1e-9);   /* two GPUs */
    assert_near(atof(f[11]), 4, 1e-9);  /* NCCL */
    assert_near(atof(f[15]), 1048576.0 * 4 / 10e3, 0.05); /* GB/s, one GPU */
    assert_near(atof(f[17]), 1.25, 1e-4);
    assert_near(atof(f[18]), 0.5, 1e-4);
    assert_string_equal(f[19], "1");
    assert_int_equal(fields(lines[2], f, 24), 20);
    assert_near(atof(f[17]), 1000.0 / 520, 1e-4);
    assert_string_equal(f[19], "0");
    free(csv);
}

static void test_table_rows(void **state)
{
    char *table = print_to_string(bench_sharded_print_table, *state);
    assert_non_null(strstr(table, "cured bench --gpus 2: f32 sum of n elements, Test GPU"));
    char *line = strstr(table, "\n   20 ");
    assert_non_null(line);
    double one, many, gb1, gbn, speedup, nccl, share;
    unsigned long long n;
    int lg;
    char check[32];
    assert_int_equal(sscanf(line, "%d %llu %lf %lf %lf %lf %lf %lf %lf %31s", &lg, &n, &one,
                            &many, &gb1, &gbn, &speedup, &nccl, &share, check),
                     10);
    assert_int_equal(n, 1048576);
    assert_near(speedup, 1.25, 0.005);
    assert_near(share, 50, 0.05);
    assert_string_equal(check, "equal");
    line = strstr(table, "\n   30 ");
    assert_non_null(line);
    assert_non_null(strstr(line, "DIFFERENT: rank 1: 3f800000, 1 GPU 3f800001"));
    free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_csv_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_rows, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
