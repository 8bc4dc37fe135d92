/* options_impl.h - private to options.c, which holds the option and command tables
 * and parses with them, and options_text.c, which writes --help, the man page and the
 * shell completions from them: the rows' types. (It does not include options.h, whose
 * enum mmb_cmd_kind the rows hold as bits.) */
#ifndef MMB_CMD_OPTIONS_IMPL_H
#define MMB_CMD_OPTIONS_IMPL_H

#include <stddef.h>
#include <stdio.h>

enum opt_type {
    OPT_FLAG,    /* bool set to true */
    OPT_INT,     /* int in [lo, hi] */
    OPT_LLONG,   /* long long in [lo, hi] */
    OPT_U64,     /* unsigned 64-bit, all of it */
    OPT_SECONDS, /* double > 0, finite */
    OPT_NOISE,   /* a fraction or a percentage in (0, 1): core/converge.h */
    OPT_TEXT,    /* const char *, not empty */
    OPT_ALL,     /* the word 'all' sets a bool */
    OPT_SHARD,   /* K/N (results/shard.h) */
    OPT_ARCH,    /* sm_XY or XY: int XY */
    OPT_DTYPE,   /* an element type's name (core/dtype.h), kept as text */
    OPT_CACHE,   /* cold or hot (core/cache.h), kept as text */
    OPT_SHAPE,   /* N or MxNxK (report/input/shape.h) */
    OPT_FORMATS, /* figure formats, comma-separated, into the report's options */
    OPT_PRESET,  /* a figure preset's name (report/input/formats.h), an enum mmb_report_preset */
    OPT_FORMAT,  /* an enum mmb_cmd_format; lo holds the bits (1 << format) of those the row takes */
    OPT_STATUSES,/* statuses (core/status.h), comma-separated, as bits (1u << status) */
    OPT_VERDICTS,/* verdicts (core/verdict.h), comma-separated, as bits (1u << verdict) */
    OPT_SHELL,   /* a shell of mmb_cmd_shells, kept as text */
    OPT_COUNTERS,/* a counter mode (core/counters.h) */
    OPT_ENERGY,  /* an energy mode (core/counters.h) */
};

struct opt_def {
    const char *name;
    char short_name;       /* 0: none */
    enum opt_type type;
    size_t offset;         /* into struct mmb_cmd_settings */
    size_t set_offset;     /* a bool set when given; 0: none */
    long long lo, hi;
    unsigned commands;     /* the enum mmb_cmd_kind bits of the commands that take it */
    const char *arg;       /* shown in --help */
    const char *help;
};

/* The commands: what each takes besides options, what it does, how it exits. */
struct cmd_def {
    unsigned kind;           /* an enum mmb_cmd_kind */
    const char *name;
    const char *args;        /* in the usage line */
    const char *what;        /* "profile": what a missing or extra argument is called */
    int min_args, max_args;  /* positional arguments; -1: no limit */
    const char *about;
    const char *exits;
};

/* options.c's tables: the options, ending with a row whose name is NULL; the commands. */
extern const struct opt_def *const mmb_cmd_option_rows;
extern const struct cmd_def *const mmb_cmd_command_rows;
extern const size_t mmb_cmd_command_count;

/* The shells whose completions `mmbench help --completion` writes, NULL-terminated. */
extern const char *const mmb_cmd_shells[];

/* The words an option's value may be, joined by sep: the dtypes, cache modes,
 * formats, statuses, verdicts, counter modes, strategies or shells its type names; "" for any text. */
void mmb_cmd_option_words(const struct opt_def *o, const char *sep, char *out, size_t len);

/* Prints the --help of the command kind. */
void mmb_cmd_options_usage(unsigned kind, FILE *f);

#endif
