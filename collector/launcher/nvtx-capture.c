/*
 * nvtx-capture: runs a program with the NVTX capture collector attached and reports where the
 * capture went and what it holds.
 *
 *   nvtx-capture [-o out.nvtxc] [options] [--] program [args...]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crc32c.h"
#include "format.h"

static const char *usage_text =
    "usage: nvtx-capture [options] [--] program [args...]\n"
    "\n"
    "Runs the program with the NVTX capture collector attached (NVTX_INJECTION64_PATH) and writes its\n"
    "NVTX annotations to a .nvtxc capture that nvtxview opens.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   capture file (default: <program>.<pid>.nvtxc in the current directory);\n"
    "                      %p in FILE becomes the pid, %n the program name\n"
    "  -f, --force         overwrite FILE if it exists (otherwise nvtx-capture refuses)\n"
    "      --no-children   do not capture child processes (they otherwise write <FILE stem>.<pid>.nvtxc)\n"
    "      --buffer-kb N   per-thread event buffer in KiB (default 256, at least 64)\n"
    "      --clock CLOCK   tsc or monotonic-raw (default: the invariant TSC when the CPU has one)\n"
    "      --lib PATH      the collector library (default: libnvtxcapture.so next to this program)\n"
    "  -q, --quiet         print nothing unless something goes wrong\n"
    "  -h, --help          this text\n";

static int quiet;

/* ---------------------------------------------------------------- capture summary */

struct summary {
    uint64_t events;
    uint64_t streams;
    uint64_t bytes;
    int has_end;
    int end_reason, end_signal;
    uint64_t lost;
    long long damage_offset; /* -1 when every chunk is complete and intact */
    const char *damage;
};

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end) return -1;
        uint8_t b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

#define MAX_STREAMS 65536

static void summarize(const char *path, struct summary *s)
{
    memset(s, 0, sizeof *s);
    s->damage_offset = -1;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    uint64_t *stream_end = calloc(MAX_STREAMS, sizeof *stream_end);
    uint8_t header[NVTXC_FILE_HEADER_SIZE];
    uint8_t *body = NULL;
    size_t body_cap = 0;
    long long offset = 0;
    if (!stream_end || fread(header, 1, sizeof header, f) != sizeof header || memcmp(header, NVTXC_MAGIC, 8) != 0) {
        s->damage_offset = 0;
        s->damage = "not an .nvtxc capture";
        goto done;
    }
    offset = NVTXC_FILE_HEADER_SIZE;
    for (;;) {
        uint8_t ch[NVTXC_CHUNK_HEADER_SIZE];
        size_t got = fread(ch, 1, sizeof ch, f);
        if (got == 0) break;
        if (got < sizeof ch) {
            s->damage_offset = offset;
            s->damage = "ends inside a chunk header";
            break;
        }
        uint32_t length, crc;
        uint16_t kind;
        memcpy(&length, ch, 4);
        memcpy(&kind, ch + 4, 2);
        memcpy(&crc, ch + 8, 4);
        if (length > (256u << 20)) {
            s->damage_offset = offset;
            s->damage = "has an implausible chunk length";
            break;
        }
        if (length > body_cap) {
            uint8_t *b = realloc(body, length);
            if (!b) break;
            body = b;
            body_cap = length;
        }
        if (fread(body, 1, length, f) != length) {
            s->damage_offset = offset;
            s->damage = "ends inside a chunk (cut short)";
            break;
        }
        if (crc32c_update(crc32c_update(0, ch, 8), body, length) != crc) {
            s->damage_offset = offset;
            s->damage = "has a chunk with a bad checksum";
            break;
        }
        const uint8_t *p = body, *end = body + length;
        if (kind == NVTXC_CHUNK_EVENTS) {
            uint64_t stream, off, tick, ns, count;
            if (get_varint(&p, end, &stream) == 0 && get_varint(&p, end, &off) == 0 && get_varint(&p, end, &tick) == 0 &&
                get_varint(&p, end, &ns) == 0 && get_varint(&p, end, &count) == 0) {
                uint64_t stop = off + (uint64_t)(end - p);
                if (stream < MAX_STREAMS) {
                    if (stream_end[stream] == 0 && off == 0) s->streams++;
                    /* Chunks copied again by an exit or signal flush overlap: count new bytes only. */
                    if (stop > stream_end[stream]) {
                        s->events += count;
                        stream_end[stream] = stop;
                    }
                } else {
                    s->events += count;
                }
            }
        } else if (kind == NVTXC_CHUNK_END) {
            s->has_end = 1;
            while (p < end) {
                uint64_t tag, len;
                if (get_varint(&p, end, &tag) || get_varint(&p, end, &len) || len > (uint64_t)(end - p)) break;
                const uint8_t *v = p, *vend = p + len;
                uint64_t a = 0, b = 0;
                if (tag == NVTXC_END_REASON && get_varint(&v, vend, &a) == 0 && get_varint(&v, vend, &b) == 0) {
                    s->end_reason = (int)a;
                    s->end_signal = (int)b;
                } else if (tag == NVTXC_END_LOST && get_varint(&v, vend, &a) == 0) {
                    s->lost = a;
                }
                p += len;
            }
        }
        offset += NVTXC_CHUNK_HEADER_SIZE + length;
    }
done:
    s->bytes = (uint64_t)offset;
    free(body);
    free(stream_end);
    fclose(f);
}

