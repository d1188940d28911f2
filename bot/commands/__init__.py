"""One module per ``junkyard`` subcommand (see :mod:`bot.cli`), and the exit codes they all share."""

from __future__ import annotations

#: done
OK = 0
#: a failure while running: a database or file that cannot be used, read or written, the network, Discord
#: refusing the token, a game that could not be set up or did not finish
FAILED = 1
#: a usage mistake: an option or argument that is wrong, or that the chosen game does not take (as argparse's own)
USAGE = 2
#: Ctrl-C, and standard output closed by its reader (``| head``): 128 and the signal's number, as a shell has it
INTERRUPTED, OUTPUT_CLOSED = 130, 141
#: the convention in words, at the end of every subcommand's ``--help``
EXIT_CODES = ("Exit codes: 0 done; 1 a failure while running (a database or file that cannot be used, read or "
              "written, the network, Discord refusing the token); 2 a usage mistake (an option or argument that "
              "is wrong, or that the chosen game does not take); 130 Ctrl-C; 141 standard output closed by its "
              "reader (as `| head` does).")
