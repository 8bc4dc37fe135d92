/* options_text.h - the program's texts, all made from the option and command tables
 * (options.c) so that they never differ: each command's --help, the list of commands
 * (`mmbench help`), the manual page (`mmbench help --man`, installed as mmbench.1) and
 * the bash and zsh completions (`mmbench help --completion SHELL`). */
#ifndef MMB_CMD_OPTIONS_TEXT_H
#define MMB_CMD_OPTIONS_TEXT_H

#include <stdio.h>

/* A command of the program's table (commands.c): its name, its function and what it does. */
struct mmb_cmd_entry {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

/* The usage line, the commands (entries, up to the row whose name is NULL), the
 * environment and the exit statuses: `mmbench help`. */
void mmb_cmd_text_commands(FILE *f, const struct mmb_cmd_entry *entries);

/* The manual page, in roff. */
void mmb_cmd_text_man(FILE *f, const struct mmb_cmd_entry *entries);

/* The completion script of shell (one of options_impl.h's mmb_cmd_shells): commands,
 * each command's options, their values where a table names them, files and folders
 * where they take one, and profiles (*.ini, and the installed ones in profiles_dir). */
void mmb_cmd_text_completion(FILE *f, const char *shell, const struct mmb_cmd_entry *entries,
                             const char *profiles_dir);

#endif
