/* fuzz_profile.c - libFuzzer target: the profile reader (INI syntax, keys, sizes,
 * parameter lists, restriction and geometry expressions) and the [tune] checks
 * that follow it in every command, then the parameter space it describes, walked
 * for a bounded number of configurations. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "model/profile.h"
#include "model/space.h"
#include "search/tune_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("profile.ini", data, size);
    struct mmb_profile *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    char err[1024];
    if (mmb_profile_load(path, p, err, sizeof err) == 0 && mmb_tune_spec_check(p, err, sizeof err) == 0) {
        for (int ki = 0; ki < p->nkernels; ki++) {
            const struct mmb_kernel_spec *k = &p->kernels[ki];
            size_t n = mmb_space_size(k);
            for (size_t i = 0; i < n && i < 64; i++) {
                struct mmb_config cfg;
                mmb_space_config_at(k, i, &cfg);
                for (int si = 0; si < p->nsizes && si < 4; si++) {
                    int which = -1;
                    char why[256];
                    mmb_space_allowed(k, &cfg, &p->sizes[si], 4, &which, why, sizeof why);
                }
            }
        }
    }
    mmb_profile_free(p);
    free(p);
    return 0;
}
