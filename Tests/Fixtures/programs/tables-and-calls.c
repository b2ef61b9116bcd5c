/* A small program whose machine code, procedure linkage table and data tables hold the byte patterns of real
   executables: calls through the PLT, rows of -1 and small numbers, as in the tables of an interpreter. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct row { long long sentinel; unsigned char kind; unsigned char pad[15]; long long count; long long limit; long long scale; long long next; };

static const struct row rows[64] = {
#define R(n) { -1, 0xa4, {0}, n, 999999999, 9800000, 1 }
    R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13), R(14), R(15),
    R(16), R(17), R(18), R(19), R(20), R(21), R(22), R(23), R(24), R(25), R(26), R(27), R(28), R(29), R(30), R(31),
    R(32), R(33), R(34), R(35), R(36), R(37), R(38), R(39), R(40), R(41), R(42), R(43), R(44), R(45), R(46), R(47),
    R(48), R(49), R(50), R(51), R(52), R(53), R(54), R(55), R(56), R(57), R(58), R(59), R(60), R(61), R(62), R(63),
};

static const int words[256] = {
#define W(n) 0x0000e4ff, 0x0000ffff, n, -1
#define W4(n) W(n), W(n + 1), W(n + 2), W(n + 3)
    W4(0), W4(4), W4(8), W4(12), W4(16), W4(20), W4(24), W4(28), W4(32), W4(36), W4(40), W4(44), W4(48), W4(52), W4(56), W4(60),
};

struct entry { unsigned int magic; unsigned int flags; unsigned int offset; char name[84]; };

static const struct entry entries[40] = {
#define E(n, s) { 0x0000ffff, 0x02000065 + n, 0x16c + 8 * n, s }
    E(0, "alpha"), E(1, "beta"), E(2, "gamma"), E(3, "delta"), E(4, "epsilon"), E(5, "zeta"), E(6, "eta"),
    E(7, "theta"), E(8, "iota"), E(9, "kappa"), E(10, "lambda"), E(11, "mu"), E(12, "nu"), E(13, "xi"),
    E(14, "omicron"), E(15, "pi"), E(16, "rho"), E(17, "sigma"), E(18, "tau"), E(19, "upsilon"), E(20, "phi"),
    E(21, "chi"), E(22, "psi"), E(23, "omega"), E(24, "aleph"), E(25, "beth"), E(26, "gimel"), E(27, "daleth"),
    E(28, "he"), E(29, "vav"), E(30, "zayin"), E(31, "heth"), E(32, "teth"), E(33, "yod"), E(34, "kaph"),
    E(35, "lamedh"), E(36, "mem"), E(37, "nun"), E(38, "samekh"), E(39, "ayin"),
};

/* Rows of a relocation-like table, as in a large shared library: their first bytes pass for free-format MPEG-2
   Layer II headers, one every 24 bytes, while the words after them ask for more bits than 24 bytes hold. */
struct fixup { unsigned short tag; unsigned short kind; unsigned int size; unsigned int zero; unsigned int index;
               unsigned int address; unsigned int offset; };

static const struct fixup fixups[48] = {
#define F(n) { 0xf5ff, 6, 8u << 24, 0, (unsigned)(n) << 24, 0x41d41 + 12 * (n), (0x28u + 24 * (n)) << 24 }
#define F8(n) F(n), F(n + 1), F(n + 2), F(n + 3), F(n + 4), F(n + 5), F(n + 6), F(n + 7)
    F8(0), F8(8), F8(16), F8(24), F8(32), F8(40),
};

static int compare(const void *a, const void *b) { return memcmp(a, b, sizeof(int)); }

int main(int argc, char **argv) {
    char buffer[256];
    int values[16];
    srand((unsigned)time(NULL));
    for (int i = 0; i < 16; i++) values[i] = rand() % 100 + abs(atoi(argc > 1 ? argv[1] : "0")) + (int)atol("1");
    qsort(values, 16, sizeof(int), compare);
    snprintf(buffer, sizeof buffer, "%d %s", values[0], getenv("HOME") ? getenv("HOME") : "");
    char *copy = malloc(strlen(buffer) + 1);
    strcpy(copy, buffer);
    copy = realloc(copy, 512);
    strcat(copy, " end");
    strncat(copy, "!?", 1);
    if (strchr(copy, 'x') || strrchr(copy, 'y') || strstr(copy, "zz") || strpbrk(copy, "q")) puts("found");
    printf("%zu %zu %d %d\n", strspn(copy, "0123456789"), strcspn(copy, " "), strcmp(copy, "a"), strncmp(copy, "b", 1));
    char *token = strtok(copy, " ");
    while (token) { putchar(toupper((unsigned char)token[0])); putchar(tolower((unsigned char)token[0])); token = strtok(NULL, " "); }
    double d = strtod("1.5", NULL) + strtol("12", NULL, 10) + strtoul("7", NULL, 10);
    FILE *f = tmpfile();
    if (f) {
        fwrite(rows, sizeof rows[0], 64, f); fflush(f); rewind(f);
        fread(buffer, 1, 16, f); fseek(f, 0, SEEK_END); printf("%ld\n", ftell(f));
        fputs("x", f); fputc('y', f); fprintf(f, "%f", d); fclose(f);
    }
    int sum = 0;
    for (int i = 0; i < 256; i++)
        sum += words[i] + (int)rows[i % 64].count + (int)strlen(entries[i % 40].name) + (int)fixups[i % 48].address;
    memset(buffer, 0, sizeof buffer); memmove(buffer, copy, 8); memcpy(buffer + 8, copy, 4);
    if (memchr(buffer, 'z', 16) || isalpha((unsigned char)buffer[0]) || isdigit((unsigned char)buffer[1])) sum++;
    time_t now = time(NULL);
    printf("%s %d %d\n", ctime(&now), localtime(&now)->tm_year, gmtime(&now)->tm_hour);
    if (sum == 42) { perror(strerror(0)); remove("a"); rename("a", "b"); system("true"); exit(1); }
    sscanf("3", "%d", &sum);
    sprintf(buffer, "%d", sum + (int)clock());
    free(copy);
    return sum & 1;
}
