// glibc's malloc extensions (malloc_trim, mallinfo2), which the Swift Glibc module leaves out.
#include <malloc.h>
