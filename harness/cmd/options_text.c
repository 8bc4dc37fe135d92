/* options_text.c - every text of the program made from the option and command tables:
 * --help, `mmbench help`, the manual page and the shell completions. A word a value
 * may be comes from the table that defines it (dtypes, cache modes, statuses,
 * verdicts, counter modes, strategies, formats), so that none of these texts keeps a list
 * of its own. */
#include "cmd/options_text.h"

#include <stdbool.h>
#include <string.h>

#include "cmd/options.h"
#include "cmd/options_impl.h"
#include "core/cache.h"
#include "core/counters.h"
#include "core/dtype.h"
#include "core/status.h"
#include "core/verdict.h"
#include "report/input/formats.h"
#include "search/strategy.h"

const char *const mmb_cmd_shells[] = {"bash", "zsh", NULL};

/* What the program reads from its environment; the man page and `mmbench help` list it. */
static const struct {
    const char *name, *meaning;
} environment[] = {
    {"MMB_SOURCE_ROOT", "the folder whose data/ report and export read by default and under which report "
                        "writes reports/ (default: the current folder)"},
    {"MMB_CACHE_DIR", "the cubin cache of run, tune and check --compile (default: $XDG_CACHE_HOME/mmbench, "
                      "else ~/.cache/mmbench)"},
    {"MMB_L2_SWEEP", "METHOD[:F[:keep]]: how run and tune flush L2 in cold mode (docs/counters.md)"},
    {"MMB_CUPTI_REPLAY", "kernel: CUPTI's kernel replay instead of user replay (docs/counters.md)"},
    {"MMB_CUPTI_SETUP", "once: the profiler set up once per session, not per measurement (docs/counters.md)"},
    {"MMB_COUNTER_BATCH", "N (1 to 32): launches whose counters are read together at most (docs/counters.md)"},
};

static const char exit_statuses[] =
    "0 the work finished (a configuration that fails is a row with its status), 1 results could not be "
    "written, or --fail-on found a row of one of its statuses (compare: a configuration of one of its "
    "verdicts), 2 bad input (file:line: what was expected), 69 no GPU or driver, "
    "130 interrupted (every finished row kept); each command's --help lists its own";

/* Appends text (len bytes) to out after sep, within size; false when it does not fit. */
static bool word_add(char *out, size_t size, size_t *used, const char *sep, const char *text, size_t len)
{
    size_t need = (*used ? strlen(sep) : 0) + len;
    if (*used + need + 1 > size)
        return false;
    *used += (size_t)snprintf(out + *used, size - *used, "%s%.*s", *used ? sep : "", (int)len, text);
    return true;
}

void mmb_cmd_option_words(const struct opt_def *o, const char *sep, char *out, size_t len)
{
    size_t n = 0;
    bool ok = true;
    out[0] = '\0';
    switch (o->type) {
    case OPT_ALL:
        ok = word_add(out, len, &n, sep, "all", 3);
        break;
    case OPT_DTYPE:
        for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text && ok; d++)
            ok = word_add(out, len, &n, sep, d->text, strlen(d->text));
        break;
    case OPT_CACHE:
        for (const struct mmb_cache_info *c = mmb_cache_table; c->text && ok; c++)
            ok = word_add(out, len, &n, sep, c->text, strlen(c->text));
        break;
    case OPT_FORMATS:
        for (const struct mmb_report_format_info *f = mmb_report_format_table; f->name && ok; f++)
            ok = word_add(out, len, &n, sep, f->name, strlen(f->name));
        break;
    case OPT_PRESET:
        for (const struct mmb_report_preset_info *pr = mmb_report_format_preset_table; pr->name && ok; pr++)
            ok = word_add(out, len, &n, sep, pr->name, strlen(pr->name));
        break;
    case OPT_FORMAT:
        for (int f = 0; f < MMB_FORMAT_COUNT && ok; f++)
            if (o->lo & (1LL << f))
                ok = word_add(out, len, &n, sep, mmb_cmd_format_text(f), strlen(mmb_cmd_format_text(f)));
        break;
    case OPT_STATUSES:
        for (const struct mmb_status_info *st = mmb_status_table; st->text && ok; st++)
            ok = word_add(out, len, &n, sep, st->text, strlen(st->text));
        break;
    case OPT_VERDICTS:
        /* as people type them: the parse takes any case */
        for (const struct mmb_verdict_info *v = mmb_verdict_table; v->text && ok; v++) {
            char lower[16];
            size_t w = 0;
            for (; v->text[w] && w + 1 < sizeof lower; w++)
                lower[w] = (char)(v->text[w] >= 'A' && v->text[w] <= 'Z' ? v->text[w] - 'A' + 'a' : v->text[w]);
            ok = word_add(out, len, &n, sep, lower, w);
        }
        break;
    case OPT_SHELL:
        for (const char *const *sh = mmb_cmd_shells; *sh && ok; sh++)
            ok = word_add(out, len, &n, sep, *sh, strlen(*sh));
        break;
    case OPT_COUNTERS:
        for (const struct mmb_counters_info *c = mmb_counters_table; c->text && ok; c++)
            ok = word_add(out, len, &n, sep, c->text, strlen(c->text));
        break;
    case OPT_ENERGY:
        for (const struct mmb_energy_mode_info *m = mmb_energy_mode_table; m->text && ok; m++)
            ok = word_add(out, len, &n, sep, m->text, strlen(m->text));
        break;
    default:
        if (!strcmp(o->name, "strategy")) {
            char names[256];
            mmb_strategy_list(names, sizeof names);
            for (const char *p = names; *p && ok;) {
                size_t w = strcspn(p, ", ");
                ok = word_add(out, len, &n, sep, p, w);
                p += w + strspn(p + w, ", ");
            }
        }
        break;
    }
}

