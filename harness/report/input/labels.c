/* labels.c - how figures and tables name what they show: a configuration's
 * parameters in short ("bx=32 ty=8") with the legend of the short names, and a
 * GPU's name without its vendor's words. */
#include "report/input/labels.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
    out[0] = '\0';
    for (const char *p = params; *p && n < 16;) {
        size_t item = strcspn(p, ";"), eq = strcspn(p, "=");
        if (eq > item)
            eq = item;
        param_abbrev(p, eq, names[n], sizeof names[n]);
        for (size_t j = 0; j < n; j++)
            if (!strcmp(names[j], names[n])) {
                snprintf(out, len, "%s", params); /* two would read alike: keep the names */
                return;
            }
        int w = snprintf(out + o, o < len ? len - o : 0, "%s%s%.*s", n ? " " : "", names[n], (int)(item - eq), p + eq);
        o += w > 0 ? (size_t)w : 0;
        n++;
        p += item + (p[item] == ';');
    }
    if (!params[0])
        snprintf(out, len, "-");
}

void mmb_report_label_params_legend(const char *params, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = params; *p;) {
        size_t item = strcspn(p, ";"), eq = strcspn(p, "=");
        if (eq > item)
            eq = item;
        char ab[64];
        param_abbrev(p, eq, ab, sizeof ab);
        if (strlen(ab) != eq || strncmp(ab, p, eq)) {
            int w = snprintf(out + o, o < len ? len - o : 0, "%s%s = %.*s", o ? ", " : "", ab, (int)eq, p);
            o += w > 0 ? (size_t)w : 0;
        }
        p += item + (p[item] == ';');
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
