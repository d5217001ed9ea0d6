/* bench_test.h - what the bench's unit tests share: cmocka, and a double
 * comparison with a message (cmocka 1.1 compares only floats).
 *
 * defines: assert_near
 */
#ifndef CURED_BENCH_TEST_H
#define CURED_BENCH_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

/* Fails unless |a - b| <= eps (so NaN always fails), printing both. */
#define assert_near(a, b, eps)                                                 \
    do {                                                                       \
        double a_ = (a), b_ = (b);                                             \
        if (!(fabs(a_ - b_) <= (eps)))                                         \
            fail_msg("%s = %.17g, expected %.17g (within %g)", #a, a_, b_,     \
                     (double)(eps));                                           \
    } while (0)

#endif /* CURED_BENCH_TEST_H */
