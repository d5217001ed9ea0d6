/* model_progress.c - progress on stderr while the model runs a long launch.
 *
 * defines: cli_progress_init, cli_progress_observer, cli_progress_end
 *
 * The interpreter runs some 10^6 to 10^7 warp instructions a second, so a
 * launch over 2^30 values takes minutes with nothing to show for it. An
 * observer sees every warp instruction; to keep that cheap it only counts,
 * and reads the clock once every 2^14 of them (a few hundred times a
 * second). The time left is the time so far scaled by the blocks still to
 * run in the launch, which is right for the catalogue's equal blocks and a
 * guess elsewhere.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK_EVERY ((uint64_t)1 << 14)

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "12 s", "3 min 5 s", "2 h 10 min". */
static void duration_text(double s, char *out, size_t cap)
{
    unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);
    if (t < 60)
        snprintf(out, cap, "%lu s", t);
    else if (t < 3600)
        snprintf(out, cap, "%lu min %lu s", t / 60, t % 60);
    else
        snprintf(out, cap, "%lu h %lu min", t / 3600, t / 60 % 60);
}

/* 3100000000 as "3.1 G", 52000 as "52 k". */
static void count_text(uint64_t n, char *out, size_t cap)
{
    if (n >= 1000000000ull)
        snprintf(out, cap, "%.1f G", (double)n / 1e9);
    else if (n >= 1000000ull)
        snprintf(out, cap, "%.1f M", (double)n / 1e6);
    else if (n >= 1000ull)
        snprintf(out, cap, "%.0f k", (double)n / 1e3);
    else
        snprintf(out, cap, "%llu", (unsigned long long)n);
}

/* Writes one progress line: on a terminal over the last one (\r, blanks
 * past its end), elsewhere as a line of its own. */
static void emit(cli_progress *p, const char *text, int last)
{
    int len = (int)strlen(text);
    if (p->tty)
        fprintf(p->out, "\r%s%*s%s", text, p->width > len ? p->width - len : 0, "",
                last ? "\n" : "");
    else
        fprintf(p->out, "%s\n", text);
    p->width = len;
    p->printed++;
    fflush(p->out);
}

static void print_line(cli_progress *p, double t)
{
    char line[256], threads[32], elapsed[32], left[96] = "";
    count_text(p->thread_instructions, threads, sizeof threads);
    duration_text(t - p->start, elapsed, sizeof elapsed);
    double rest_s = p->block > 0 ? (t - p->launch_start) *
                                       (double)(p->blocks - p->block) / (double)p->block
                                 : 0;
    if (rest_s >= 1) {
        char rest[32];
        duration_text(rest_s, rest, sizeof rest);
        snprintf(left, sizeof left, ", about %s left%s", rest,
                 p->launch < p->launches ? " in this launch" : "");
    }
    char launch[32] = "";
    if (p->launches > 1)
        snprintf(launch, sizeof launch, "launch %d/%d, ", p->launch, p->launches);
    snprintf(line, sizeof line, "cured model: %sblock %llu/%llu, %s thread-instructions, "
             "%s%s", launch, (unsigned long long)p->block + 1,
             (unsigned long long)p->blocks, threads, elapsed, left);
    emit(p, line, 0);
}

/* The clock, every CHECK_EVERY warp instructions: a line when one is due. */
static void tick(cli_progress *p)
{
    double t = p->now();
    if (t < p->next)
        return;
    print_line(p, t);
    p->next = t + (p->tty ? PROGRESS_EVERY_TTY : PROGRESS_EVERY_LOG);
}

static void on_launch(void *ctx, const struct cured_model_launch *l)
{
    cli_progress *p = ctx;
    p->launch++;
    p->launch_start = p->now();
    p->blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    p->block = 0;
}

static void on_block(void *ctx, uint32_t block, uint32_t threads)
{
    cli_progress *p = ctx;
    (void)threads;
    p->block = block;
    p->blocks_run++;
}

static void on_instr(void *ctx, const cured_model_event *e)
{
    cli_progress *p = ctx;
    p->thread_instructions += (uint64_t)__builtin_popcount(e->active);
    if ((++p->warp_instructions & (CHECK_EVERY - 1)) == 0)
        tick(p);
}

void cli_progress_init(cli_progress *p, FILE *out, int launches, double (*now)(void))
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = isatty(fileno(out));
    p->now = now != NULL ? now : monotonic_seconds;
    p->launches = launches;
    p->start = p->launch_start = p->now();
    p->next = p->start + PROGRESS_FIRST;
}

cured_model_observer cli_progress_observer(cli_progress *p)
{
    cured_model_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = p;
    o.launch_begin = on_launch;
    o.block_begin = on_block;
    o.instr = on_instr;
    return o;
}

void cli_progress_end(cli_progress *p)
{
    if (p->printed == 0)
        return;
    char line[256], threads[32], elapsed[32];
    count_text(p->thread_instructions, threads, sizeof threads);
    duration_text(p->now() - p->start, elapsed, sizeof elapsed);
    snprintf(line, sizeof line, "cured model: done in %s: %llu block%s, %s "
             "thread-instructions", elapsed, (unsigned long long)p->blocks_run,
             p->blocks_run == 1 ? "" : "s", threads);
    emit(p, line, 1);
}
