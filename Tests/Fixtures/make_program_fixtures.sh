#!/usr/bin/env bash
# Builds programs/tables-and-calls.elf from programs/tables-and-calls.c: an executable that holds the byte
# patterns of real programs (calls through the procedure linkage table, rows of -1 and small numbers, rows that
# start with 0xFF bytes, as in a large shared library's relocation tables), which pass for MPEG audio headers,
# chained at the lengths frames would have. No audio packet may come out of it. Needs a C compiler (cc);
# installs nothing.
#
#   bash Tests/Fixtures/make_program_fixtures.sh        (from the repository root)
set -euo pipefail
FIX=Tests/Fixtures
cc -O1 -s -w -o "$FIX/programs/tables-and-calls.elf" "$FIX/programs/tables-and-calls.c"
