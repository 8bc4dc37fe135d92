/* nvrtc_check.c - compiles a kernel file with NVRTC and the given options, as the harness
 * does, and prints the log; exit status 1 if it fails. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nvrtc_check FILE [OPTION...]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *src = malloc((size_t)n + 1);
    if (!src || fread(src, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", argv[1]);
        return 2;
    }
    src[n] = 0;
    fclose(f);
    nvrtcProgram p;
    if (nvrtcCreateProgram(&p, src, argv[1], 0, NULL, NULL) != NVRTC_SUCCESS)
        return 2;
    nvrtcResult r = nvrtcCompileProgram(p, argc - 2, (const char *const *)argv + 2);
    size_t ls = 0;
    nvrtcGetProgramLogSize(p, &ls);
    char *log = malloc(ls + 1);
    if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS && ls > 1)
        printf("%s\n", log);
    printf("nvrtc %s: %s\n", argv[1], nvrtcGetErrorString(r));
    return r != NVRTC_SUCCESS;
}
