/* sass_summary.c - what the matcher reports: the notes it leaves on
 * instructions it could not decide, and the summary of one match
 * (sass_match.h).
 *
 * defines: cured_model_sass_summary_free, cured_model_sass_mode_name,
 *          match_note
 */
#include "sass_match_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cured_model_sass_mode_name(cured_model_sass_mode mode)
{
    switch (mode) {
    case CURED_MODEL_SASS_BY_PTX_LINE: return "PTX lines";
    case CURED_MODEL_SASS_BY_SOURCE_LINE: return "source lines";
    default: return "none";
    }
}

void cured_model_sass_summary_free(cured_model_sass_summary *s)
{
    free(s->notes);
    memset(s, 0, sizeof *s);
}

void match_note(match_state *st, int pc, const char *fmt, ...)
{
    cured_model_sass_summary *out = st->out;
    if (out->nnotes == CURED_MODEL_SASS_MAX_NOTES) {
        out->notes_left_out++;
        return;
    }
    if (out->notes == NULL) {
        out->notes = calloc(CURED_MODEL_SASS_MAX_NOTES, sizeof *out->notes);
        if (out->notes == NULL) {
            out->notes_left_out++;
            return;
        }
    }
    cured_model_sass_note *n = &out->notes[out->nnotes++];
    n->function = st->function;
    n->pc = pc;
    n->ptx_line = pc >= 0 ? st->fn->code[pc].ptx_line : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
}
