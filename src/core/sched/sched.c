/* Registry of warp schedulers (sched.def). */
#include "core/sched/sched.h"

#include <string.h>

#define SCHED(sym) extern const struct sched_policy sched_##sym;
#include "core/sched/sched.def"
#undef SCHED
#define SCHED(sym) &sched_##sym,
const struct sched_policy *const sched_policies[] = {
#include "core/sched/sched.def"
};
#undef SCHED
const unsigned sched_npolicies = sizeof sched_policies / sizeof sched_policies[0];

const struct sched_policy *sched_find(const char *name) {
    for (unsigned i = 0; i < sched_npolicies; i++)
        if (strcmp(sched_policies[i]->name, name) == 0) return sched_policies[i];
    return NULL;
}

void sched_list(char *buf, unsigned n) {
    if (n == 0) return;
    buf[0] = 0;
    for (unsigned i = 0; i < sched_npolicies; i++) {
        strncat(buf, i ? ", " : "", n - strlen(buf) - 1);
        strncat(buf, sched_policies[i]->name, n - strlen(buf) - 1);
    }
}
