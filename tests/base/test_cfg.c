/* Config: typed keys with defaults and ranges, origins (file:line) in every message, unknown
 * keys with a suggestion, precedence default < preset < INI < --set. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "base/cfg.h"
#include "testutil.h"

struct obj {
    int64_t n;
    double x;
    bool b;
    int mode;
    char s[CFG_STR_MAX];
    int64_t preset_val;
};

static const char *const modes[] = {"open", "close", NULL};
static const struct cfg_key keys[] = {
    {"a.n", CFG_INT, offsetof(struct obj, n), "5", 1, 10, NULL, "", "an integer"},
    {"a.x", CFG_DOUBLE, offsetof(struct obj, x), "0.5", 0, 1, NULL, "", "a share"},
    {"a.b", CFG_BOOL, offsetof(struct obj, b), "false", 0, 0, NULL, "", "a flag"},
    {"a.mode", CFG_ENUM, offsetof(struct obj, mode), "open", 0, 0, modes, "", "a choice"},
    {"b.s", CFG_STRING, offsetof(struct obj, s), "hello", 0, 0, NULL, "", "a string"},
    {"b.p", CFG_INT, offsetof(struct obj, preset_val), NULL, 0, 100, NULL, "", "from preset"},
};

static int bind(const char *ini, struct obj *o, struct ws_err *e, struct cfg **out) {
    struct cfg *c = cfg_create();
    int rc = cfg_load_ini_string(c, "t.ini", ini, e);
    if (rc == 0) rc = cfg_bind(c, "t", keys, CFG_COUNT(keys), o, e);
    if (rc == 0) rc = cfg_check_unclaimed(c, e);
    if (out)
        *out = c;
    else
        cfg_destroy(c);
    return rc;
}

static void test_defaults_and_values(void **state) {
    (void)state;
    struct obj o = {.preset_val = 42};
    struct ws_err e = {{0}};
    assert_int_equal(bind("", &o, &e, NULL), 0);
    assert_int_equal(o.n, 5);
    assert_true(o.x == 0.5);
    assert_false(o.b);
    assert_int_equal(o.mode, 0);
    assert_string_equal(o.s, "hello");
    assert_int_equal(o.preset_val, 42); /* NULL default keeps the preset's value */
    assert_int_equal(
        bind("[a]\nn = 0x7\nx=1\nb = yes\nmode = CLOSE\n[b]\ns = w\np = 3\n", &o, &e, NULL), 0);
    assert_int_equal(o.n, 7);
    assert_true(o.x == 1.0);
    assert_true(o.b);
    assert_int_equal(o.mode, 1);
    assert_string_equal(o.s, "w");
    assert_int_equal(o.preset_val, 3);
}

