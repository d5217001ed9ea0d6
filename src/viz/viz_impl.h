/* viz_impl.h - the story's insides, shared by the files of src/viz:
 * viz_cells.c (which cells, in which rows), viz_shuffle.c (which lanes of a
 * shuffle chain carry data and which results are used), viz_step.c (one
 * step's roles and arrows), viz_story.c (the frames), viz_caption.c (their words), viz_source.c (the CUDA source
 * lines), viz_term.c and viz_html.c (the drawings). Not an API.
 *
 * defines: the cell kinds, roles and arrow kinds; viz_row, viz_cell,
 *          viz_arrow, viz_line, viz_source, viz_facts, viz_frame,
 *          struct viz_story, viz_write, viz_build; viz_step_read,
 *          viz_step_conflict, viz_step_offset; viz_cells_build, viz_cell_shared,
 *          viz_cell_global, viz_cell_reg, viz_shuffle_useful,
 *          viz_caption, viz_set_text, viz_fit_index, viz_sources_build,
 *          viz_source_line,
 *          viz_value_of, viz_format_value, viz_buf (a growing text)
 */
#ifndef CURED_VIZ_IMPL_H
#define CURED_VIZ_IMPL_H

#include "viz.h"

#include <stddef.h>
#include <stdint.h>

#define VIZ_MAX_CELLS 4096     /* of one kind */
#define VIZ_NONE UINT32_MAX

/* What a cell holds. */
enum { VIZ_CELL_SHARED = 0, VIZ_CELL_REG, VIZ_CELL_GLOBAL };

/* A cell's role in a step: one character each, as the page's data has it. */
#define VIZ_ROLE_NONE '.'      /* nothing this step */
#define VIZ_ROLE_DST 'D'       /* receives a value (a sum, a copy) now */
#define VIZ_ROLE_SHARED 'S'    /* read from shared memory for another cell */
#define VIZ_ROLE_REG 'R'       /* a lane's register read by another lane */
#define VIZ_ROLE_MASKED 'M'    /* a lane of a working warp, masked off */
#define VIZ_ROLE_IDLE 'I'      /* a lane of a warp with nothing to do */
#define VIZ_ROLE_OWN 'O'       /* a shuffle source past the warp's end: the
                                  lane gets its own value back */

/* What an arrow stands for. */
enum { VIZ_ARROW_ADD_SHARED = 0, VIZ_ARROW_ADD_REG, VIZ_ARROW_COPY };

typedef struct viz_row {
    uint8_t kind;
    int32_t warp;            /* the warp whose lanes its cells stand for
                                (hatching), -1 when none */
    uint32_t first, count;   /* cells[first .. first + count) */
    char label[16];          /* "x[32]", "w1 v", "out" */
} viz_row;

typedef struct viz_cell {
    uint8_t kind;
    uint32_t row, col;
    uint64_t key;            /* shared: byte offset; global: address;
                                register: thread (warp * 32 + lane) */
    uint32_t index;          /* shared: element index from the first row's
                                start; global: index in its buffer */
    char name[32];           /* "x[5]", "w1 lane 3", "out[0]" */
} viz_cell;

typedef struct viz_arrow {
    uint32_t from, to;       /* cells */
    uint8_t kind;
} viz_arrow;

typedef struct viz_line {
    uint16_t source;         /* index in story->sources */
    uint32_t line;
} viz_line;

typedef struct viz_source {
    uint16_t file;           /* its .file index in the PTX */
    char name[64];           /* the file's last path component */
    uint32_t first;          /* line number of lines[0] */
    uint32_t count;
    char **lines;
} viz_source;

