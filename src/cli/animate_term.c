/* animate_term.c - plays a story in the terminal: frame after frame at a
 * speed, or one frame per key in raw mode (space or enter: next, b: back,
 * q: quit), and plain frames one after another when stdout is not a
 * terminal.
 *
 * defines: cli_animate_play
 *
 * Raw mode changes the terminal for the whole process, so the saved
 * settings live in this file's one static, where the signal handlers can
 * reach them: restored on every way out (the end, q, end of input, and
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, which are then raised again with their
 * default action).
 */
#define _POSIX_C_SOURCE 200809L
#include "animate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define STEP_SECONDS 1.3    /* one step at speed 1, as the lesson's page */

/* The terminal as it was before raw mode (the signal handlers' view). */
static struct {
    struct termios saved;
    volatile sig_atomic_t raw;
} term;

static void restore_terminal(void)
{
    if (term.raw) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &term.saved);
        term.raw = 0;
    }
}

static void on_signal(int sig)
{
    restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGNALS ((int)(sizeof signals / sizeof signals[0]))

/* Raw mode on stdin (no echo, a key at a time), with the handlers that
 * undo it. Returns 0, or -1 when stdin is not a terminal. */
static int enter_raw(struct sigaction *old)
{
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &term.saved) != 0)
        return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSIGNALS; i++)
        sigaction(signals[i], &sa, &old[i]);
    struct termios raw = term.saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0)
        return -1;
    term.raw = 1;
    return 0;
}

static void leave_raw(const struct sigaction *old)
{
    restore_terminal();
    for (int i = 0; i < NSIGNALS; i++)
        sigaction(signals[i], &old[i], NULL);
}

/* The next command from stdin: 'n' next, 'b' back, 'q' quit (end of input
 * too). Arrow keys: right next, left back. */
static int read_key(void)
{
    for (;;) {
        unsigned char c;
        ssize_t got = read(STDIN_FILENO, &c, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 'q';
        switch (c) {
        case ' ': case '\n': case '\r': case 'n': case 'j': return 'n';
        case 'b': case 'p': case 'k': case 127: return 'b';
        case 'q': case 'Q': case 3: case 4: return 'q';
        case 0x1b: {                       /* ESC [ C / ESC [ D */
            unsigned char seq[2];
            if (read(STDIN_FILENO, seq, 2) == 2 && seq[0] == '[') {
                if (seq[1] == 'C')
                    return 'n';
                if (seq[1] == 'D')
                    return 'b';
            }
            return 'q';
        }
        default: break;
        }
    }
}

static void pause_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Shows frame k: on a live terminal over the last one, else after it. */
static int show(const viz_story *s, int k, const viz_term_options *o, int live, int first)
{
    if (live)
        fputs("\x1b[H\x1b[2J", stdout);
    else if (!first)
        fputc('\n', stdout);
    if (viz_term_frame(stdout, s, k, o) != 0)
        return -1;
    if (first || live)
        viz_term_legend(stdout, o);
    fflush(stdout);
    return ferror(stdout) ? -1 : 0;
}

int cli_animate_play(const cli_animate_options *o, const viz_story *s)
{
    int tty = isatty(STDOUT_FILENO);
    viz_term_options vo = {.color = o->color && tty, .width = 120};
    struct winsize ws;
    if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 40)
        vo.width = ws.ws_col < 120 ? ws.ws_col : 120;
    /* frames replace each other only where escape codes are allowed */
    int live = tty && o->color;
    int frames = viz_story_frames(s), rc = 0;
    if (o->step) {
        struct sigaction old[NSIGNALS];
        int raw = enter_raw(old) == 0;
        int k = 0, first = 1;
        for (;;) {
            if (show(s, k, &vo, live, first) != 0) {
                rc = 1;
                break;
            }
            first = 0;
            printf("[step %d/%d] space/enter: next, b: back, q: quit\n", k, frames - 1);
            fflush(stdout);
            int key = read_key();
            if (key == 'q')
                break;
            if (key == 'n') {
                if (k + 1 >= frames)
                    break;
                k++;
            } else if (key == 'b' && k > 0) {
                k--;
            }
        }
        if (raw)
            leave_raw(old);
        return rc;
    }
    for (int k = 0; k < frames; k++) {
        if (show(s, k, &vo, live, k == 0) != 0)
            return 1;
        if (tty && k + 1 < frames)
            pause_seconds(STEP_SECONDS / o->speed);
    }
    return 0;
}
