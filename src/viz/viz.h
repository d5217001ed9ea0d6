/* viz.h - the renderers of `cured animate`: a traced launch as the steps a
 * reader sees (a story), drawn as terminal frames or as one self-contained
 * HTML page. Built on the model's public API only (include/cured_model.h:
 * the trace and the step view).
 *
 * defines: viz_story, viz_story_info, viz_story_build, viz_story_free,
 *          viz_story_frames, viz_story_title, viz_story_id, viz_story_final,
 *          viz_final, viz_term_options, viz_term_frame, viz_term_legend,
 *          viz_term_width, viz_html_write
 *
 * The story is made of block 0's steps (cured_model_trace_step): frame 0
 * is the block before it starts, frame k the state after step k. Every
 * value, role, arrow and count in it is read from the trace; the captions
 * put them into words. Nothing here knows a kernel by name.
 */
#ifndef CURED_VIZ_H
#define CURED_VIZ_H

#include "cured_model.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct viz_story viz_story;

/* What the caller says about the run (copied). */
typedef struct viz_story_info {
    const char *id;          /* a short key: "divergent", "yours" */
    const char *label;       /* what a reader calls it: "strided index" */
    const char *code;        /* the kernel's idea in a few words
                                ("i = 2*s*tid"), or NULL */
    const char *group;       /* the page's selector group: "lesson",
                                "catalogue", "yours" */
    const char *dtype;       /* "u32", "f32" ... for the header; NULL: what
                                the kernel's stores hold */
} viz_story_info;

/* Builds the story of the launch `trace` recorded (block 0 of it), naming
 * global cells by the buffers of `memory` (may be NULL: addresses).
 * Returns 0 and a new story in *out, or -1 with one line in err: the trace
 * is incomplete, has no step, or touches more cells than can be drawn
 * (4096 of one kind), out of host memory. */
int viz_story_build(const cured_model_trace *trace, const cured_model_memory *memory,
                    const viz_story_info *info, viz_story **out, char *err,
                    size_t cap);

/* Frees a story. NULL is fine. */
void viz_story_free(viz_story *s);

/* Frames: 1 + the block's steps. */
int viz_story_frames(const viz_story *s);

/* "divergent: 64 values (u32), one block of 64 threads (2 warps)". */
const char *viz_story_title(const viz_story *s);

/* The id the caller gave (viz_story_info.id). */
const char *viz_story_id(const viz_story *s);

/* The counts at the last frame: the lesson table's row. */
typedef struct viz_final {
    uint64_t accesses;       /* shared accesses counted by the lesson's rules */
    uint32_t syncs;          /* __syncthreads() counted */
    uint32_t worst_degree;   /* worst bank conflict over tree steps, 0: none */
    int has_first_step;
    uint32_t first_divergent, first_warps;
    uint32_t shuffles_per_warp;
    uint64_t additions;      /* additions drawn */
    uint32_t depth;          /* the longest chain of additions */
    uint64_t n;              /* values that entered the reduction */
} viz_final;

/* The counts at the last frame. Can't fail. */
viz_final viz_story_final(const viz_story *s);

/* ------------------------------------------------------------ terminal */

typedef struct viz_term_options {
    int color;               /* ANSI colours (else plain text, no escape) */
    int width;               /* columns to fit (at most 120 are used) */
} viz_term_options;

/* Prints frame k of s: header, cell rows (values and bars, or bars alone
 * when the block is large), the pairs added, the caption, the counters,
 * the executing source line and the maths. Returns 0, or -1 on a write
 * error. */
int viz_term_frame(FILE *out, const viz_story *s, int k, const viz_term_options *o);

/* Prints what the marks and colours mean (one or two lines). */
int viz_term_legend(FILE *out, const viz_term_options *o);

/* The display width of the UTF-8 text s up to its newline (escape
 * sequences count nothing). Can't fail. */
int viz_term_width(const char *s);

/* ---------------------------------------------------------------- HTML */

/* Writes one self-contained page (inline SVG, CSS and script; no network,
 * no external file) showing stories[0 .. count), opening on
 * stories[initial]. Returns 0, or -1 with one line in err (a write error,
 * out of host memory). */
int viz_html_write(FILE *out, viz_story *const *stories, int count, int initial,
                   char *err, size_t cap);

#endif /* CURED_VIZ_H */
