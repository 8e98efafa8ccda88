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

#include "clock.h"
#include "crc32c.h"
#include "format.h"

static const char *usage_text =
    "usage: nvtx-capture [options] [--] program [args...]\n"
    "\n"
    "Runs the program with the NVTX capture collector attached (NVTX_INJECTION64_PATH) and writes its\n"
    "NVTX annotations to a .nvtxc capture that nvtxview opens. When the program uses CUDA, its CUDA API\n"
    "calls and GPU work are recorded too (CUDA_INJECTION64_PATH, CUPTI).\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   capture file (default: <program>.<pid>.nvtxc in the current directory);\n"
    "                      %p in FILE becomes the pid, %n the program name\n"
    "  -f, --force         overwrite FILE if it exists (otherwise nvtx-capture refuses)\n"
    "      --no-children   do not capture child processes (they otherwise write <FILE stem>.<pid>.nvtxc)\n"
    "      --buffer-kb N   per-thread event buffer in KiB (default 256, 64 to 16384)\n"
    "      --clock CLOCK   tsc or monotonic-raw (default: the invariant TSC when the CPU has one)\n"
    "      --lib PATH      the collector library (default: libnvtxcapture.so next to this program)\n"
    "      --no-cuda       do not record CUDA API calls and GPU work (NVTX only)\n"
    "      --cupti PATH    the libcupti to use (a file or its directory; default: next to the program's\n"
    "                      libcudart, the CUDA toolkit, the nvidia-cuda-cupti pip wheel)\n"
    "  -q, --quiet         print nothing unless something goes wrong\n"
    "  -v, --verbose       also print the clock and what one reading of it costs here\n"
    "  -h, --help          this text\n";

static int quiet;
static int verbose;

/* ---------------------------------------------------------------- capture summary */

struct summary {
    uint64_t ranges;  /* push, start, and payload push/start records: ranges as nvtxview counts them */
    uint64_t marks;   /* mark records */
    uint64_t records; /* event records: a push and its pop are two */
    uint64_t streams;
    uint64_t bytes;
    uint64_t open_buffers; /* OPEN chunks that held events no EVENTS chunk has (the process ended abruptly) */
    int has_end;
    int end_reason, end_signal;
    uint64_t lost;
    /* CUDA side (format 1.3): API calls, GPU work by kind, dropped records, the not-recorded reason. */
    uint64_t cuda_api, kernels, memcpys, memsets, syncs, cuda_dropped;
    int cuda_recording;
    long long damage_offset; /* -1 when every chunk is complete and intact */
    const char *damage;
    /* The last chunk, an EVENTS chunk cut short (a kill during its write): its stream and where its records end. */
    int cut_events;
    uint64_t cut_stream, cut_stop;
    int cut_recovered; /* an OPEN chunk (the thread's buffer, emptied only after a write) holds them all */
};

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (*p >= end) return -1;
        uint8_t b = *(*p)++;
        if (shift < 64) r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

static int skip_varints(const uint8_t **p, const uint8_t *end, int n)
{
    uint64_t v;
    for (int i = 0; i < n; i++)
        if (get_varint(p, end, &v)) return -1;
    return 0;
}

/* Skips a varint length and that many bytes (a str, attrs, a length-prefixed body). */
static int skip_sized(const uint8_t **p, const uint8_t *end)
{
    uint64_t n;
    if (get_varint(p, end, &n) || n > (uint64_t)(end - *p)) return -1;
    *p += n;
    return 0;
}

