#include "lifecycle.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collector.h"
#include "crc32c.h"
#include "cuda.h"
#include "payload.h"
#include "guard.h"
#include "handles.h"
#include "meta.h"
#include "output.h"
#include "region.h"
#include "stream.h"

#define DEFAULT_BUFFER_KB 256

/* ---------------------------------------------------------------- finishing */

static void report_written(void)
{
    if (!nvtxc_g.report_at_exit || !out_is_open()) return;
    char msg[PATH_MAX + 128];
    int n = snprintf(msg, sizeof msg, "nvtx-capture: process %d wrote %llu event records to %s\n", (int)nvtxc_g.pid,
                     (unsigned long long)nvtxc_g.events_written, out_path());
    if (n > 0) {
        ssize_t ignored = write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
        (void)ignored;
    }
}

static void on_exit_flush(void)
{
    if (!nvtxc_capturing) return;
    cuda_at_exit();
    ext_at_exit();
    guard_note_totals();
    stream_note_self_name();
    lock_take(&nvtxc_registry_lock);
    lock_take(&nvtxc_file_lock);
    stream_flush_all_locked(1);
    out_end_locked(NVTXC_REASON_EXIT, 0);
    lock_give(&nvtxc_file_lock);
    lock_give(&nvtxc_registry_lock);
    report_written();
}

/*
 * Static destructors of the program (registered before the collector attached) run after our exit
 * handler and may still make NVTX calls; the library's own destructor runs after them and writes
 * what they recorded (chunks after END are valid).
 */
__attribute__((destructor)) static void on_unload(void)
{
    if (!nvtxc_capturing || !out_is_open()) return;
    lock_take(&nvtxc_registry_lock);
    lock_take(&nvtxc_file_lock);
    stream_flush_all_locked(1);
    lock_give(&nvtxc_file_lock);
    lock_give(&nvtxc_registry_lock);
}

/* ---------------------------------------------------------------- signals */

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[NFATAL];

static void on_fatal_signal(int sig)
{
    int saved = errno;
    size_t k = 0;
    while (k < NFATAL && fatal_signals[k] != sig) k++;
    int program_handles_it = k < NFATAL && previous[k].sa_handler != SIG_DFL;
    /* GPU work still in CUPTI's buffers, when the signal ends the process (before our locks are taken). */
    if (nvtxc_capturing && !program_handles_it) cuda_in_fatal_signal(sig);
    if (nvtxc_capturing) {
        /* Never wait on a lock this thread holds (the signal may have interrupted a flush). */
        int registry = lock_take_in_signal(&nvtxc_registry_lock);
        if (lock_take_in_signal(&nvtxc_file_lock)) {
            if (registry) stream_flush_all_locked(0);
            else meta_flush_locked();
            if (!program_handles_it) out_end_locked(NVTXC_REASON_SIGNAL, sig);
            /*
             * When the signal ends the process, the file lock stays taken: another thread whose
             * buffer fills between here and the process's end would otherwise start a chunk the
             * end cuts short (the capture would end inside a chunk). Every writer takes this lock.
             */
            if (program_handles_it) lock_give(&nvtxc_file_lock);
        }
        if (registry) lock_give(&nvtxc_registry_lock);
    }
    /* Hand the signal to what was there before us: the default action or the program's handler. */
    if (k < NFATAL) sigaction(sig, &previous[k], NULL);
    else signal(sig, SIG_DFL);
    if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) raise(sig);
    /* Synchronous faults re-occur when the handler returns and meet the restored disposition. */
    errno = saved;
}

static void install_signal_handlers(void)
{
    for (size_t k = 0; k < NFATAL; k++) {
        struct sigaction old;
        if (sigaction(fatal_signals[k], NULL, &old) != 0) continue;
        if (old.sa_handler == SIG_IGN) continue; /* e.g. SIGHUP under nohup: leave it ignored */
        previous[k] = old;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(fatal_signals[k], &sa, NULL);
    }
}

/* ---------------------------------------------------------------- fork */

static void fork_prepare(void)
{
    lock_take(&nvtxc_registry_lock);
    handles_fork_prepare();
    lock_take(&nvtxc_file_lock);
    lock_take(&nvtxc_meta_lock);
}

static void fork_parent(void)
{
    lock_give(&nvtxc_meta_lock);
    lock_give(&nvtxc_file_lock);
    handles_fork_release();
    lock_give(&nvtxc_registry_lock);
}

static int env_flag(const char *name, int fallback);

static void fork_child(void)
{
    nvtxc_tid = 0;
    lock_reset(&nvtxc_meta_lock);
    lock_reset(&nvtxc_file_lock);
    handles_fork_release();
    lock_reset(&nvtxc_registry_lock);
    nvtxc_g.parent_pid = nvtxc_g.pid;
    nvtxc_g.pid = getpid();
    nvtxc_g.capture_start_tick = tick_now();
    nvtxc_g.wall_start_ns = clock_ns(CLOCK_REALTIME);
    nvtxc_g.events_written = 0;
    nvtxc_g.events_lost = 0;
    nvtxc_g.report_at_exit = env_flag("NVTXCAPTURE_REPORT", 0);
    out_after_fork_child();
    meta_after_fork_child();
    if (!nvtxc_g.capture_children) nvtxc_capturing = 0;
    cuda_after_fork_child();
    stream_after_fork_child();
}

/* ---------------------------------------------------------------- setup */

static int env_flag(const char *name, int fallback)
{
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    return strcmp(v, "0") != 0 && strcmp(v, "no") != 0 && strcmp(v, "false") != 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void global_init(void)
{
    nvtxc_g.pid = getpid();
    const char *for_pid = getenv("NVTXCAPTURE_PID");
    int descendant = for_pid && *for_pid && atoi(for_pid) != (int)nvtxc_g.pid;
    nvtxc_g.capture_children = env_flag("NVTXCAPTURE_CHILDREN", 1);
    if (descendant && !nvtxc_g.capture_children) return;
    /* nvtx-capture reports on the process it started; descendants report themselves. */
    nvtxc_g.report_at_exit = descendant && env_flag("NVTXCAPTURE_REPORT", 0);

    long kb = DEFAULT_BUFFER_KB;
    const char *b = getenv("NVTXCAPTURE_BUFFER_KB");
    if (b && *b) kb = strtol(b, NULL, 10);
    if (kb < 64) kb = 64;
    if (kb > 16 * 1024) kb = 16 * 1024; /* a chunk stays far below what readers accept */
    nvtxc_g.buffer_size = (size_t)kb * 1024;

    if (!env_flag("NVTXCAPTURE_MAP", 1)) region_disable();
    clock_choose(getenv("NVTXCAPTURE_CLOCK"));
    crc32c_init();
    nvtxc_g.tick_rate = clock_measure_rate();
    nvtxc_g.start = clock_pair_now();
    nvtxc_g.capture_start_tick = nvtxc_g.start.tick;
    nvtxc_g.wall_start_ns = clock_ns(CLOCK_REALTIME);

    if (out_start(1) != 0) return; /* out_start said why on stderr */
    stream_key_init();
    nvtxc_capturing = 1;
    atexit(on_exit_flush);
    install_signal_handlers();
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

int lifecycle_init_once(void)
{
    pthread_once(&once, global_init);
    return nvtxc_capturing;
}
