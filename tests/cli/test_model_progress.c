/* test_model_progress.c - `cured model`'s progress lines (src/cli/model_progress.c),
 * driven by hand: a clock the test sets and events the test makes.
 *
 * Nothing for a short run; after PROGRESS_FIRST seconds a line, then one
 * per PROGRESS_EVERY_*; on a terminal one line rewritten with \r, else
 * plain lines; the clock read only every 2^14 warp instructions.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_progress.h"

static double clock_now;   /* the test's clock, in seconds */
static int clock_reads;

static double fake_now(void)
{
    clock_reads++;
    return clock_now;
}

/* What p wrote to its file so far. */
static const char *written(cli_progress *p)
{
    static char text[4096];
    fflush(p->out);
    long len = ftell(p->out);
    rewind(p->out);
    size_t got = fread(text, 1, len > 0 ? (size_t)len : 0, p->out);
    text[got] = '\0';
    return text;
}

/* Issues n warp instructions of 32 active lanes in block `block`. */
static void run(cured_model_observer *o, uint64_t n)
{
    cured_model_event e;
    memset(&e, 0, sizeof e);
    e.active = 0xffffffffu;
    for (uint64_t i = 0; i < n; i++)
        o->instr(o->ctx, &e);
}

static void start(cli_progress *p, cured_model_observer *o, int tty, int launches,
                  uint32_t grid)
{
    clock_now = 100;
    clock_reads = 0;
    cli_progress_init(p, tmpfile(), launches, fake_now);
    assert_non_null(p->out);
    p->tty = tty;
    *o = cli_progress_observer(p);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.grid = (cured_model_dim3){grid, 1, 1};
    o->launch_begin(o->ctx, &l);
}

/* A run shorter than PROGRESS_FIRST prints nothing, even at its end; the
 * clock is read once per 2^14 warp instructions, not per instruction. */
static void test_short_run_is_silent(void **state)
{
    (void)state;
    cli_progress p;
    cured_model_observer o;
    start(&p, &o, 0, 1, 4);
    int reads = clock_reads;
    o.block_begin(o.ctx, 0, 256);
    run(&o, 5 * 16384);
    assert_int_equal(clock_reads - reads, 5);
    clock_now += PROGRESS_FIRST - 0.5;
    run(&o, 16384);
    cli_progress_end(&p);
    assert_string_equal(written(&p), "");
    assert_int_equal(p.warp_instructions, 6 * 16384);
    assert_int_equal(p.thread_instructions, 6 * 16384 * 32);
    fclose(p.out);
}

/* Not a terminal: plain lines, the first after PROGRESS_FIRST seconds, the
 * next PROGRESS_EVERY_LOG later, with the time left from the blocks done;
 * then the totals. */
static void test_lines_to_a_log(void **state)
{
    (void)state;
    cli_progress p;
    cured_model_observer o;
    start(&p, &o, 0, 1, 16384);
    o.block_begin(o.ctx, 4096, 256);        /* a quarter of the blocks done */
    clock_now += 12;
    run(&o, 16384);                         /* one clock read: a line */
    clock_now += PROGRESS_EVERY_LOG - 1;
    run(&o, 16384);                         /* not due yet */
    o.block_begin(o.ctx, 8192, 256);
    clock_now += 1;
    run(&o, 16384);                         /* due */
    cli_progress_end(&p);
    assert_string_equal(written(&p),
        "cured model: block 4097/16384, 524 k thread-instructions, 12 s, about 36 s left\n"
        "cured model: block 8193/16384, 1.6 M thread-instructions, 17 s, about 17 s left\n"
        "cured model: done in 17 s: 2 blocks, 1.6 M thread-instructions\n");
    fclose(p.out);
}

/* A terminal: one line rewritten with \r (blanks over a longer one), every
 * PROGRESS_EVERY_TTY; the launch shown when there are several; the totals
 * end the line. */
static void test_terminal_line(void **state)
{
    (void)state;
    cli_progress p;
    cured_model_observer o;
    start(&p, &o, 1, 3, 2);
    o.block_begin(o.ctx, 1, 256);
    clock_now += 3600 + 125;
    run(&o, 16384);
    clock_now += PROGRESS_EVERY_TTY;
    run(&o, 16384);
    cli_progress_end(&p);
    const char *second = "cured model: launch 1/3, block 2/2, 1.0 M thread-instructions, "
                         "1 h 2 min, about 1 h 2 min left in this launch";
    const char *done = "cured model: done in 1 h 2 min: 1 block, 1.0 M thread-instructions";
    char want[1024];
    snprintf(want, sizeof want,
             "\rcured model: launch 1/3, block 2/2, 524 k thread-instructions, 1 h 2 min, "
             "about 1 h 2 min left in this launch\r%s\r%s%*s\n", second, done,
             (int)(strlen(second) - strlen(done)), "");
    assert_string_equal(written(&p), want);
    fclose(p.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_run_is_silent),
        cmocka_unit_test(test_lines_to_a_log),
        cmocka_unit_test(test_terminal_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