/* Counts the event records of a stream slice (docs/capture-format.md, section 7); stops at damage. */
static void count_records(const uint8_t *p, const uint8_t *end, struct summary *s)
{
    while (p < end) {
        uint8_t op = *p++;
        int bad = 0;
        if (op >= NVTXC_OP_FIRST_LENGTH_PREFIXED) {
            const uint8_t *body = p;
            uint64_t n;
            if (get_varint(&body, end, &n) || n > (uint64_t)(end - body)) return;
            if (op == NVTXC_OP_PAYLOAD_EVENT) {
                const uint8_t *q = body;
                if (skip_varints(&q, body + n, 1) == 0 && q < body + n) {
                    if (*q == NVTXC_PEV_MARK) s->marks++;
                    else if (*q == NVTXC_PEV_PUSH || *q == NVTXC_PEV_START) s->ranges++;
                }
            }
            if (op <= NVTXC_OP_EVENT_BATCH) s->records++;
            if (op == NVTXC_OP_CUDA_API) s->cuda_api++;
            p = body + n;
            continue;
        }
        switch (op) {
        case NVTXC_OP_STRING: bad = skip_varints(&p, end, 1) || skip_sized(&p, end); break;
        case NVTXC_OP_THREAD: bad = skip_varints(&p, end, 1) || skip_sized(&p, end); break;
        case NVTXC_OP_THREAD_OS_NAME: bad = skip_sized(&p, end); break;
        case NVTXC_OP_PUSH: s->ranges++; bad = skip_varints(&p, end, 2); break;
        case NVTXC_OP_POP: bad = skip_varints(&p, end, 1); break;
        case NVTXC_OP_MARK: s->marks++; bad = skip_varints(&p, end, 2); break;
        case NVTXC_OP_START: s->ranges++; bad = skip_varints(&p, end, 3); break;
        case NVTXC_OP_END: bad = skip_varints(&p, end, 2); break;
        case NVTXC_OP_PUSH_EX: s->ranges++; bad = skip_varints(&p, end, 2) || skip_sized(&p, end); break;
        case NVTXC_OP_POP_DOMAIN: bad = skip_varints(&p, end, 2); break;
        case NVTXC_OP_MARK_EX: s->marks++; bad = skip_varints(&p, end, 2) || skip_sized(&p, end); break;
        case NVTXC_OP_START_EX: s->ranges++; bad = skip_varints(&p, end, 3) || skip_sized(&p, end); break;
        case NVTXC_OP_END_DOMAIN: bad = skip_varints(&p, end, 3); break;
        case NVTXC_OP_SYNC:
            bad = skip_varints(&p, end, 1) || p >= end;
            if (!bad) {
                p++; /* the operation */
                bad = skip_varints(&p, end, 1);
            }
            break;
        default: return; /* unknown fixed-grammar record: damage */
        }
        if (bad) return;
        if (op >= NVTXC_OP_PUSH && op <= 0x1f) s->records++;
    }
}

/* A CUDA_ACTIVITY body (section 10.3): GPU work records by kind. */
static void count_activity(const uint8_t *p, const uint8_t *end, struct summary *s)
{
    if (skip_varints(&p, end, 3)) return;
    while (p < end) {
        uint8_t kind = *p++;
        uint64_t n;
        if (get_varint(&p, end, &n) || n > (uint64_t)(end - p)) return;
        if (kind == NVTXC_CUDA_REC_KERNEL) s->kernels++;
        else if (kind == NVTXC_CUDA_REC_MEMCPY) s->memcpys++;
        else if (kind == NVTXC_CUDA_REC_MEMSET) s->memsets++;
        else if (kind == NVTXC_CUDA_REC_SYNC) s->syncs++;
        p += n;
    }
}

/* A META body: the CUDA status and dropped counts. */
static void count_meta(const uint8_t *p, const uint8_t *end, struct summary *s)
{
    if (skip_varints(&p, end, 2)) return;
    while (p < end) {
        uint8_t op = *p++;
        uint64_t n;
        if (get_varint(&p, end, &n) || n > (uint64_t)(end - p)) return;
        const uint8_t *q = p, *body_end = p + n;
        uint64_t v;
        if (op == NVTXC_META_CUDA_STATUS && skip_varints(&q, body_end, 2) == 0 && get_varint(&q, body_end, &v) == 0 &&
            v == NVTXC_CUDA_STATUS_RECORDING)
            s->cuda_recording = 1;
        if (op == NVTXC_META_CUDA_DROPPED && skip_varints(&q, body_end, 5) == 0 && get_varint(&q, body_end, &v) == 0)
            s->cuda_dropped += v;
        p = body_end;
    }
}

