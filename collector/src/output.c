#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector.h"
#include "crc32c.h"
#include "encode.h"
#include "format.h"

static int fd = -1;
/* Where the next chunk goes: every byte before it is a complete chunk or a reserved region. */
static uint64_t file_end;
static int failed;
static int reported;
static char path[PATH_MAX];

int out_is_open(void) { return fd >= 0; }
int out_fd(void) { return fd; }
int out_failed(void) { return failed; }
const char *out_path(void) { return path; }

void out_fail(const char *what, int err)
{
    failed = 1;
    if (reported) return;
    reported = 1;
    /* One message, then silence: the program keeps running without a capture. */
    static char msg[PATH_MAX + 256];
    int n = snprintf(msg, sizeof msg, "nvtx-capture: cannot %s %s: %s; the program continues without capturing\n", what,
                     path[0] ? path : "(no file name)", strerror(err));
    if (n > 0) {
        ssize_t ignored = write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
        (void)ignored;
    }
}

/* Appends the parts at file_end (positioned writes: reserved regions lie between chunks). */
static int write_all(const struct iovec *iov, int n)
{
    struct iovec local[8];
    if (n > 8) return -1;
    memcpy(local, iov, sizeof(struct iovec) * (size_t)n);
    struct iovec *v = local;
    while (n > 0) {
        ssize_t w = pwritev(fd, v, n, (off_t)file_end);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (w == 0) {
            errno = ENOSPC;
            return -1;
        }
        file_end += (uint64_t)w;
        while (n > 0 && (size_t)w >= v->iov_len) {
            w -= (ssize_t)v->iov_len;
            v++;
            n--;
        }
        if (n > 0) {
            v->iov_base = (char *)v->iov_base + w;
            v->iov_len -= (size_t)w;
        }
    }
    return 0;
}

static const uint8_t zeros[4096];

static uint32_t crc_of_zeros(uint32_t crc, size_t n)
{
    while (n > 0) {
        size_t k = n < sizeof zeros ? n : sizeof zeros;
        crc = crc32c_update(crc, zeros, k);
        n -= k;
    }
    return crc;
}

/* A PAD chunk of `total` bytes (header included, at least 12) made of zeros: header then allocation. */
static int pad_header(uint8_t header[NVTXC_CHUNK_HEADER_SIZE], size_t total)
{
    uint8_t *p = put_u32(header, (uint32_t)(total - NVTXC_CHUNK_HEADER_SIZE));
    p = put_u16(p, NVTXC_CHUNK_PAD);
    p = put_u16(p, 0);
    put_u32(p, crc_of_zeros(crc32c_update(0, header, 8), total - NVTXC_CHUNK_HEADER_SIZE));
    return 0;
}

long long out_reserve_aligned_locked(size_t size, size_t align)
{
    if (failed || fd < 0) return -1;
    uint64_t start = (file_end + align - 1) / align * align;
    if (start != file_end && start - file_end < NVTXC_CHUNK_HEADER_SIZE) start += align;
    /* Allocate the blocks now: a store into a mapped hole on a full disk would be SIGBUS. */
    if (fallocate(fd, 0, (off_t)file_end, (off_t)(start + size - file_end)) != 0) {
        if (ftruncate(fd, (off_t)file_end) != 0) { /* nothing more to undo */
        }
        return -1;
    }
    uint8_t header[NVTXC_CHUNK_HEADER_SIZE];
    if (start > file_end) {
        pad_header(header, (size_t)(start - file_end));
        if (pwrite(fd, header, sizeof header, (off_t)file_end) != (ssize_t)sizeof header) return -1;
    }
    pad_header(header, size);
    if (pwrite(fd, header, sizeof header, (off_t)start) != (ssize_t)sizeof header) return -1;
    file_end = start + size;
    return (long long)start;
}

