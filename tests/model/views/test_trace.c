/* test_trace.c - the trace (views/trace*.c) on the lesson's four kernels
 * run through the whole model, and the tree's maths (step_view_maths.c).
 *
 *   ctest --test-dir build -R test_model_trace
 *
 * The kernels are seed_kernels.ptx (seed_kernels.cu: our copies of the four
 * versions), one block of 64 threads over in[i] = i + 1 (floats), so every
 * value is known by hand: after the first divergent step x[0] = 1 + 2, the
 * first shuffle round gives lane 0 in[16] = 17 and the sum 18, the block's
 * sum is 64 * 65 / 2 = 2080.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "step_view.h"
#include "test_files.h"

/* One traced run. */
typedef struct traced {
    cured_model_module *m;
    cured_model_trace *t;
    float out;
} traced;

static traced run(const char *kernel, uint32_t dynamic_shared, uint32_t max_ops)
{
    traced r;
    r.m = test_parse_ptx_file(SEED_FIXTURES, "seed_kernels.ptx");
    int fn = cured_model_find_function(r.m, kernel);
    assert_true(fn >= 0);
    r.t = cured_model_trace_new(r.m, fn);
    assert_non_null(r.t);
    if (max_ops)
        cured_model_trace_set_limits(r.t, max_ops, 1u << 20);
    cured_model_memory *mem = cured_model_memory_new();
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", 64 * sizeof(float), 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", sizeof(float), 1);
    for (int i = 0; i < 64; i++) {
        float x = (float)(i + 1);
        memcpy(in->data + 4 * i, &x, 4);
    }
    uint64_t params[2] = {in->addr, out->addr};
    cured_model_observer obs = cured_model_trace_observer(r.t);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = r.m;
    l.function = fn;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){64, 1, 1};
    l.dynamic_shared_bytes = dynamic_shared;
    l.params = params;
    l.params_size = sizeof params;
    l.memory = mem;
    l.observers = &obs;
    l.nobservers = 1;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&l, &res), 0);
    assert_int_equal(res.findings.count, 0);
    assert_true(res.completed);
    memcpy(&r.out, out->data, 4);
    cured_model_findings_clear(&res.findings);
    cured_model_memory_free(mem);
    return r;
}

static void done(traced *r)
{
    cured_model_trace_free(r->t);
    cured_model_module_free(r->m);
}

