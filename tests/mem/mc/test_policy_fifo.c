/* Tests of the FIFO scheduler (src/mem/mc/policy_fifo.c, GPGPU-Sim's in-order FCFS): requests are
 * handed to their banks strictly in arrival order, so a request whose bank is busy blocks every
 * younger one, even one to an idle bank; exact column-command cycles on DDR4-2400 against `fcfs`
 * (in order per bank only), and conservation of requests. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "mem/memsys.h"
#include "testutil.h"

#include "mc_harness.h"

/* DDR4-2400: tRCD 17, tRAS 39, tRP 17, tRRD_S 4, tCCD_S 4. Bank P = (bg 0, ba 0),
 * Y = (bg 1, ba 0), Z = (bg 1, ba 1). */
#define FIFO "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=fifo\n"

/* R0 opens P (ACT 0, RD 17); R1 wants another row of P, so it waits for R0 to leave, and R2 (to
 * idle Y) waits behind R1: Y is activated only after R0's column command, at 18, and read at 35.
 * R1: PRE at tRAS 39, ACT 56, RD 73. `fcfs` activates Y at tRRD_S = 4 and reads R2 at 21. */
static void test_head_of_line_blocking(void **state) {
    (void)state;
    struct run *x = start(FIFO);
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "fifo");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 1, 0, 3, 0), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 35, 73};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 18);
    finish(x, end);

    x = start("[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=fcfs\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 1, 0, 3, 0), false, 0);
    end = run_idle(x, 0);
    static const uint64_t fc[] = {17, 21, 73};
    EXPECT_SERVED(x, tags, fc);
    finish(x, end);
}

/* Requests to distinct banks ahead of any repeat are all dispatched at once: P, Y and Z open at
 * 0, 4 and 8 (tRRD_S). R0 is read at 17 and R1 at 21; the younger hit R3 of P is handed to P when
 * R0 leaves and is ready at 25 (tCCD_S after R1), before Z's R2 (tCCD_L = 6 after R1 in the same
 * group: 27), so it goes at 25 and R2 at 29. */
static void test_distinct_banks_in_parallel(void **state) {
    (void)state;
    struct run *x = start(FIFO);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 1, 0, 3, 0), false, 0);
    enq(x, 2, addr(x, 1, 1, 7, 0), false, 0);
    enq(x, 3, addr(x, 0, 0, 5, 1), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 3, 2}, cols[] = {17, 21, 25, 29};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_act, 3);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(FIFO, 71);
    conservation("[dram]\npreset=gddr6-rtx2060s\n[mc]\ncheck=true\npolicy=fifo\n", 22);
    conservation(FIFO "wq_hi=8\nwq_lo=2\nrq_size=8\nwq_size=8\n", 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_head_of_line_blocking),
        cmocka_unit_test(test_distinct_banks_in_parallel),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