/* ---- what the tables say, as the texts need it ---- */

/* What a value on the command line is, for the completions. */
enum value_kind { VALUE_NONE, VALUE_WORDS, VALUE_FILE, VALUE_FOLDER, VALUE_TEXT };

static enum value_kind option_value(const struct opt_def *o, char *words, size_t len)
{
    mmb_cmd_option_words(o, " ", words, len);
    if (o->type == OPT_FLAG)
        return VALUE_NONE;
    if (words[0])
        return VALUE_WORDS;
    if (o->type == OPT_TEXT && (!strcmp(o->arg, "CSV") || !strcmp(o->arg, "FILE") || !strcmp(o->arg, "PROG")))
        return VALUE_FILE;
    if (o->type == OPT_TEXT && (!strcmp(o->arg, "DIR") || !strcmp(o->arg, "DATA")))
        return VALUE_FOLDER;
    return VALUE_TEXT;
}

/* A value that lists words with commas: --fail-on wrong_result,timeout (compare:
 * --fail-on slower,unsure). */
static bool option_is_list(const struct opt_def *o)
{
    return o->type == OPT_STATUSES || o->type == OPT_VERDICTS || o->type == OPT_FORMATS;
}

/* What a command's arguments are: profiles, CSV files or folders, a command, nothing. */
enum operand_kind { OPERAND_NONE, OPERAND_PROFILE, OPERAND_DATA, OPERAND_COMMAND };

static enum operand_kind command_operand(const struct cmd_def *c)
{
    if (strstr(c->args, ".ini"))
        return OPERAND_PROFILE;
    if (strstr(c->args, "CSV"))
        return OPERAND_DATA;
    if (strstr(c->args, "COMMAND"))
        return OPERAND_COMMAND;
    return OPERAND_NONE;
}

/* The lines a command's --help has after its options ("strategies: ..."), or "". */
static void command_notes(const struct cmd_def *c, char *out, size_t len)
{
    char names[256];
    out[0] = '\0';
    if (c->kind == MMB_CMD_TUNE) {
        mmb_strategy_list(names, sizeof names);
        snprintf(out, len, "strategies: %s (docs/tune.md)", names);
    } else if (c->kind == MMB_CMD_REPORT) {
        mmb_report_format_names(names, sizeof names, ", ", ", ");
        snprintf(out, len, "formats: %s", names);
    }
}

static const struct cmd_def *command_named(const char *name)
{
    for (size_t i = 0; i < mmb_cmd_command_count; i++)
        if (!strcmp(mmb_cmd_command_rows[i].name, name))
            return &mmb_cmd_command_rows[i];
    return NULL;
}

/* ---- --help and `mmbench help` ---- */