static float as_float(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* The lane record of `lane` in op k, or NULL. */
static const cured_model_trace_lane *lane_of(const cured_model_trace *t, uint32_t k,
                                             uint32_t lane)
{
    const cured_model_trace_op *ops;
    const cured_model_trace_lane *lanes;
    cured_model_trace_ops(t, &ops);
    cured_model_trace_lanes(t, &lanes);
    for (uint32_t i = 0; i < ops[k].nlane; i++)
        if (lanes[ops[k].first_lane + i].lane == lane)
            return &lanes[ops[k].first_lane + i];
    return NULL;
}

/* The first op of step s of kind/space in warp w, or UINT32_MAX. */
static uint32_t find_op(const cured_model_trace *t, uint32_t s, uint8_t kind, uint8_t space,
                        uint32_t warp)
{
    const cured_model_trace_step *steps;
    const cured_model_trace_op *ops;
    cured_model_trace_steps(t, &steps);
    cured_model_trace_ops(t, &ops);
    for (uint32_t i = steps[s].first_op; i < steps[s].first_op + steps[s].nops; i++)
        if (ops[i].kind == kind && ops[i].space == space && ops[i].warp == warp)
            return i;
    return UINT32_MAX;
}

/* ------------------------------------------------------------ the tests */

/* Divergent: the load, six tree steps, the write; the values as added. */
static void test_divergent_steps(void **state)
{
    (void)state;
    traced r = run("seed_divergent", 256, 0);
    assert_true(r.out == 2080.0f);
    assert_true(cured_model_trace_complete(r.t));
    const cured_model_trace_step *steps;
    const cured_model_trace_op *ops;
    uint32_t n = cured_model_trace_steps(r.t, &steps);
    cured_model_trace_ops(r.t, &ops);
    assert_int_equal(n, 8);
    assert_int_equal(steps[0].end, CURED_MODEL_TRACE_END_INITIAL);
    assert_int_equal(steps[0].tree_step, -1);
    assert_int_equal(steps[0].accesses, 0);
    uint32_t initial = 0;
    for (uint32_t i = steps[0].first_op; i < steps[0].first_op + steps[0].nops; i++)
        initial += ops[i].initial;
    assert_int_equal(initial, 64);
    static const uint64_t accesses[6] = {96, 48, 24, 12, 6, 3};
    for (uint32_t s = 1; s <= 6; s++) {
        assert_int_equal(steps[s].tree_step, (int)s - 1);
        assert_int_equal(steps[s].end, CURED_MODEL_TRACE_END_BARRIER);
        assert_int_equal(steps[s].accesses, accesses[s - 1]);
        assert_int_equal(steps[s].interval, s);
    }
    /* step 1: warp 0's even lanes store x[t] = in[t] + in[t + 1] */
    uint32_t st = find_op(r.t, 1, CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_SHARED, 0);
    assert_true(st != UINT32_MAX);
    assert_int_equal(ops[st].lanes, 0x55555555u);
    assert_int_equal(ops[st].active, 0x55555555u);
    assert_int_equal(ops[st].live, 0xffffffffu);
    assert_int_equal(ops[st].counted, 16);
    const cured_model_trace_lane *l0 = lane_of(r.t, st, 0), *l2 = lane_of(r.t, st, 2);
    assert_non_null(l0);
    assert_int_equal(l0->addr, 0);
    assert_true(as_float(l0->before) == 1.0f);   /* memory before the store */
    assert_true(as_float(l0->after) == 3.0f);    /* and after: 1 + 2 */
    assert_int_equal(l2->addr, 8);
    assert_true(as_float(l2->after) == 7.0f);    /* 3 + 4 */
    assert_int_equal(ops[st].value, CURED_MODEL_TRACE_FLOAT);
    assert_int_equal(ops[st].elem_size, 4);
    assert_true(ops[st].line > 0);
    /* the last step: thread 0 writes the sum; its read of x[0] is taken back */
    uint32_t gs = find_op(r.t, 7, CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_GLOBAL, 0);
    assert_true(gs != UINT32_MAX);
    assert_int_equal(ops[gs].lanes, 1);
    assert_int_equal(ops[gs].final_reads, 1);
    assert_true(as_float(lane_of(r.t, gs, 0)->after) == 2080.0f);
    assert_int_equal(steps[7].accesses, 0);
    assert_int_equal(steps[7].end, CURED_MODEL_TRACE_END_NONE);
    done(&r);
}

/* Every step's counted accesses add up to the step view's, and the view
 * inside the trace gives the lesson's row. */
static void test_counts_add_up(void **state)
{
    (void)state;
    static const struct {
        const char *kernel;
        uint32_t shared;
        const char *row;
    } k[4] = {
        {"seed_divergent", 256, "| v | 189 | 6 | 1-way | 2 of 2 |"},
        {"seed_strided", 256, "| v | 189 | 6 | 2-way | 0 of 1 |"},
        {"seed_sequential", 256, "| v | 189 | 6 | 1-way | 0 of 1 |"},
        {"seed_shuffle", 0, "| v | 4 | 1 | - | none |"},
    };
    for (int i = 0; i < 4; i++) {
        traced r = run(k[i].kernel, k[i].shared, 0);
        const cured_model_step_view *v = cured_model_trace_step_view(r.t);
        cured_model_step_summary s = cured_model_step_view_summary(v);
        char row[128];
        cured_model_step_view_format_row(row, sizeof row, "v", &s);
        assert_string_equal(row, k[i].row);
        const cured_model_trace_step *steps;
        uint32_t n = cured_model_trace_steps(r.t, &steps);
        uint64_t sum = 0, syncs = 0;
        for (uint32_t j = 0; j < n; j++) {
            sum += steps[j].accesses;
            syncs += steps[j].end == CURED_MODEL_TRACE_END_BARRIER;
        }
        assert_int_equal(sum, s.accesses);
        assert_int_equal(syncs, s.barriers);
        done(&r);
    }
}

/* Shuffle: one step per round; lane 0 reads lane 16, lane 20 reads past
 * the end and gets its own value; the sums as the adds made them. */
static void test_shuffle_rounds(void **state)
{
    (void)state;
    traced r = run("seed_shuffle", 0, 0);
    assert_true(r.out == 2080.0f);
    const cured_model_trace_step *steps;
    const cured_model_trace_op *ops;
    uint32_t n = cured_model_trace_steps(r.t, &steps);
    cured_model_trace_ops(r.t, &ops);
    assert_true(n >= 8);
    /* interval 0: loads, rounds 1..5, the warp sums stored (the tail) */
    for (uint32_t s = 0; s <= 6; s++) {
        assert_int_equal(steps[s].interval, 0);
        assert_int_equal(steps[s].round, s);
    }
    assert_int_equal(steps[6].end, CURED_MODEL_TRACE_END_BARRIER);
    assert_int_equal(steps[7].interval, 1);
    assert_true(find_op(r.t, 0, CURED_MODEL_TRACE_LOAD, CURED_MODEL_TRACE_GLOBAL, 0) !=
                UINT32_MAX);
    static const uint32_t offset[5] = {16, 8, 4, 2, 1};
    for (uint32_t s = 1; s <= 5; s++) {
        for (uint32_t w = 0; w < 2; w++) {
            uint32_t k = find_op(r.t, s, CURED_MODEL_TRACE_SHUFFLE,
                                 CURED_MODEL_TRACE_NO_SPACE, w);
            assert_true(k != UINT32_MAX);
            assert_int_equal(ops[k].lanes, 0xffffffffu);
            assert_int_equal(ops[k].value, CURED_MODEL_TRACE_FLOAT);
            const cured_model_trace_lane *l0 = lane_of(r.t, k, 0);
            const cured_model_trace_lane *last = lane_of(r.t, k, 31);
            assert_int_equal(l0->addr, offset[s - 1]);
            assert_true(l0->flags & CURED_MODEL_TRACE_IN_RANGE);
            assert_true(l0->flags & CURED_MODEL_TRACE_HAS_SUM);
            assert_int_equal(last->addr, 31);
            assert_false(last->flags & CURED_MODEL_TRACE_IN_RANGE);
            assert_int_equal(last->after, last->before);
            assert_true(as_float(l0->sum) == as_float(l0->before) + as_float(l0->after));
        }
    }
    uint32_t k = find_op(r.t, 1, CURED_MODEL_TRACE_SHUFFLE, CURED_MODEL_TRACE_NO_SPACE, 0);
    assert_true(as_float(lane_of(r.t, k, 0)->before) == 1.0f);
    assert_true(as_float(lane_of(r.t, k, 0)->after) == 17.0f);
    assert_true(as_float(lane_of(r.t, k, 0)->sum) == 18.0f);
    assert_false(lane_of(r.t, k, 20)->flags & CURED_MODEL_TRACE_IN_RANGE);
    assert_true(as_float(lane_of(r.t, k, 20)->after) == 21.0f);
    /* the tail: lane 0 of each warp stores its warp's sum (1+..+32, 33+..+64) */
    uint32_t t0 = find_op(r.t, 6, CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_SHARED, 0);
    uint32_t t1 = find_op(r.t, 6, CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_SHARED, 1);
    assert_int_equal(ops[t0].lanes, 1);
    assert_true(as_float(lane_of(r.t, t0, 0)->after) == 528.0f);
    assert_true(as_float(lane_of(r.t, t1, 0)->after) == 1552.0f);
    done(&r);
}

/* Past its limits the trace stops recording and says so. */
static void test_limits(void **state)
{
    (void)state;
    traced r = run("seed_sequential", 256, 50);
    assert_false(cured_model_trace_complete(r.t));
    const cured_model_trace_op *ops;
    assert_true(cured_model_trace_ops(r.t, &ops) <= 50);
    done(&r);
}

/* An observer of instr_done alone: called after each instruction took
 * effect, never for control flow; stores are in memory by then. */
typedef struct done_count {
    uint64_t instr, done, bar;
    int stored_seen;
} done_count;

static void count_instr(void *ctx, const cured_model_event *e)
{
    done_count *c = ctx;
    c->instr++;
    c->bar += e->ins->op == PTX_OP_BAR || e->ins->op == PTX_OP_BRA ||
              e->ins->op == PTX_OP_RET || e->ins->op == PTX_OP_EXIT;
}

static void count_done(void *ctx, const cured_model_event *e)
{
    done_count *c = ctx;
    c->done++;
    /* sequential's first step: thread 0 stores x[0] = 1 + 33 */
    if (e->ins->op == PTX_OP_ST && e->ins->space == PTX_S_SHARED && e->warp == 0 &&
        (e->guard_true & 1) && e->shared != NULL && !c->stored_seen) {
        float v;
        memcpy(&v, e->shared, 4);
        if (v == 34.0f)
            c->stored_seen = 1;
    }
}

static void test_instr_done(void **state)
{
    (void)state;
    cured_model_module *m = test_parse_ptx_file(SEED_FIXTURES, "seed_kernels.ptx");
    int fn = cured_model_find_function(m, "seed_sequential");
    cured_model_memory *mem = cured_model_memory_new();
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", 256, 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", 4, 1);
    for (int i = 0; i < 64; i++) {
        float x = (float)(i + 1);
        memcpy(in->data + 4 * i, &x, 4);
    }
    uint64_t params[2] = {in->addr, out->addr};
    done_count c;
    memset(&c, 0, sizeof c);
    cured_model_observer obs;
    memset(&obs, 0, sizeof obs);
    obs.ctx = &c;
    obs.instr = count_instr;
    obs.instr_done = count_done;
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = m;
    l.function = fn;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){64, 1, 1};
    l.dynamic_shared_bytes = 256;
    l.params = params;
    l.params_size = sizeof params;
    l.memory = mem;
    l.observers = &obs;
    l.nobservers = 1;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&l, &res), 0);
    assert_int_equal(c.instr, res.warp_instructions);
    assert_int_equal(c.done, c.instr - c.bar);
    assert_true(c.stored_seen);
    cured_model_findings_clear(&res.findings);
    cured_model_memory_free(mem);
    cured_model_module_free(m);
}

