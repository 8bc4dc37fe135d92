/* labels.c - how figures and tables name what they show: a configuration's
 * parameters in short ("bx=32 ty=8") with the legend of the short names, and a
 * GPU's name without its vendor's words. */
#include "report/input/labels.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/params.h"

/* "block_size_x": "bx"; a name of one word stays whole. */
static void param_abbrev(const char *name, size_t len, char *out, size_t outlen)
{
    size_t o = 0, words = 0;
    for (size_t i = 0; i < len && o + 1 < outlen;) {
        size_t w = i;
        while (w < len && name[w] != '_')
            w++;
        bool skip = (w - i == 4 && !strncmp(name + i, "size", 4)) || (w - i == 2 && !strncmp(name + i, "of", 2));
        if (!skip)
            out[o++] = name[i];
        words++;
        i = w + 1;
    }
    out[o] = '\0';
    if (words < 2 || o == 0)
        snprintf(out, outlen, "%.*s", (int)len, name);
}

void mmb_report_label_params(const char *params, char *out, size_t len)
{
    char names[16][64];
    size_t n = 0, o = 0;
    struct mmb_params_item item;
    int more;
    out[0] = '\0';
    for (const char *p = params; n < 16 && (more = mmb_params_next(&p, &item)) != 0; n++) {
        if (more < 0) {
            snprintf(out, len, "%s", params); /* not name=value pairs: shown as they are */
            return;
        }
        param_abbrev(item.name, item.name_len, names[n], sizeof names[n]);
        for (size_t j = 0; j < n; j++)
            if (!strcmp(names[j], names[n])) {
                snprintf(out, len, "%s", params); /* two would read alike: keep the names */
                return;
            }
        int w = snprintf(out + o, o < len ? len - o : 0, "%s%s=%.*s", n ? " " : "", names[n], (int)item.value_len,
                         item.value_text);
        o += w > 0 ? (size_t)w : 0;
    }
    if (!params[0])
        snprintf(out, len, "-");
}

void mmb_report_label_params_legend(const char *params, char *out, size_t len)
{
    size_t o = 0;
    struct mmb_params_item item;
    out[0] = '\0';
    for (const char *p = params; mmb_params_next(&p, &item) > 0;) {
        char ab[64];
        param_abbrev(item.name, item.name_len, ab, sizeof ab);
        if (strlen(ab) != item.name_len || strncmp(ab, item.name, item.name_len)) {
            int w = snprintf(out + o, o < len ? len - o : 0, "%s%s = %.*s", o ? ", " : "", ab, (int)item.name_len,
                             item.name);
            o += w > 0 ? (size_t)w : 0;
        }
    }
}

void mmb_report_label_gpu(const char *name, char *out, size_t len)
{
    static const char *const prefixes[] = {"NVIDIA ", "GeForce "};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            name += strlen(prefixes[i]);
    snprintf(out, len, "%s", name);
}
