/* The opcode table and per-architecture timings: what each kind of mnemonic becomes, the width
 * from the modifiers, the binary-version -> architecture map, and the latency / initiation
 * pairs of Accel-Sim's trace.config files (SM6_TITANX, SM7_QV100, SM75_RTX2060, SM80_A100,
 * SM86_RTX3070, SM90_H100, SM3_KEPLER_TITAN). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "workload/trace/opcodes.h"

static struct trace_op look(unsigned bv, const char *op) {
    const struct trace_arch *a = trace_arch_find(bv);
    assert_non_null(a);
    struct trace_op o;
    trace_op_lookup(a, op, strlen(op), &o);
    return o;
}

static void test_table_sorted_unique(void **state) {
    (void)state;
    unsigned n = trace_op_table_size();
    assert_true(n > 200);
    for (unsigned i = 1; i < n; i++)
        assert_true(strcmp(trace_op_table_name(i - 1), trace_op_table_name(i)) < 0);
    assert_null(trace_op_table_name(n));
    /* every entry is found by its own name */
    const struct trace_arch *a = trace_arch_find(70);
    for (unsigned i = 0; i < n; i++) {
        struct trace_op o;
        const char *nm = trace_op_table_name(i);
        assert_true(trace_op_lookup(a, nm, strlen(nm), &o));
    }
}