/* The formulas, against float64 computed here; the step view's measure. */
static void test_tree_maths(void **state)
{
    (void)state;
    cured_model_tree_formula f = cured_model_tree_formula_of(64);
    assert_int_equal(f.depth, 6);
    assert_int_equal(f.additions, 63);
    assert_true(fabsl((long double)f.busy - 63.0L / 64.0L / 6.0L) < 1e-15);
    f = cured_model_tree_formula_of(1000);
    assert_int_equal(f.depth, 10);
    assert_int_equal(f.additions, 999);
    assert_true(fabsl((long double)f.busy - (1.0L - 1.0L / 1000) / log2l(1000.0L)) < 1e-15);
    f = cured_model_tree_formula_of(1);
    assert_int_equal(f.depth, 0);
    assert_int_equal(f.additions, 0);
    assert_true(cured_model_tree_level_busy(64, 1, 64) == 0.5);
    assert_true(cured_model_tree_level_busy(64, 6, 64) == 1.0 / 64);
    assert_true(cured_model_tree_level_busy(64, 7, 64) == 0.0);
    for (int i = 0; i < 3; i++) {
        const char *kernel[3] = {"seed_divergent", "seed_strided", "seed_sequential"};
        traced r = run(kernel[i], 256, 0);
        cured_model_step_maths m =
            cured_model_step_view_maths(cured_model_trace_step_view(r.t), 64);
        assert_int_equal(m.n, 64);
        assert_int_equal(m.depth, 6);
        assert_int_equal(m.additions, 63);
        assert_true(fabs(m.busy - 63.0 / (6.0 * 64)) < 1e-15);
        assert_int_equal(m.formula.depth, 6);
        done(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergent_steps),
        cmocka_unit_test(test_counts_add_up),
        cmocka_unit_test(test_shuffle_rounds),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_instr_done),
        cmocka_unit_test(test_tree_maths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