static void test_errors_name_file_and_line(void **state) {
    (void)state;
    struct obj o = {0};
    struct ws_err e = {{0}};
    assert_int_equal(bind("[a]\n\nn = 11\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:3: a.n = 11 is out of range [1, 10]");
    assert_int_equal(bind("[a]\nn = 3x\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: a.n = '3x' is not an integer");
    assert_int_equal(bind("[a]\nn = 99999999999999999999\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: a.n = 99999999999999999999 is out of range [1, 10]");
    /* a key twice in one file: one of the two is a mistake */
    assert_int_equal(bind("[a]\nn = 3\n[b]\np = 1\n[a]\nN = 4\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:6: a.N is set again (first at line 2)");
    assert_int_equal(bind("[a]\nmode = half\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: a.mode = 'half' is not one of: open, close");
    assert_int_equal(bind("[a]\nb = maybe\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: a.b = 'maybe' is not a boolean (true/false)");
    assert_int_equal(bind("[a]\nnn = 3\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: unknown key 'a.nn' (did you mean 'a.n'?)");
    assert_int_equal(bind("[zzz]\nqqqqqqq = 3\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: unknown key 'zzz.qqqqqqq'");
    assert_int_equal(bind("n = 3\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:1: key 'n' is outside any [section]");
    assert_int_equal(bind("[a]\njunk\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:2: malformed line (expected [section] or key = value)");
    /* a broken header is the error, not the key below it that then has no section */
    assert_int_equal(bind("[a\nn = 3\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:1: malformed line (expected [section] or key = value)");
    /* an error the handler finds before a malformed line is reported first */
    assert_int_equal(bind("[a]\nn = 3\nn = 4\njunk\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:3: a.n is set again (first at line 2)");
    o.preset_val = 500;
    assert_int_equal(bind("", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "preset: b.p = 500 is out of range [0, 100]");
}

/* inih reads 200-byte lines: the rest of a longer one used to be parsed as a line of its own, one
 * line number further on. A comment may make a line long; data that long is a located error. */
static void test_long_lines(void **state) {
    (void)state;
    char ini[1024], pad[301];
    memset(pad, 'x', 300);
    pad[300] = '\0';
    snprintf(ini, sizeof ini, "[a]\nn = 7 ; %s = 1\n; %s\nx = 0.25\n", pad, pad);
    struct obj o = {0};
    struct ws_err e = {{0}};
    assert_int_equal(bind(ini, &o, &e, NULL), 0);
    assert_int_equal(o.n, 7);
    assert_true(o.x == 0.25);
    snprintf(ini, sizeof ini, "[a]\n; %s\nn = 70\n", pad);
    assert_int_equal(bind(ini, &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:3: a.n = 70 is out of range [1, 10]");
    snprintf(ini, sizeof ini, "[b]\n\ns = %s ; why\nn = 1\n", pad);
    assert_int_equal(bind(ini, &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:3: line longer than 197 characters");
    /* from a file too */
    struct cfg *c = cfg_create();
    assert_int_equal(cfg_load_ini(c, tu_tmpfile("long.ini", ini), &e), -1);
    assert_non_null(strstr(e.msg, "long.ini:3: line longer than 197 characters"));
    cfg_destroy(c);
}

/* Names other than keys: the nearest valid one, only when it looks like a typo. */
static void test_suggest(void **state) {
    (void)state;
    static const char *const names[] = {"bfs", "bh", "kmeans", "rtx2060s", "gtx480", "gtx480-6g"};
    const struct {
        const char *typed, *want;
    } cases[] = {{"bfss", "bfs"},      {"kmaens", "kmeans"}, {"rtx2060", "rtx2060s"},
                 {"GTX480", "gtx480"}, {"gtx48", "gtx480"},  {"nope", NULL},
                 {"b", "bh"},          {"zzzzzzzz", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct cfg_suggest s = {.typed = cases[i].typed};
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) cfg_suggest_offer(&s, names[k]);
        if (cases[i].want ? !s.best || strcmp(s.best, cases[i].want) : s.best != NULL)
            fail_msg("'%s': got %s, want %s", cases[i].typed, s.best ? s.best : "none",
                     cases[i].want ? cases[i].want : "none");
    }
}

static void test_set_overrides_ini(void **state) {
    (void)state;
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    assert_int_equal(cfg_load_ini_string(c, "t.ini", "[a]\nn = 2\n", &e), 0);
    assert_int_equal(cfg_set_arg(c, "a.n=9", "--set #1", &e), 0);
    assert_int_equal(cfg_set_arg(c, "nodot=1", "--set #2", &e), -1);
    assert_string_equal(e.msg, "--set #2: key 'nodot' needs a section (section.key)");
    assert_int_equal(cfg_set_arg(c, "a.n", "--set #3", &e), -1);
    assert_string_equal(e.msg, "--set #3: expected section.key=value, got 'a.n'");
    struct obj o = {0};
    assert_int_equal(cfg_bind(c, "t", keys, CFG_COUNT(keys), &o, &e), 0);
    assert_int_equal(o.n, 9);
    char where[64];
    assert_string_equal(cfg_origin(c, "a.n", where, sizeof where), "--set #1");
    assert_string_equal(cfg_origin(c, "a.x", where, sizeof where), "default");
    cfg_destroy(c);
}

/* An indented line after a key is inih's continuation of that key's value: refused with both
 * lines, instead of the line silently replacing the value. An indented key after a section
 * header, or the same key indented under a new header, is a key as any other. */
static void test_indented_lines(void **state) {
    (void)state;
    struct obj o = {0};
    struct ws_err e = {{0}};
    assert_int_equal(bind("[b]\ns = one\n  two\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:3: this indented line continues the value of b.s (line 2); "
                               "a value is one line: remove the indentation");
    assert_int_equal(bind("[a]\nn = 3\n\n; a comment\n  x = 1\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:5: this indented line continues the value of a.n (line 2); "
                               "a value is one line: remove the indentation");
    assert_int_equal(bind("[a]\n  n = 3\n[b]\n  s = v\n", &o, &e, NULL), 0);
    assert_int_equal(o.n, 3);
    assert_string_equal(o.s, "v");
    /* under a new header the same key is a key again, not a continuation (and twice, an error) */
    assert_int_equal(bind("[a]\n  n = 3\n[b]\ns = w\n[b]\n  s = v\n", &o, &e, NULL), -1);
    assert_string_equal(e.msg, "t.ini:6: b.s is set again (first at line 4)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_values),
        cmocka_unit_test(test_indented_lines),
        cmocka_unit_test(test_errors_name_file_and_line),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_set_overrides_ini),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
