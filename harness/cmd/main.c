/* main.c - the mmbench program: subcommands in the style of git and perf, one table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd/report.h"
#include "model/profile.h"
#include "model/space.h"
#include "search/tune_spec.h"
#include "core/util.h"

#ifdef MMB_HAVE_CUDA
#include "cuda/compile.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"
#include "results/metrics.h"
#include "cmd/run.h"
#include "cmd/tune.h"
#endif

#define EXIT_BAD_INPUT 2

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static int cmd_help(int argc, char **argv);

static int load_profile(const char *path, struct mmb_profile *p)
{
    char err[1024];
    if (mmb_profile_load(path, p, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench: %s\n", err);
        return -1;
    }
    if (mmb_tune_spec_check(p, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench: %s\n", err);
        mmb_profile_free(p);
        return -1;
    }
    return 0;
}

/* `check PROFILE...`: validate without a GPU; with --compile ARCH, also compile every
 * allowed configuration with NVRTC (needs the CUDA toolkit, not a GPU). */
static int cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"compile", required_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int arch = 0, opt;
    while ((opt = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'c':
            if (sscanf(optarg, "sm_%d", &arch) != 1 && sscanf(optarg, "%d", &arch) != 1) {
                fprintf(stderr, "mmbench check: --compile expects an architecture such as sm_90, not '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            break;
        case 'h':
            printf("usage: mmbench check [--compile sm_XY] PROFILE.ini...\n");
            return 0;
        default:
            return EXIT_BAD_INPUT;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "mmbench check: expected one or more profiles\n");
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
    for (int a = optind; a < argc; a++) {
        struct mmb_profile *p = calloc(1, sizeof *p);
        if (!p || load_profile(argv[a], p) != 0) {
            free(p);
            rc = EXIT_BAD_INPUT;
            continue;
        }
#ifdef MMB_HAVE_CUDA
        char err[1024];
        struct mmb_metric_set set;
        if (mmb_metric_set_parse(p->metrics, &set, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench: %s: metrics: %s\n", argv[a], err);
            rc = EXIT_BAD_INPUT;
        }
#endif
        size_t compiled = 0, failed = 0;
        printf("%s: profile '%s', %d sizes\n", argv[a], p->name, p->nsizes);
        for (int ki = 0; ki < p->nkernels; ki++) {
            const struct mmb_kernel_spec *k = &p->kernels[ki];
            size_t n = mmb_space_size(k), allowed = 0;
            for (size_t i = 0; i < n; i++) {
                struct mmb_config cfg;
                mmb_space_config_at(k, i, &cfg);
                bool any = false;
                for (int si = 0; si < p->nsizes; si++) {
                    int which;
                    char why[256];
                    int ok = mmb_space_allowed(k, &cfg, &p->sizes[si], 4, &which, why, sizeof why);
                    if (ok < 0) {
                        fprintf(stderr, "mmbench: %s: kernel %s: %s\n", argv[a], k->name, why);
                        rc = EXIT_BAD_INPUT;
                        break;
                    }
                    any |= ok == 1;
                }
                if (!any)
                    continue;
                allowed++;
#ifdef MMB_HAVE_CUDA
                if (arch && k->kind == MMB_KERNEL_SOURCE) {
                    char *text = NULL;
                    char why[1024];
                    for (int d = 0; d < MMB_DTYPE_COUNT; d++) {
                        unsigned mask = mmb_kernel_dtypes(p, k);
                        if (!(mask & (1u << d)))
                            continue;
                        char storage[MMB_MAX_PARAMS + 1][MMB_DEFINE_LEN];
                        const char *defines[MMB_MAX_PARAMS + 2];
                        mmb_compile_defines(k, &cfg, (enum mmb_dtype)d, storage, defines);
                        if (!text && !(text = mmb_file_read(k->source, NULL, why, sizeof why))) {
                            fprintf(stderr, "mmbench: %s\n", why);
                            failed++;
                            break;
                        }
                        struct mmb_compile_request req = {.source_path = k->source, .source = text,
                                                          .function = k->function, .defines = defines,
                                                          .arch = arch, .extra_options = k->nvrtc_options};
                        struct mmb_cubin cubin;
                        if (mmb_compile(&req, &cubin, why, sizeof why) != MMB_STATUS_OK) {
                            char params[256];
                            mmb_space_format_params(k, &cfg, params, sizeof params);
                            fprintf(stderr, "mmbench: %s %s [%s] sm_%d: %s\n", k->name, params,
                                    mmb_dtype_info((enum mmb_dtype)d)->text, arch, why);
                            failed++;
                        } else {
                            compiled++;
                        }
                        mmb_cubin_free(&cubin);
                    }
                    free(text);
                }
#endif
            }
            printf("  kernel %-12s %s: %zu configurations, %zu allowed by its restrictions\n", k->name,
                   k->kind == MMB_KERNEL_CUBLAS ? "(cuBLAS)" : k->function, n, allowed);
        }
        if (arch)
            printf("  compiled for sm_%d: %zu ok, %zu failed\n", arch, compiled, failed);
        if (failed)
            rc = 1;
        mmb_profile_free(p);
        free(p);
    }
    return rc;
}

#ifdef MMB_HAVE_CUDA
static int cmd_devices(int argc, char **argv)
{
    char err[512];
    int n = mmb_gpu_count(err, sizeof err);
    if (n <= 0) {
        fprintf(stderr, "mmbench devices: no GPU: %s\n", err);
        return EX_UNAVAILABLE;
    }
    printf("%-3s %-24s %-5s %4s %9s %9s %5s %7s %6s %10s %11s %s\n", "#", "name", "cc", "SMs", "SM MHz", "mem MHz",
           "bus", "mem GiB", "L2 MiB", "peak GB/s", "peak GFLOP/s", "data folder");
    for (int i = 0; i < n; i++) {
        struct mmb_device_info d;
        if (mmb_gpu_query(i, &d, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench devices: device %d: %s\n", i, err);
            return 1;
        }
        printf("%-3d %-24s %d.%-3d %4d %9.0f %9.0f %5d %7.1f %6.1f %10.1f %11.1f data/%s\n", i, d.name, d.cc_major,
               d.cc_minor, d.sm_count, d.sm_clock_mhz, d.mem_clock_mhz, d.mem_bus_bits,
               d.mem_bytes / 1073741824.0, d.l2_bytes / 1048576.0, d.peak_gbps, d.peak_gflops, d.slug);
    }
    printf("peaks: DRAM = 2 x memory clock x bus width; FP32 = 2 x %s x SMs x SM clock (boost)\n",
           "FP32 lanes per SM");
    return 0;
}

static char **program_argv;

/* After a sticky GPU error the CUDA context is gone for this process: run the same
 * command again in a fresh one, which resumes after the rows already written. Bounded
 * by MMB_RESTARTS so that a GPU that faults on every start cannot loop forever. */
static void restart_after_sticky_error(void)
{
    const char *env = getenv("MMB_RESTARTS");
    int restarts = env ? atoi(env) : 0;
    if (restarts >= 32) {
        fprintf(stderr, "mmbench run: 32 restarts after sticky GPU errors; giving up\n");
        return;
    }
    char value[16];
    snprintf(value, sizeof value, "%d", restarts + 1);
    if (setenv("MMB_RESTARTS", value, 1) != 0) {
        perror("mmbench run: setenv");
        return;
    }
    fprintf(stderr, "mmbench run: restarting in a fresh process to go on (restart %d)\n", restarts + 1);
    fflush(NULL);
    execv("/proc/self/exe", program_argv);
    perror("mmbench run: execv /proc/self/exe");
}

/* A bad MMB_L2_SWEEP is bad input, named before any GPU work. */
static bool l2_sweep_env_ok(const char *command)
{
    const char *how = getenv("MMB_L2_SWEEP");
    char canon[MMB_L2_FLUSH_METHOD_LEN], err[256];
    if (!how || !*how || mmb_l2_flush_check_method(how, canon, sizeof canon, err, sizeof err) == 0)
        return true;
    fprintf(stderr, "mmbench %s: %s\n", command, err);
    return false;
}

static int cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"device", required_argument, NULL, 'd'}, {"devices", required_argument, NULL, 'D'},
        {"output", required_argument, NULL, 'o'}, {"data-dir", required_argument, NULL, 'O'},
        {"no-counters", no_argument, NULL, 'N'}, {"verbose", no_argument, NULL, 'v'},
        {"repeats", required_argument, NULL, 'r'}, {"warmup", required_argument, NULL, 'w'}, {"record-restricted", no_argument, NULL, 'R'},
        {"cache-dir", required_argument, NULL, 'C'}, {"no-cache", no_argument, NULL, 'X'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    if (!l2_sweep_env_ok("run"))
        return EXIT_BAD_INPUT;
    char cache[1024];
    mmb_compile_default_cache_dir(cache, sizeof cache);
    struct mmb_run_options o = {.device = 0, .data_dir = "data", .cache_dir = cache, .counters = true,
                              .warmup = -1};
    bool all_devices = false;
    int opt;
    char *end;
    while ((opt = getopt_long(argc, argv, "d:o:vr:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'd':
            o.device = (int)strtol(optarg, &end, 10);
            if (*end || o.device < 0) {
                fprintf(stderr, "mmbench run: --device expects a device number, not '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            break;
        case 'D':
            if (strcmp(optarg, "all") != 0) {
                fprintf(stderr, "mmbench run: --devices expects 'all', not '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            all_devices = true;
            break;
        case 'o': o.output = optarg; break;
        case 'O': o.data_dir = optarg; break;
        case 'N': o.counters = false; break;
        case 'v': o.verbose = true; break;
        case 'R': o.record_restricted = true; break;
        case 'C': o.cache_dir = optarg; break;
        case 'X': o.cache_dir = NULL; break;
        case 'r':
            o.repeats = (int)strtol(optarg, &end, 10);
            if (*end || o.repeats < 1) {
                fprintf(stderr, "mmbench run: --repeats expects a positive number, not '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            break;
        case 'w':
            o.warmup = (int)strtol(optarg, &end, 10);
            if (*end || o.warmup < 0) {
                fprintf(stderr, "mmbench run: --warmup expects a number >= 0, not '%s'\n", optarg);
                return EXIT_BAD_INPUT;
            }
            break;
        case 'h':
            printf("usage: mmbench run [--device N | --devices all] [-o CSV] [--data-dir DIR] [--no-counters]\n"
                   "                   [--repeats N] [--warmup N] [--record-restricted] [--cache-dir DIR | --no-cache] [-v]\n"
                   "                   PROFILE.ini\n");
            return 0;
        default:
            return EXIT_BAD_INPUT;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "mmbench run: expected exactly one profile (see mmbench run --help)\n");
        return EXIT_BAD_INPUT;
    }
    struct mmb_profile *p = calloc(1, sizeof *p);
    if (!p) {
        perror("mmbench run");
        return 1;
    }
    int rc = 0;
    char err[1024];
    struct mmb_metric_set set;
    if (load_profile(argv[optind], p) != 0) {
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    if (mmb_metric_set_parse(p->metrics, &set, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench run: %s: metrics: %s\n", argv[optind], err);
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    o.metrics = &set;
    int ndev = mmb_gpu_count(err, sizeof err);
    if (ndev <= 0) {
        fprintf(stderr, "mmbench run: no GPU: %s\n", err);
        rc = EX_UNAVAILABLE;
        goto out;
    }
    if (o.device >= ndev) {
        fprintf(stderr, "mmbench run: --device %d, but there %s %d GPU%s\n", o.device, ndev == 1 ? "is" : "are",
                ndev, ndev == 1 ? "" : "s");
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    if (all_devices && o.output) {
        fprintf(stderr, "mmbench run: --devices all writes one CSV per GPU under --data-dir; drop -o\n");
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    for (int d = all_devices ? 0 : o.device; d < (all_devices ? ndev : o.device + 1); d++) {
        struct mmb_run_summary sum;
        o.device = d;
        if (mmb_run_profile(p, &o, &sum, err, sizeof err) != 0) {
            fprintf(stderr, "mmbench run: %s\n", err);
            rc = 1;
            if (sum.device_lost)
                restart_after_sticky_error();
            goto out;
        }
        printf("%s: %zu rows written, %zu already there, %zu configurations removed by restrictions\n",
               sum.csv_path, sum.rows_written, sum.rows_resumed, sum.restricted);
        for (int s = 0; s < MMB_STATUS_COUNT; s++)
            if (sum.by_status[s])
                printf("  %-16s %zu\n", mmb_status_text((enum mmb_status)s), sum.by_status[s]);
    }
out:
    mmb_profile_free(p);
    free(p);
    return rc;
}

static int cmd_tune(int argc, char **argv)
{
    if (!l2_sweep_env_ok("tune"))
        return EXIT_BAD_INPUT;
    int rc = mmb_tune_main(argc, argv);
    if (rc == MMB_TUNE_DEVICE_LOST)
        restart_after_sticky_error(); /* the tune resumes from its CSV; returns only on failure */
    return rc;
}
#else
static int no_cuda(const char *what)
{
    fprintf(stderr, "mmbench %s: this mmbench was built without the CUDA toolkit; "
            "install it and reconfigure (meson setup --reconfigure build)\n", what);
    return EX_UNAVAILABLE;
}
static int cmd_devices(int argc, char **argv) { return no_cuda("devices"); }
static int cmd_run(int argc, char **argv) { return no_cuda("run"); }
static int cmd_tune(int argc, char **argv) { return no_cuda("tune"); }
#endif

static const struct command commands[] = {
    {"run", cmd_run, "run every configuration of a profile on a GPU, one CSV row each"},
    {"tune", cmd_tune, "search kernels' parameter spaces on a GPU (strategies, resume, T4 export)"},
    {"check", cmd_check, "validate profiles (and compile their kernels with --compile) without a GPU"},
    {"devices", cmd_devices, "list the GPUs with their peaks and data folders"},
    {"report", mmb_report_main, "draw the plots and write reports/ from CSVs (no GPU needed)"},
    {"help", cmd_help, "this list"},
    {NULL, NULL, NULL},
};

static int cmd_help(int argc, char **argv)
{
    printf("usage: mmbench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (const struct command *c = commands; c->name; c++)
        printf("  %-8s %s\n", c->name, c->summary);
    printf("\n'mmbench COMMAND --help' for a command's options.\n");
    return 0;
}

int main(int argc, char **argv)
{
#ifdef MMB_HAVE_CUDA
    program_argv = argv;
#endif
    if (argc < 2) {
        cmd_help(0, NULL);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help(0, NULL);
    if (strcmp(argv[1], "--version") == 0) {
        printf("mmbench %s\n", MMB_VERSION);
        return 0;
    }
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(c->name, argv[1]) == 0) {
            optind = 1;
            return c->fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "mmbench: '%s' is not a command; 'mmbench help' lists them\n", argv[1]);
    return EXIT_BAD_INPUT;
}