#define MAX_STREAMS 65536

/* Bytes of each stream counted so far: chunks copied twice (an exit flush, a buffer left in the file) overlap. */
static uint64_t *stream_end;

/* An EVENTS body: counts the records beyond what earlier chunks of its stream held. 1 if it added any. */
static int count_events_body(const uint8_t *p, const uint8_t *end, struct summary *s)
{
    uint64_t stream, off;
    if (get_varint(&p, end, &stream) || get_varint(&p, end, &off) || skip_varints(&p, end, 3)) return 0;
    uint64_t stop = off + (uint64_t)(end - p);
    if (stream >= MAX_STREAMS) {
        count_records(p, end, s);
        return 1;
    }
    if (stream_end[stream] == 0 && off == 0) s->streams++;
    if (stop <= stream_end[stream] || off > stream_end[stream]) return 0;
    /* Overlaps begin and end on record boundaries (format, section 3). */
    count_records(p + (stream_end[stream] - off), end, s);
    stream_end[stream] = stop;
    return 1;
}

struct open_buffer {
    uint8_t *events; /* the committed EVENTS body of an OPEN chunk */
    size_t n;
    struct open_buffer *next;
};

static void summarize(const char *path, struct summary *s)
{
    memset(s, 0, sizeof *s);
    s->damage_offset = -1;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    stream_end = calloc(MAX_STREAMS, sizeof *stream_end);
    struct open_buffer *open = NULL, **open_tail = &open;
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
        size_t got_body = fread(body, 1, length, f);
        if (got_body != length) {
            s->damage_offset = offset;
            s->damage = "ends inside a chunk (cut short)";
            const uint8_t *q = body, *q_end = body + got_body;
            uint64_t stream, off;
            if (kind == NVTXC_CHUNK_EVENTS && get_varint(&q, q_end, &stream) == 0 && get_varint(&q, q_end, &off) == 0 &&
                skip_varints(&q, q_end, 3) == 0) {
                s->cut_events = 1;
                s->cut_stream = stream;
                s->cut_stop = off + (length - (uint64_t)(q - body));
            }
            break;
        }
        /* An OPEN chunk is written in place and has no checksum (format, section 2.2). */
        if (kind != NVTXC_CHUNK_OPEN && crc32c_update(crc32c_update(0, ch, 8), body, length) != crc) {
            s->damage_offset = offset;
            s->damage = "has a chunk with a bad checksum";
            break;
        }
        const uint8_t *p = body, *end = body + length;
        if (kind == NVTXC_CHUNK_CUDA_ACTIVITY) {
            count_activity(p, end, s);
        } else if (kind == NVTXC_CHUNK_META) {
            count_meta(p, end, s);
        } else if (kind == NVTXC_CHUNK_EVENTS) {
            count_events_body(p, end, s);
        } else if (kind == NVTXC_CHUNK_OPEN && length >= NVTXC_OPEN_EVENTS_AT - NVTXC_CHUNK_HEADER_SIZE) {
            /* Counted after every EVENTS chunk, like a reader decodes it (section 2.2). */
            uint32_t used;
            memcpy(&used, body + NVTXC_OPEN_COMMIT_AT - NVTXC_CHUNK_HEADER_SIZE, 4);
            size_t at = NVTXC_OPEN_EVENTS_AT - NVTXC_CHUNK_HEADER_SIZE;
            struct open_buffer *o;
            if (used > 0 && used <= length - at && (o = malloc(sizeof *o)) && (o->events = malloc(used))) {
                memcpy(o->events, body + at, used);
                o->n = used;
                o->next = NULL;
                *open_tail = o;
                open_tail = &o->next;
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
    while (open) {
        struct open_buffer *next = open->next;
        if (stream_end && count_events_body(open->events, open->events + open->n, s)) s->open_buffers++;
        free(open->events);
        free(open);
        open = next;
    }
    if (s->cut_events && stream_end && s->cut_stream < MAX_STREAMS && stream_end[s->cut_stream] >= s->cut_stop)
        s->cut_recovered = 1;
    s->bytes = (uint64_t)offset;
    free(body);
    free(stream_end);
    stream_end = NULL;
    fclose(f);
}

/* ---------------------------------------------------------------- clock */

/*
 * The clock the collector will use (the same choice: --clock, else the invariant TSC) and the cost
 * of one reading here: each NVTX event reads it once, so it bounds what a push/pop pair can cost
 * (a cloud VM whose hypervisor traps or slows the TSC pays it on every event).
 */
static void print_clock(const char *requested)
{
    clock_choose(requested);
    const char *name = nvtxc_clock_kind == NVTXC_CLOCK_TSC      ? "the CPU's time-stamp counter (rdtsc)"
                       : nvtxc_clock_kind == NVTXC_CLOCK_CNTVCT ? "the Arm generic timer (cntvct_el0)"
                                                                : "clock_gettime(CLOCK_MONOTONIC_RAW)";
    enum { READS = 200000 };
    double best = 0;
    for (int round = 0; round < 5; round++) {
        uint64_t sink = 0;
        uint64_t t0 = clock_ns(CLOCK_MONOTONIC_RAW);
        for (int i = 0; i < READS; i++) sink += tick_now();
        uint64_t t1 = clock_ns(CLOCK_MONOTONIC_RAW);
        __asm__ volatile("" : : "r"(sink));
        double each = (double)(t1 - t0) / READS;
        if (round == 0 || each < best) best = each;
    }
    fprintf(stderr,
            "nvtx-capture: clock: %s, %.1f ns per reading on this machine (each event reads it once; "
            "the cost of a push/pop pair depends on it: npm run bench:collector measures the pair)\n",
            name, best);
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
    const char *output = NULL, *lib_arg = NULL, *buffer_kb = NULL, *clock_name = NULL, *cupti_arg = NULL;
    int force = 0, children = 1, cuda = 1;
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"no-children", no_argument, NULL, 'C'},  {"buffer-kb", required_argument, NULL, 'B'},
        {"clock", required_argument, NULL, 'K'},  {"lib", required_argument, NULL, 'L'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"verbose", no_argument, NULL, 'v'},      {"no-cuda", no_argument, NULL, 'N'},
        {"cupti", required_argument, NULL, 'U'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "+o:fqvh", options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'f': force = 1; break;
        case 'C': children = 0; break;
        case 'B': buffer_kb = optarg; break;
        case 'K': clock_name = optarg; break;
        case 'L': lib_arg = optarg; break;
        case 'q': quiet = 1; break;
        case 'v': verbose = 1; break;
        case 'N': cuda = 0; break;
        case 'U': cupti_arg = optarg; break;
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
    char cupti[PATH_MAX] = "";
    if (cupti_arg && cuda) {
        /* A mistyped path fails here, not as a line after the whole run. */
        if (!realpath(cupti_arg, cupti)) {
            fprintf(stderr, "nvtx-capture: --cupti %s: %s\n", cupti_arg, strerror(errno));
            return 2;
        }
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

    if (verbose && !quiet) print_clock(clock_name);
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
        if (cuda) {
            /* The driver calls the collector's InitializeInjection at cuInit (CUDA records). */
            const char *other = getenv("CUDA_INJECTION64_PATH");
            if (other && *other && strcmp(other, lib) != 0) {
                fprintf(stderr, "nvtx-capture: CUDA not recorded: CUDA_INJECTION64_PATH is set to %s (another tool); "
                                "NVTX is recorded\n",
                        other);
                setenv("NVTXCAPTURE_CUDA", "other", 1);
            } else {
                setenv("CUDA_INJECTION64_PATH", lib, 1);
                setenv("NVTXCAPTURE_CUDA", "1", 1);
            }
            if (cupti[0]) setenv("NVTXCAPTURE_CUPTI", cupti, 1);
        } else {
            setenv("NVTXCAPTURE_CUDA", "0", 1);
            if (getenv("CUDA_INJECTION64_PATH") && strcmp(getenv("CUDA_INJECTION64_PATH"), lib) == 0)
                unsetenv("CUDA_INJECTION64_PATH");
        }
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
                "nvtx-capture: no capture at %s: the program made no NVTX call (or was built with NVTX_DISABLE) "
                "and did not initialise CUDA, or the capture could not be written (see above)\n",
                path ? path : tmpl);
        free(path);
        return code;
    }
    struct summary s;
    summarize(path, &s);
    if (!quiet) {
        /* Ranges as nvtxview counts them (a push/pop or start/end pair is one), and the records the
           collector wrote (each push, pop, mark, start, end or sample is one). */
        fprintf(stderr, "nvtx-capture: %llu range%s and %llu mark%s (%llu event records: a push and its pop count as two) "
                        "from %llu thread%s in %s (%.1f KiB)\n",
                (unsigned long long)s.ranges, s.ranges == 1 ? "" : "s", (unsigned long long)s.marks,
                s.marks == 1 ? "" : "s", (unsigned long long)s.records, (unsigned long long)s.streams,
                s.streams == 1 ? "" : "s", path, (double)s.bytes / 1024.0);
        if (s.cuda_recording)
            fprintf(stderr, "nvtx-capture: CUDA: %llu API call%s, %llu kernel%s, %llu cop%s, %llu set%s, %llu synchronisation%s"
                            "\n",
                    (unsigned long long)s.cuda_api, s.cuda_api == 1 ? "" : "s", (unsigned long long)s.kernels,
                    s.kernels == 1 ? "" : "s", (unsigned long long)s.memcpys, s.memcpys == 1 ? "y" : "ies",
                    (unsigned long long)s.memsets, s.memsets == 1 ? "" : "s", (unsigned long long)s.syncs,
                    s.syncs == 1 ? "" : "s");
        if (s.cuda_dropped)
            fprintf(stderr, "nvtx-capture: %llu GPU activity record%s lost (CUPTI dropped them or they could not be written)\n",
                    (unsigned long long)s.cuda_dropped, s.cuda_dropped == 1 ? " was" : "s were");
        if (s.open_buffers)
            fprintf(stderr, "nvtx-capture: %llu thread buffer%s the process left in the file (it ended without running "
                            "its exit handlers) %s kept\n",
                    (unsigned long long)s.open_buffers, s.open_buffers == 1 ? "" : "s", s.open_buffers == 1 ? "is" : "are");
        if (WIFSIGNALED(status))
            fprintf(stderr, "nvtx-capture: the program was killed by signal %d (%s)\n", WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        if (!s.has_end && (s.damage_offset < 0 || s.cut_recovered))
            fprintf(stderr, "nvtx-capture: the capture has no end record (the process did not exit normally); "
                            "it holds every event recorded before that\n");
    }
    if (s.cut_recovered)
        fprintf(stderr, "nvtx-capture: the last chunk of %s (at byte %lld) was cut short: the process ended while writing it; "
                        "its events were also in the thread's buffer left in the file, and are kept\n",
                path, s.damage_offset);
    else if (s.damage_offset >= 0)
        fprintf(stderr, "nvtx-capture: %s %s at byte %lld; everything before it is readable\n", path, s.damage,
                s.damage_offset);
    if (s.lost)
        fprintf(stderr, "nvtx-capture: %llu events could not be written (see the message above)\n",
                (unsigned long long)s.lost);
    free(path);
    return code;
}