int out_chunk_locked(uint16_t kind, const struct iovec *parts, int nparts)
{
    if (failed || fd < 0 || nparts > 7) return -1;
    size_t length = 0;
    for (int i = 0; i < nparts; i++) length += parts[i].iov_len;
    uint8_t header[NVTXC_CHUNK_HEADER_SIZE];
    uint8_t *p = put_u32(header, (uint32_t)length);
    p = put_u16(p, kind);
    p = put_u16(p, 0);
    uint32_t crc = crc32c_update(0, header, 8);
    for (int i = 0; i < nparts; i++) crc = crc32c_update(crc, parts[i].iov_base, parts[i].iov_len);
    put_u32(p, crc);
    struct iovec all[8];
    all[0].iov_base = header;
    all[0].iov_len = sizeof header;
    memcpy(all + 1, parts, sizeof(struct iovec) * (size_t)nparts);
    if (write_all(all, nparts + 1) != 0) {
        out_fail("write the capture to", errno ? errno : EIO);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- naming */

static void read_comm(char *out, size_t cap)
{
    out[0] = 0;
    int f = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (f < 0) return;
    ssize_t n = read(f, out, cap - 1);
    close(f);
    if (n <= 0) return;
    out[n] = 0;
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
}

/* Keeps a process name usable in a file name. */
static void sanitize(char *s)
{
    for (; *s; s++)
        if (*s == '/' || *s == ' ' || (unsigned char)*s < 0x20) *s = '_';
}

/* Expands %p (pid), %n (process name) and %% in a path template. */
static int expand(const char *tmpl, pid_t pid, const char *name, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *s = tmpl; *s; s++) {
        char piece[64];
        const char *add = piece;
        if (*s == '%' && s[1] == 'p') {
            snprintf(piece, sizeof piece, "%d", (int)pid);
            s++;
        } else if (*s == '%' && s[1] == 'n') {
            add = name;
            s++;
        } else if (*s == '%' && s[1] == '%') {
            piece[0] = '%';
            piece[1] = 0;
            s++;
        } else {
            piece[0] = *s;
            piece[1] = 0;
        }
        size_t n = strlen(add);
        if (o + n + 1 > cap) return -1;
        memcpy(out + o, add, n);
        o += n;
    }
    out[o] = 0;
    return 0;
}

/* Inserts ".<tag>" before a trailing ".nvtxc" (or appends it). */
static int with_tag(const char *base, const char *tag, char *out, size_t cap)
{
    size_t n = strlen(base);
    size_t stem = n;
    if (n > 6 && strcmp(base + n - 6, ".nvtxc") == 0) stem = n - 6;
    int w = snprintf(out, cap, "%.*s.%s%s", (int)stem, base, tag, base + stem);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/*
 * The file of this process: NVTXCAPTURE_OUTPUT (a template) or "<name>.<pid>.nvtxc". A process
 * that is not the one the template was made for (a fork child, or an exec'd descendant that
 * inherited the environment) gets its pid added unless the template already has %p.
 */
static int resolve_path(char *out, size_t cap)
{
    static char expanded[PATH_MAX];
    char name[64];
    read_comm(name, sizeof name);
    sanitize(name);
    if (!name[0]) strcpy(name, "process");
    const char *tmpl = getenv("NVTXCAPTURE_OUTPUT");
    if (!tmpl || !*tmpl) tmpl = "%n.%p.nvtxc";
    const char *for_pid = getenv("NVTXCAPTURE_PID");
    int descendant = nvtxc_g.parent_pid != 0 || (for_pid && *for_pid && atoi(for_pid) != (int)nvtxc_g.pid);
    if (expand(tmpl, nvtxc_g.pid, name, expanded, sizeof expanded) != 0) return -1;
    if (descendant && !strstr(tmpl, "%p")) {
        char tag[32];
        snprintf(tag, sizeof tag, "%d", (int)nvtxc_g.pid);
        return with_tag(expanded, tag, out, cap);
    }
    snprintf(out, cap, "%s", expanded);
    return 0;
}

/* ---------------------------------------------------------------- PROCESS chunk */

struct tlv {
    uint8_t *data;
    size_t len, cap;
};

static void tlv_add(struct tlv *t, uint64_t tag, const void *value, size_t n)
{
    size_t need = t->len + 2 * VARINT_MAX + n;
    if (need > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < need) cap *= 2;
        uint8_t *d = realloc(t->data, cap);
        if (!d) return;
        t->data = d;
        t->cap = cap;
    }
    uint8_t *p = t->data + t->len;
    p = put_varint(p, tag);
    p = put_varint(p, n);
    memcpy(p, value, n);
    t->len = (size_t)(p + n - t->data);
}

static void tlv_varints(struct tlv *t, uint64_t tag, int count, uint64_t a, uint64_t b)
{
    uint8_t v[2 * VARINT_MAX];
    uint8_t *p = put_varint(v, a);
    if (count > 1) p = put_varint(p, b);
    tlv_add(t, tag, v, (size_t)(p - v));
}

static void tlv_text(struct tlv *t, uint64_t tag, const char *s)
{
    tlv_add(t, tag, s, strlen(s));
}

static void tlv_file(struct tlv *t, uint64_t tag, const char *file, int trim_newline)
{
    int f = open(file, O_RDONLY | O_CLOEXEC);
    if (f < 0) return;
    /* On the heap: this can run on a thread with a small stack. */
    size_t cap = 65536;
    char *buf = malloc(cap);
    if (!buf) {
        close(f);
        return;
    }
    ssize_t n = read(f, buf, cap);
    close(f);
    if (n > 0) {
        if (trim_newline && buf[n - 1] == '\n') n--;
        tlv_add(t, tag, buf, (size_t)n);
    }
    free(buf);
}

/* File lock held: static scratch keeps this off small thread stacks (a fork child opens lazily on any thread). */
static char text[PATH_MAX];

static int write_process_chunk_locked(void)
{
    struct tlv t = {0};
    tlv_text(&t, NVTXC_PROC_WRITER, "nvtxcapture " NVTXC_VERSION);
    tlv_varints(&t, NVTXC_PROC_PID, 1, (uint64_t)nvtxc_g.pid, 0);
    tlv_varints(&t, NVTXC_PROC_PPID, 1, (uint64_t)getppid(), 0);
    tlv_file(&t, NVTXC_PROC_NAME, "/proc/self/comm", 1);
    ssize_t n = readlink("/proc/self/exe", text, sizeof text - 1);
    if (n > 0) tlv_add(&t, NVTXC_PROC_EXE, text, (size_t)n);
    tlv_file(&t, NVTXC_PROC_CMDLINE, "/proc/self/cmdline", 0);
    tlv_varints(&t, NVTXC_PROC_CLOCK_KIND, 1, (uint64_t)nvtxc_clock_kind, 0);
    tlv_varints(&t, NVTXC_PROC_START_PAIR, 2, nvtxc_g.start.tick, nvtxc_g.start.ns);
    tlv_varints(&t, NVTXC_PROC_TICK_RATE, 1, nvtxc_g.tick_rate, 0);
    tlv_varints(&t, NVTXC_PROC_WALL_START, 1, nvtxc_g.wall_start_ns, 0);
    if (gethostname(text, sizeof text) == 0) {
        text[sizeof text - 1] = 0;
        tlv_text(&t, NVTXC_PROC_HOST, text);
    }
    if (nvtxc_g.parent_pid) tlv_varints(&t, NVTXC_PROC_PARENT_PID, 1, (uint64_t)nvtxc_g.parent_pid, 0);
    if (getcwd(text, sizeof text)) tlv_text(&t, NVTXC_PROC_CWD, text);
    tlv_varints(&t, NVTXC_PROC_BUFFER_SIZE, 1, nvtxc_g.buffer_size, 0);
    {
        uint8_t v[VARINT_MAX];
        uint8_t *p = put_svarint(v, (int64_t)(nvtxc_g.capture_start_tick - nvtxc_g.start.tick));
        tlv_add(&t, NVTXC_PROC_CAPTURE_START, v, (size_t)(p - v));
    }
    if (!t.data) {
        out_fail("prepare the capture header for", ENOMEM);
        return -1;
    }
    struct iovec part = {t.data, t.len};
    int rc = out_chunk_locked(NVTXC_CHUNK_PROCESS, &part, 1);
    free(t.data);
    return rc;
}

static int open_file_locked(void)
{
    static char base[PATH_MAX];
    if (resolve_path(base, sizeof base) != 0) {
        snprintf(path, sizeof path, "%s", "(capture path too long)");
        out_fail("name", ENAMETOOLONG);
        return -1;
    }
    snprintf(path, sizeof path, "%s", base);
    /* Never overwrite: take the first free name among base, base.1, base.2 ... */
    for (int attempt = 0; attempt < 100; attempt++) {
        if (attempt > 0) {
            char tag[16];
            snprintf(tag, sizeof tag, "%d", attempt);
            if (with_tag(base, tag, path, sizeof path) != 0) break;
        }
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644); /* read too: regions are mapped */
        if (fd >= 0) break;
        if (errno != EEXIST) {
            out_fail("create", errno);
            return -1;
        }
    }
    if (fd < 0) {
        snprintf(path, sizeof path, "%s", base);
        out_fail("create (every alternative name is taken)", EEXIST);
        return -1;
    }
    if (strcmp(path, base) != 0) {
        static char msg[2 * PATH_MAX + 64];
        int n = snprintf(msg, sizeof msg, "nvtx-capture: %s exists; writing %s instead\n", base, path);
        if (n > 0) {
            ssize_t ignored = write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
            (void)ignored;
        }
    }
    uint8_t header[NVTXC_FILE_HEADER_SIZE];
    memcpy(header, NVTXC_MAGIC, 8);
    uint8_t *p = put_u16(header + 8, NVTXC_MAJOR);
    p = put_u16(p, NVTXC_MINOR);
    put_u32(p, 0);
    struct iovec h = {header, sizeof header};
    if (write_all(&h, 1) != 0) {
        out_fail("write the capture to", errno);
        return -1;
    }
    return write_process_chunk_locked();
}