static void test_widths(void **state) {
    (void)state;
    static const struct {
        const char *op;
        unsigned w;
    } c[] = {{"LDG.E", 4},
             {"LDG.E.64", 8},
             {"LDG.E.128.CONSTANT.SYS", 16},
             {"LDG.E.U8", 1},
             {"LDG.E.S16", 2},
             {"LDS.U.128", 16},
             {"STG.E.EL.64", 8},
             {"ATOM.E.ADD.F32", 4},
             {"LDGSTS.E.BYPASS.LTC128B.128", 16},
             {"LD.E.256", 4},
             {"LDL", 4},
             {"STS.U8", 1}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        assert_int_equal(trace_op_width(c[i].op, strlen(c[i].op)), c[i].w);
}

static void test_kinds(void **state) {
    (void)state;
    struct trace_op o = look(70, "LDG.E.64.SYS");
    assert_int_equal(o.kind, TK_LOAD);
    assert_int_equal(o.space, TSP_GLOBAL);
    assert_int_equal(o.mop, MOP_LOAD);
    assert_int_equal(o.width, 8);
    assert_int_equal(o.cls, OP_INT); /* when its line has no addresses */
    o = look(70, "STS.128");
    assert_int_equal(o.kind, TK_STORE);
    assert_int_equal(o.space, TSP_SHARED);
    assert_int_equal(o.mop, MOP_STORE);
    o = look(70, "LDL.64");
    assert_int_equal(o.space, TSP_LOCAL);
    o = look(70, "ATOMS.ADD");
    assert_int_equal(o.kind, TK_ATOM);
    assert_int_equal(o.space, TSP_SHARED);
    assert_int_equal(o.mop, MOP_ATOMIC);
    o = look(70, "ATOMG.E.EXCH.STRONG.GPU");
    assert_int_equal(o.space, TSP_GLOBAL);
    o = look(70, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU");
    assert_int_equal(o.space, TSP_GENERIC);
    assert_int_equal(o.mop, MOP_ATOMIC);
    o = look(70, "LD.E.64");
    assert_int_equal(o.space, TSP_GENERIC);
    o = look(35, "LD.E.64"); /* Kepler: LD is a global load */
    assert_int_equal(o.space, TSP_GLOBAL);
    o = look(80, "LDC.64");
    assert_int_equal(o.kind, TK_CONST);
    assert_int_equal(o.space, TSP_CONST);
    assert_int_equal(o.cls, OP_INT);
    o = look(80, "BAR.SYNC.DEFER_BLOCKING");
    assert_int_equal(o.cls, OP_BAR);
    o = look(80, "BAR.ARV");
    assert_int_equal(o.cls, OP_INT);
    o = look(80, "EXIT");
    assert_int_equal(o.cls, OP_EXIT);
    o = look(80, "DFMA");
    assert_int_equal(o.cls, OP_DP);
    o = look(80, "HMMA.16816.F32");
    assert_int_equal(o.cls, OP_TENSOR);
    o = look(80, "BSSY");
    assert_int_equal(o.cls, OP_BRANCH);
    o = look(80, "WARPSYNC");
    assert_int_equal(o.cls, OP_BRANCH);
    o = look(80, "FFMA.FTZ");
    assert_int_equal(o.cls, OP_SP);
    o = look(80, "MUFU.RSQ");
    assert_int_equal(o.cls, OP_SFU);
    o = look(80, "TEX.B.LL");
    assert_int_equal(o.kind, TK_TEX);
    assert_int_equal(o.space, TSP_TEX);
    assert_int_equal(o.cls, OP_SFU); /* Volta+: the texture unit's timing */
    o = look(61, "TEX.B.LL");
    assert_int_equal(o.cls, OP_INT); /* Pascal: an ALU op */
    o = look(90, "FROB.X");
    assert_false(o.known);
    assert_int_equal(o.kind, TK_INT);
    assert_int_equal(o.cls, OP_INT);
    assert_int_equal(o.lat, 4);
}

/* The trace.config pairs, unit by unit. */
static void test_timings(void **state) {
    (void)state;
    static const struct {
        unsigned bv;
        const char *op;
        uint16_t lat, ii;
    } c[] = {
        /* SM6_TITANX: int 4,1 sp 4,1 dp 20,8 sfu 20,4; branches on the int pair */
        {61, "IADD", 4, 1},
        {61, "FFMA", 4, 1},
        {61, "DADD", 20, 8},
        {61, "MUFU.EX2", 20, 4},
        {61, "BRA", 4, 1},
        /* SM7_QV100: int 2,2 sp 2,2 dp 8,4 sfu 20,8 tensor 2,2 branch 4,4 tex 200,4 */
        {70, "IMAD", 2, 2},
        {70, "FADD", 2, 2},
        {70, "DMUL", 8, 4},
        {70, "MUFU.SIN", 20, 8},
        {70, "HMMA.884.F32.F32", 2, 2},
        {70, "BRA", 4, 4},
        {70, "TLD.LZ", 200, 4},
        /* SM75_RTX2060: dp 64,64 sfu 21,8 tensor 16,16, uniform datapath 4,1 */
        {75, "DFMA", 64, 64},
        {75, "MUFU.RCP", 21, 8},
        {75, "HMMA.1688.F32", 16, 16},
        {75, "UIADD3", 4, 1},
        /* SM80_A100: int 4,2 dp 6,4 sfu 23,8 tensor 12,8 */
        {80, "IADD3", 4, 2},
        {80, "DADD", 6, 4},
        {80, "MUFU.EX2", 23, 8},
        {80, "HMMA.16816.F32", 12, 8},
        /* SM86_RTX3070: dp 8,4 sfu 20,8 tensor 32,32 udp 4,2 */
        {86, "DADD", 8, 4},
        {86, "HMMA.16816.F32", 32, 32},
        {86, "ULDC.64", 4, 2},
        {89, "HMMA.16816.F32", 32, 32},
        /* SM90_H100: dp 8,2 sfu 23,8 tensor 1,(0 -> 1) */
        {90, "DFMA", 8, 2},
        {90, "MUFU.EX2", 23, 8},
        {90, "HGMMA.64x128x16.F32", 1, 1},
        /* SM3_KEPLER_TITAN: dp 20,2 sfu 200,2 */
        {35, "DFMA", 20, 2},
        {35, "MUFU.EX2", 200, 2},
        /* memory ops issue with the machine's timing when they have addresses (0 here is the
         * fallback pair for a line without addresses: int) */
        {70, "LDG.E", 2, 2},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct trace_op o = look(c[i].bv, c[i].op);
        if (o.lat != c[i].lat || o.ii != c[i].ii)
            fail_msg("sm_%u %s: %u,%u, expected %u,%u", c[i].bv, c[i].op, o.lat, o.ii, c[i].lat,
                     c[i].ii);
    }
}

static void test_arch_map(void **state) {
    (void)state;
    static const unsigned ok[] = {35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) assert_non_null(trace_arch_find(ok[i]));
    static const unsigned bad[] = {0, 20, 29, 40, 63, 71, 73, 81, 85, 91, 100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_null(trace_arch_find(bad[i]));
    assert_string_equal(trace_arch_name(trace_arch_find(70)), "Volta (sm_70/72, SM7_QV100)");
    assert_string_equal(trace_arch_name(trace_arch_find(61)), "Pascal (sm_5x/sm_6x, SM6_TITANX)");
    assert_true(trace_arch_find(60) == trace_arch_find(52));
    assert_true(trace_arch_find(80) != trace_arch_find(86));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sorted_unique),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_timings),
        cmocka_unit_test(test_arch_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
