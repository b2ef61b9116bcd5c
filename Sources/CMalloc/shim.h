// glibc's malloc extensions (malloc_trim), which the Swift Glibc module leaves out.
#include <malloc.h>
