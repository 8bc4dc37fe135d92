/* main.c - the mmbench program: its command line goes to the command table
 * (commands.c). */
#include "cmd/commands.h"

int main(int argc, char **argv)
{
    return mmb_cmd_main(argc, argv);
}
