/* main.c - the mmbench program: subcommands in the style of git and perf. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: mmbench COMMAND [ARGS]\n");
        return argc < 2 ? 2 : 0;
    }
    fprintf(stderr, "mmbench: unknown command '%s'\n", argv[1]);
    return 2;
}