/* What happened in one step, for its caption. */
typedef struct viz_facts {
    uint32_t threads_global;  /* threads that read global memory */
    uint32_t global_loads;    /* values they read */
    uint32_t shared_loads, shared_stores, initial, final_reads;
    uint32_t global_stores;   /* values written to global memory */
    uint32_t atomics;
    /* adds in shared memory: thread, destination and source cells */
    uint32_t nadds;
    uint32_t *add_thread, *add_dst, *add_src;
    /* copies: thread, destination cell, source cell (VIZ_NONE: a register
     * with no cell of its own, or a value from global memory) */
    uint32_t ncopies;
    uint32_t *copy_thread, *copy_dst, *copy_src;
    uint32_t gathers;         /* writes of the sum of several elements read
                                 (thread 0 adding the warps' sums) */
    uint32_t gather_adds;     /* the additions they make */
    uint32_t reg_loads;       /* lanes that loaded into registers (round 0) */
    /* shuffles */
    uint32_t shuffle_ops;     /* warps that shuffled */
    char shuffle_mode;        /* 'd' down, 'u' up, 'x' xor, 'i' index, 0 */
    int32_t shuffle_delta;
    uint32_t shuffle_useful;  /* additions that count */
    uint32_t shuffle_useful_lanes; /* of the first warp: lanes that count */
    uint32_t shuffle_own_lanes;    /* of the first warp: own value back */
    /* warps */
    uint32_t warps_working, warps_divergent, warps_idle;
    int32_t tree_step;        /* the step view's, -1 */
    uint32_t degree;          /* its bank conflict degree */
    char conflict[200];       /* lanes that collide, as words */
    int end;                  /* cured_model_trace_end */
} viz_facts;

typedef struct viz_frame {
    uint32_t trace_step;      /* VIZ_NONE for frame 0 */
    uint32_t first_arrow, narrows;
    uint32_t first_line, nlines;
    char *caption;            /* malloc'd */
    /* counters after this step */
    uint64_t accesses;
    uint32_t syncs;
    uint32_t shuffles_per_warp;
    uint32_t step_degree;     /* tree steps: the bank degree, else 0 */
    uint32_t step_working, step_divergent;
    int is_tree;
    uint32_t worst_degree;    /* over tree steps so far */
    int has_first;
    uint32_t first_divergent, first_warps;
    /* maths */
    uint32_t adds;            /* additions drawn in this step */
    uint32_t level;           /* which level of adds (1-based), 0: none */
    uint32_t levels;          /* steps with additions so far */
    uint64_t total_adds;
    uint32_t depth;           /* longest chain of additions so far */
    int32_t offset;           /* the step's common add offset (words or
                                 lanes), 0 when none */
    int32_t coef;             /* a of the destinations x[a * tid + b], 0
                                 when they fit no such line */
    char conflict[200];
} viz_frame;

struct viz_story {
    char id[64], label[96], code[96], group[24], dtype[16];
    char title[256];
    uint8_t value_kind;       /* cured_model_trace_value of the cells */
    uint32_t threads, warps, blocks, block;
    uint64_t n;               /* values that entered the reduction */
    int has_regs;

    viz_row *rows;
    uint32_t nrows;
    viz_cell *cells;
    uint32_t ncells;
    uint32_t *shared_map;     /* (offset - shared_base) / shared_elem -> cell */
    uint64_t shared_base, shared_span;
    uint32_t shared_elem;

    viz_frame *frames;
    uint32_t nframes;
    double *values;           /* nframes * ncells */
    uint8_t *known;           /* nframes * ncells: value known */
    char *roles;              /* nframes * ncells */
    viz_arrow *arrows;
    uint32_t narrows, cap_arrows;
    viz_line *lines;
    uint32_t nlines, cap_lines;
    viz_source *sources;
    uint32_t nsources;
    double max_abs;           /* largest |value| of any cell in any frame */
    viz_final final;
};

/* --------------------------------------------------------- viz_cells.c */

/* Lays out the cells of block s->block's steps: register rows (one per
 * warp) when it shuffles, shared rows of 32 elements, global rows of the
 * elements written. Returns 0, or -1 with one line in err. */
int viz_cells_build(viz_story *s, const cured_model_trace *t,
                    const cured_model_memory *memory, char *err, size_t cap);

/* The cell of a shared byte offset / a global address / a thread's
 * register, or VIZ_NONE. */
uint32_t viz_cell_shared(const viz_story *s, uint64_t offset);
uint32_t viz_cell_global(const viz_story *s, uint64_t addr);
uint32_t viz_cell_reg(const viz_story *s, uint32_t thread);

/* ------------------------------------------------------- viz_shuffle.c */

/* For each shuffle op of block s->block, the lanes whose received value
 * is part of the reduction: useful[op] gets a lane mask (ops of other kinds
 * get 0). A lane counts when its result is used later (the lanes that
 * store after the warp's last shuffle of the interval, and every lane
 * feeding them, going back round by round) and the lane it reads holds
 * data (it loaded a value before the interval's first shuffle, or received
 * from one that did). Returns 0, or -1 when out of host memory. */