/* ---------------------------------------------------------------- running */

static pid_t child;

static void forward_signal(int sig)
{
    if (child > 0) kill(child, sig);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Expands %n (program name) now; %p is expanded with the program's pid, %% kept for the collector. */
static char *expand_name(const char *tmpl, const char *name, pid_t pid)
{
    size_t cap = strlen(tmpl) + 64 + 16 * strlen(name) + 1;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t o = 0;
    for (const char *s = tmpl; *s && o + 64 + strlen(name) < cap; s++) {
        if (s[0] == '%' && s[1] == 'n') {
            o += (size_t)sprintf(out + o, "%s", name);
            s++;
        } else if (s[0] == '%' && s[1] == 'p' && pid > 0) {
            o += (size_t)sprintf(out + o, "%d", (int)pid);
            s++;
        } else if (s[0] == '%' && s[1] == '%') {
            out[o++] = '%';
            s++;
        } else {
            out[o++] = *s;
        }
    }
    out[o] = 0;
    return out;
}

static int find_library(const char *given, char *out, size_t cap)
{
    char guess[PATH_MAX];
    if (!given) given = getenv("NVTXCAPTURE_LIB");
    if (!given || !*given) {
        ssize_t n = readlink("/proc/self/exe", guess, sizeof guess - 32);
        if (n <= 0) return -1;
        guess[n] = 0;
        char *slash = strrchr(guess, '/');
        strcpy(slash ? slash + 1 : guess, "libnvtxcapture.so");
        given = guess;
    }
    if (!realpath(given, out)) {
        snprintf(out, cap, "%s", given);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *output = NULL, *lib_arg = NULL, *buffer_kb = NULL, *clock_name = NULL;
    int force = 0, children = 1;
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"no-children", no_argument, NULL, 'C'},  {"buffer-kb", required_argument, NULL, 'B'},
        {"clock", required_argument, NULL, 'K'},  {"lib", required_argument, NULL, 'L'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "+o:fqh", options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'f': force = 1; break;
        case 'C': children = 0; break;
        case 'B': buffer_kb = optarg; break;
        case 'K': clock_name = optarg; break;
        case 'L': lib_arg = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    if (optind >= argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (clock_name && strcmp(clock_name, "tsc") != 0 && strcmp(clock_name, "monotonic-raw") != 0) {
        fprintf(stderr, "nvtx-capture: --clock takes tsc or monotonic-raw, not %s\n", clock_name);
        return 2;
    }
    char **program = argv + optind;
    char lib[PATH_MAX];
    if (find_library(lib_arg, lib, sizeof lib) != 0) {
        fprintf(stderr, "nvtx-capture: the collector library %s is missing; build it with: make -C collector\n", lib);
        return 2;
    }
    const char *name = base_name(program[0]);
    const char *tmpl = output ? output : "%n.%p.nvtxc";
    int per_pid = strstr(tmpl, "%p") != NULL;
    if (!per_pid) {
        /* A fixed name: never overwrite it silently. */
        char *fixed = expand_name(tmpl, name, 0);
        struct stat st;
        if (fixed && stat(fixed, &st) == 0) {
            if (!force) {
                fprintf(stderr, "nvtx-capture: %s exists; use -f to overwrite it or -o to choose another name\n", fixed);
                return 2;
            }
            if (unlink(fixed) != 0) {
                fprintf(stderr, "nvtx-capture: cannot remove %s: %s\n", fixed, strerror(errno));
                return 2;
            }
        }
        free(fixed);
    }

    child = fork();
    if (child < 0) {
        fprintf(stderr, "nvtx-capture: fork: %s\n", strerror(errno));
        return 2;
    }
    if (child == 0) {
        char pid_text[32];
        snprintf(pid_text, sizeof pid_text, "%d", (int)getpid());
        char *path = expand_name(tmpl, name, getpid());
        if (per_pid && force && path) unlink(path);
        setenv("NVTX_INJECTION64_PATH", lib, 1);
        setenv("NVTXCAPTURE_OUTPUT", path ? path : tmpl, 1);
        setenv("NVTXCAPTURE_PID", pid_text, 1);
        setenv("NVTXCAPTURE_CHILDREN", children ? "1" : "0", 1);
        setenv("NVTXCAPTURE_REPORT", quiet ? "0" : "1", 1);
        if (buffer_kb) setenv("NVTXCAPTURE_BUFFER_KB", buffer_kb, 1);
        if (clock_name) setenv("NVTXCAPTURE_CLOCK", clock_name, 1);
        execvp(program[0], program);
        fprintf(stderr, "nvtx-capture: cannot run %s: %s\n", program[0], strerror(errno));
        _exit(127);
    }

    /* Ctrl-C and Ctrl-\ reach the program through the terminal; wait for it to finish its capture. */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGTERM, forward_signal);
    signal(SIGHUP, forward_signal);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "nvtx-capture: waitpid: %s\n", strerror(errno));
            return 2;
        }
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        /* execvp failed (already said) or the program itself returned 127. */
    }

    char *path = expand_name(tmpl, name, child);
    crc32c_init();
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        fprintf(stderr,
                "nvtx-capture: no capture at %s: the program made no NVTX call (or was built with NVTX_DISABLE), "
                "or the capture could not be written (see above)\n",
                path ? path : tmpl);
        free(path);
        return code;
    }
    struct summary s;
    summarize(path, &s);
    if (!quiet) {
        fprintf(stderr, "nvtx-capture: %llu events from %llu thread%s in %s (%.1f KiB)\n", (unsigned long long)s.events,
                (unsigned long long)s.streams, s.streams == 1 ? "" : "s", path, (double)s.bytes / 1024.0);
        if (WIFSIGNALED(status))
            fprintf(stderr, "nvtx-capture: the program was killed by signal %d (%s)\n", WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        if (!s.has_end && s.damage_offset < 0)
            fprintf(stderr, "nvtx-capture: the capture has no end record (the process did not exit normally); "
                            "it holds everything flushed before that\n");
    }
    if (s.damage_offset >= 0)
        fprintf(stderr, "nvtx-capture: %s %s at byte %lld; everything before it is readable\n", path, s.damage,
                s.damage_offset);
    if (s.lost)
        fprintf(stderr, "nvtx-capture: %llu events could not be written (see the message above)\n",
                (unsigned long long)s.lost);
    free(path);
    return code;
}