void mmb_cmd_options_usage(unsigned kind, FILE *f)
{
    const struct cmd_def *c = mmb_cmd_command_rows;
    while (c + 1 < mmb_cmd_command_rows + mmb_cmd_command_count && c->kind != kind)
        c++;
    fprintf(f, "usage: mmbench %s [OPTIONS]%s%s\n\n%s\n\n", c->name, c->args[0] ? " " : "", c->args, c->about);
    for (const struct opt_def *o = mmb_cmd_option_rows; o->name; o++) {
        if (!(o->commands & kind))
            continue;
        char left[64], flag[4] = "   ";
        if (o->short_name)
            snprintf(flag, sizeof flag, "-%c,", o->short_name);
        snprintf(left, sizeof left, "%s --%s%s%s", flag, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-32s %s\n", left, o->help);
    }
    char notes[512];
    command_notes(c, notes, sizeof notes);
    if (notes[0])
        fprintf(f, "\n%s\n", notes);
    fprintf(f, "exit status: %s\n", c->exits);
}

void mmb_cmd_text_commands(FILE *f, const struct mmb_cmd_entry *entries)
{
    fprintf(f, "usage: mmbench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (const struct mmb_cmd_entry *e = entries; e->name; e++)
        fprintf(f, "  %-8s %s\n", e->name, e->summary);
    fprintf(f, "\n'mmbench COMMAND --help' (or 'mmbench help COMMAND') for a command's options; "
            "'mmbench --version'.\n\nenvironment:\n");
    for (size_t i = 0; i < sizeof environment / sizeof environment[0]; i++)
        fprintf(f, "  %-18s %s\n", environment[i].name, environment[i].meaning);
    fprintf(f, "\nexit status: %s\n", exit_statuses);
}

/* ---- the manual page ---- */

/* Text as roff: backslashes and minus signs escaped, a control character at the start
 * of a line made text; newlines kept (roff fills the lines). */
static void roff(FILE *f, const char *text)
{
    bool line_start = true;
    for (const char *p = text; *p; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", f);
        line_start = *p == '\n';
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-')
            fputs("\\-", f);
        else
            fputc(*p, f);
    }
}

static void man_option(FILE *f, const struct opt_def *o)
{
    fputs(".TP\n", f);
    if (o->short_name)
        fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", f);
    roff(f, o->name);
    fputs("\\fR", f);
    if (o->arg) {
        fputs(" \\fI", f);
        roff(f, o->arg);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    roff(f, o->help);
    fputc('\n', f);
}

static void man_command(FILE *f, const struct cmd_def *c)
{
    fputs(".SS \"mmbench ", f);
    roff(f, c->name);
    fputs(" [OPTIONS]", f);
    if (c->args[0]) {
        fputc(' ', f);
        roff(f, c->args);
    }
    fputs("\"\n", f);
    roff(f, c->about);
    fputc('\n', f);
    for (const struct opt_def *o = mmb_cmd_option_rows; o->name; o++)
        if (o->commands & c->kind)
            man_option(f, o);
    char notes[512];
    command_notes(c, notes, sizeof notes);
    fputs(".PP\n", f);
    if (notes[0]) {
        roff(f, notes);
        fputs("\n.br\n", f);
    }
    fputs("Exit status: ", f);
    roff(f, c->exits);
    fputc('\n', f);
}

void mmb_cmd_text_man(FILE *f, const struct mmb_cmd_entry *entries)
{
    fprintf(f, ".\\\" mmbench.1: written by `mmbench help --man` from the tables behind every --help.\n");
    fprintf(f, ".TH MMBENCH 1 \"\" \"mmbench %s\" \"User Commands\"\n", MMB_VERSION);
    fputs(".SH NAME\nmmbench \\- benchmark, verify, tune and report CUDA matrix\\-multiplication kernels\n", f);
    fputs(".SH SYNOPSIS\n.B mmbench\n.I COMMAND\n.RI [ OPTIONS ]\n.RI [ ARGS ]\n.br\n"
          ".B mmbench\n.RB [ \\-\\-help | \\-\\-version ]\n", f);
    fputs(".SH DESCRIPTION\nmmbench compiles CUDA kernels named in a profile with NVRTC, checks every "
          "configuration against cuBLAS, times it with CUDA events, reads hardware counters with CUPTI and "
          "writes one CSV row per configuration, size and element type; it tunes parameter spaces, and draws "
          "a report from the CSVs.\n", f);
    fputs(".SH COMMANDS\n", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++) {
        fputs(".TP\n.B ", f);
        roff(f, e->name);
        fputc('\n', f);
        roff(f, e->summary);
        fputc('\n', f);
    }
    fputs(".SH OPTIONS\n", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++) {
        const struct cmd_def *c = command_named(e->name);
        if (c)
            man_command(f, c);
    }
    fputs(".SH ENVIRONMENT\n", f);
    for (size_t i = 0; i < sizeof environment / sizeof environment[0]; i++) {
        fprintf(f, ".TP\n.B %s\n", environment[i].name);
        roff(f, environment[i].meaning);
        fputc('\n', f);
    }
    fputs(".SH FILES\n.TP\n.I " MMB_DATADIR "/profiles\nthe shipped profiles; each names its kernel sources "
          "relative to itself, in\n.IR " MMB_DATADIR "/kernels .\n"
          ".TP\n.I " MMB_DATADIR "/columns.json\nthe column table, as \\fBmmbench columns\\fR prints it, for the "
          "Python reader in\n.IR " MMB_DATADIR "/python .\n"
          ".TP\n.I ~/.cache/mmbench\nthe cubin cache (MMB_CACHE_DIR).\n", f);
    fputs(".SH \"EXIT STATUS\"\n", f);
    roff(f, exit_statuses);
    fputs(".\n.SH \"SEE ALSO\"\nThe README, docs/profiles.md, docs/tune.md and docs/counters.md in "
          MMB_DOCDIR ".\n", f);
}

/* ---- bash ---- */

static void bash_words(FILE *f, const char *words, bool list)
{
    if (list)
        fprintf(f, "_mmbench_list '%s'", words);
    else
        fprintf(f, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))", words);
}

static void bash_command(FILE *f, const struct cmd_def *c)
{
    fprintf(f, "    %s)\n        case $prev in\n", c->name);
    char words[512], all[4096] = "";
    size_t n = 0;
    for (const struct opt_def *o = mmb_cmd_option_rows; o->name; o++) {
        if (!(o->commands & c->kind))
            continue;
        char name[80];
        snprintf(name, sizeof name, "--%s", o->name);
        word_add(all, sizeof all, &n, " ", name, strlen(name));
        enum value_kind v = option_value(o, words, sizeof words);
        if (v == VALUE_NONE)
            continue;
        char alias[8] = "";
        if (o->short_name)
            snprintf(alias, sizeof alias, "-%c|", o->short_name);
        fprintf(f, "        %s--%s) ", alias, o->name);
        if (v == VALUE_WORDS)
            bash_words(f, words, option_is_list(o));
        else if (v == VALUE_FILE)
            fputs("_mmbench_files", f);
        else if (v == VALUE_FOLDER)
            fputs("_mmbench_folders", f);
        fputs(v == VALUE_TEXT ? "return ;;\n" : "; return ;;\n", f);
    }
    fprintf(f, "        esac\n        if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return; fi\n",
            all);
    switch (command_operand(c)) {
    case OPERAND_PROFILE:
        fputs("        _mmbench_profiles\n", f);
        break;
    case OPERAND_DATA:
        fputs("        _mmbench_data\n", f);
        break;
    case OPERAND_COMMAND:
        fputs("        COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n", f);
        break;
    case OPERAND_NONE:
        break;
    }
    fputs("        ;;\n", f);
}

static void completion_bash(FILE *f, const struct mmb_cmd_entry *entries, const char *profiles_dir)
{
    fputs("# bash completion of mmbench, written by `mmbench help --completion bash` from its option table.\n"
          "_mmbench_files() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); }\n"
          "_mmbench_folders() { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); }\n"
          "# words of a comma-separated list: the last one completed after the others\n"
          "_mmbench_list() {\n"
          "    local head=\"\" last=$cur\n"
          "    if [[ $cur == *,* ]]; then head=${cur%,*},; last=${cur##*,}; fi\n"
          "    COMPREPLY=($(compgen -P \"$head\" -W \"$1\" -- \"$last\"))\n"
          "}\n", f);
    fprintf(f, "# profiles: *.ini files and folders here, and the installed profiles\n"
            "_mmbench_profiles() {\n"
            "    compopt -o filenames 2>/dev/null\n"
            "    COMPREPLY=($(compgen -f -X '!*.ini' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
            "    local p\n"
            "    for p in '%s'/*.ini; do [[ -f $p && $p == \"$cur\"* ]] && COMPREPLY+=(\"$p\"); done\n"
            "}\n", profiles_dir);
    fputs("_mmbench_data() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    COMPREPLY=($(compgen -f -X '!*.csv' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
          "}\n"
          "_mmbench() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local commands='", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++)
        fprintf(f, "%s%s", e == entries ? "" : " ", e->name);
    fputs("'\n"
          "    if ((COMP_CWORD == 1)); then\n"
          "        COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    case ${COMP_WORDS[1]} in\n", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++) {
        const struct cmd_def *c = command_named(e->name);
        if (c)
            bash_command(f, c);
    }
    fputs("    esac\n}\ncomplete -F _mmbench mmbench\n", f);
}

/* ---- zsh ---- */

/* Text inside a zsh single-quoted _arguments spec: quotes closed and reopened, the
 * characters _arguments reads ([, ], :) escaped, only the first clause of a help. */
static void zsh_text(FILE *f, const char *text, bool first_clause)
{
    for (const char *p = text; *p; p++) {
        if (first_clause && (*p == ';' || *p == '(' || (*p == ':' && p[1] == ' ')))
            break;
        if (*p == '\'')
            fputs("'\\''", f);
        else if (*p == '[' || *p == ']' || *p == ':' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p != '\n')
            fputc(*p, f);
    }
}

static void zsh_option(FILE *f, const struct opt_def *o)
{
    char words[512];
    enum value_kind v = option_value(o, words, sizeof words);
    const char *eq = v == VALUE_NONE ? "" : "=";
    fputs("        ", f);
    if (o->short_name)
        fprintf(f, "'(-%c --%s)'{-%c%s,--%s%s}'", o->short_name, o->name, o->short_name, v == VALUE_NONE ? "" : "+",
                o->name, eq);
    else
        fprintf(f, "'--%s%s", o->name, eq);
    fputc('[', f);
    zsh_text(f, o->help, true);
    fputc(']', f);
    if (v != VALUE_NONE) {
        fputc(':', f);
        zsh_text(f, o->arg, false);
        fputc(':', f);
        if (v == VALUE_WORDS && option_is_list(o))
            fprintf(f, "_values -s , %s %s", o->name, words);
        else if (v == VALUE_WORDS)
            fprintf(f, "(%s)", words);
        else if (v == VALUE_FILE)
            fputs("_files", f);
        else if (v == VALUE_FOLDER)
            fputs("_files -/", f);
    }
    fputs("' \\\n", f);
}

static void zsh_command(FILE *f, const struct cmd_def *c, const struct mmb_cmd_entry *entries)
{
    fprintf(f, "    %s)\n        _arguments -s \\\n", c->name);
    for (const struct opt_def *o = mmb_cmd_option_rows; o->name; o++)
        if (o->commands & c->kind)
            zsh_option(f, o);
    switch (command_operand(c)) {
    case OPERAND_PROFILE:
        fputs("        '*:profile:_mmbench_profiles'\n", f);
        break;
    case OPERAND_DATA:
        fputs("        '*:CSV file or folder:_files -g \"*.csv(-.)\"'\n", f);
        break;
    case OPERAND_COMMAND:
        fputs("        '1:command:(", f);
        for (const struct mmb_cmd_entry *e = entries; e->name; e++)
            fprintf(f, "%s%s", e == entries ? "" : " ", e->name);
        fputs(")'\n", f);
        break;
    case OPERAND_NONE:
        fputs("        && return\n", f);
        break;
    }
    fputs("        ;;\n", f);
}

static void completion_zsh(FILE *f, const struct mmb_cmd_entry *entries, const char *profiles_dir)
{
    fputs("#compdef mmbench\n"
          "# zsh completion of mmbench, written by `mmbench help --completion zsh` from its option table.\n"
          "_mmbench_profiles() {\n"
          "    _files -g '*.ini(-.)'\n"
          "    local -a installed\n", f);
    fprintf(f, "    installed=('%s'/*.ini(N-.))\n", profiles_dir);
    fputs("    (( $#installed )) && compadd -f -a installed\n"
          "}\n"
          "_mmbench() {\n"
          "    local -a commands\n"
          "    commands=(\n", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++) {
        fprintf(f, "        '%s:", e->name);
        zsh_text(f, e->summary, false);
        fputs("'\n", f);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands command commands\n"
          "        return\n"
          "    fi\n"
          "    local cmd=$words[2]\n"
          "    shift words\n"
          "    (( CURRENT-- ))\n"
          "    case $cmd in\n", f);
    for (const struct mmb_cmd_entry *e = entries; e->name; e++) {
        const struct cmd_def *c = command_named(e->name);
        if (c)
            zsh_command(f, c, entries);
    }
    fputs("    esac\n}\n_mmbench \"$@\"\n", f);
}

void mmb_cmd_text_completion(FILE *f, const char *shell, const struct mmb_cmd_entry *entries,
                             const char *profiles_dir)
{
    if (!strcmp(shell, "zsh"))
        completion_zsh(f, entries, profiles_dir);
    else
        completion_bash(f, entries, profiles_dir);
}