static int lazy;

int out_start(int open_now)
{
    lazy = !open_now;
    if (!open_now) return 0;
    lock_take(&nvtxc_file_lock);
    int rc = open_file_locked();
    lock_give(&nvtxc_file_lock);
    return rc;
}

int out_ready_locked(void)
{
    if (failed) return -1;
    if (fd >= 0) return 0;
    if (!lazy) return -1;
    lazy = 0;
    return open_file_locked();
}

void out_end_locked(int reason, int signal_number)
{
    if (fd < 0 || failed) return;
    struct clock_pair end = clock_pair_now();
    struct tlv t = {0};
    tlv_varints(&t, NVTXC_END_PAIR, 2, end.tick, end.ns);
    tlv_varints(&t, NVTXC_END_WALL, 1, clock_ns(CLOCK_REALTIME), 0);
    tlv_varints(&t, NVTXC_END_REASON, 2, (uint64_t)reason, (uint64_t)signal_number);
    tlv_varints(&t, NVTXC_END_EVENTS, 1, nvtxc_g.events_written, 0);
    tlv_varints(&t, NVTXC_END_LOST, 1, nvtxc_g.events_lost, 0);
    tlv_varints(&t, NVTXC_END_STREAMS, 1, nvtxc_g.streams, 0);
    tlv_varints(&t, NVTXC_END_TRUNCATED, 1, atomic_load(&nvtxc_g.strings_truncated), 0);
    if (nvtxc_g.cuda_recorded)
        tlv_varints(&t, NVTXC_END_CUDA, 2, atomic_load(&nvtxc_g.cuda_api_records), nvtxc_g.cuda_activity_records);
    if (!t.data) return;
    struct iovec part = {t.data, t.len};
    out_chunk_locked(NVTXC_CHUNK_END, &part, 1);
    free(t.data);
}

void out_after_fork_child(void)
{
    if (fd >= 0) close(fd);
    fd = -1;
    file_end = 0;
    lazy = 1;
    failed = 0;
    reported = 0;
    path[0] = 0;
}