int viz_shuffle_useful(const viz_story *s, const cured_model_trace *t, uint32_t *useful);

/* ------------------------------------------------------- viz_caption.c */

/* The caption of frame k from its facts, malloc'd (NULL when out of
 * memory). */
char *viz_caption(const viz_story *s, uint32_t k, const viz_facts *f);

/* Fits the destination index of the step's shared additions to
 * a * tid + b. Returns 1 and sets *a, *b when every addition fits, else 0. */
int viz_fit_index(const viz_story *s, const viz_facts *f, int64_t *a, int64_t *b);

/* "0-15", "0, 4, 8, ..., 60", "3, 9" for the sorted values v[0 .. n). */
void viz_set_text(const uint32_t *v, uint32_t n, char *buf, size_t cap);

/* -------------------------------------------------------- viz_source.c */

/* Finds the source text of every file the block's visible ops name and
 * keeps an excerpt around the lines they run. Can't fail (a file it cannot
 * read or will not show, such as a CUDA toolkit header, is left out). */
void viz_sources_build(viz_story *s, const cured_model_trace *t);

/* The line to show for op: its innermost line when that file is shown,
 * else its site line; source VIZ_NONE-cast when neither is. */
viz_line viz_source_line(const viz_story *s, const cured_model_trace *t,
                         const cured_model_trace_op *op);

/* Frees the sources. */
void viz_sources_free(viz_story *s);

/* ---------------------------------------------------------- building */

#define VIZ_MAX_READS 8   /* shared elements remembered per thread per step */

/* One write of a step. */
typedef struct viz_write {
    uint32_t thread, cell;
    double value;
    int atomic;
} viz_write;

/* What building the frames needs besides the story. */
typedef struct viz_build {
    viz_story *s;
    const cured_model_trace *t;
    const cured_model_trace_step *steps;
    uint32_t nsteps;
    const cured_model_trace_op *ops;
    const cured_model_trace_lane *lanes;
    const cured_model_step *tree;      /* the step view's tree steps */
    int ntree;
    uint32_t *useful;                  /* per op (viz_shuffle.c) */
    uint32_t *depth;                   /* per cell */
    uint32_t *writer;                  /* per cell: the thread that wrote it
                                          last, VIZ_NONE */
    uint32_t *reads;                   /* per thread: VIZ_MAX_READS cells */
    uint8_t *nreads;                   /* per thread */
    uint8_t *wrote, *loaded;           /* per thread, this step */
    viz_write *writes;
    uint32_t nwrites, cap_writes;
    uint32_t *shfl_count;              /* per warp */
    uint32_t *working, *live;          /* per warp, this step */
    uint8_t *seen;
    /* facts arrays (threads * 4 each) */
    uint32_t *fa, *fb, *fc, *ga, *gb, *gc;
} viz_build;

/* ---------------------------------------------------------- viz_step.c */

/* Reads trace step si into the frame being built: the cells' new values
 * and known flags, their roles, the frame's arrows and lines, and f's
 * facts (f's arrays set up by the caller). Returns 0, or -1 when out of
 * host memory. */
int viz_step_read(viz_build *b, uint32_t si, viz_facts *f, double *values, uint8_t *known,
                  char *roles);

/* "lanes 0 and 16 of warp 0 write x[0] and x[32], both in bank 0": two
 * lanes of one counted shared store of step si that collide; "" when none
 * do. */
void viz_step_conflict(const viz_build *b, uint32_t si, char *out, size_t cap);

/* The common offset of the step's additions (source minus destination, in
 * elements or lanes), 0 when they differ. */
int32_t viz_step_offset(const viz_story *s, const viz_facts *f);

/* --------------------------------------------------------- viz_story.c */

/* A value's bits as a number (kind: cured_model_trace_value; size in
 * bytes). Can't fail. */
double viz_value_of(uint64_t bits, uint8_t kind, unsigned size);

/* Formats v for a cell: integers in full, floats with 4 significant
 * digits. Returns buf. */
const char *viz_format_value(double v, uint8_t kind, char *buf, size_t cap);

#endif /* CURED_VIZ_IMPL_H */
