/* smtpcode --probe: see probe_exec.c. */
#ifndef SMTPCODE_PROBE_EXEC_H
#define SMTPCODE_PROBE_EXEC_H

/*
 * When the arguments hold --probe (before any "--"), run smtpcode-probe
 * with the others and never return, unless it cannot be run: then one
 * line on stderr, and the exit status 2.  -1 when there is no --probe.
 */
int probe_dispatch(int argc, char **argv);

#endif
