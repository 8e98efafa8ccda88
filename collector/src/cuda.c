#include "cuda.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector.h"
#include "cuda_buffers.h"
#include "cuda_callbacks.h"
#include "cuda_record.h"
#include "cupti_lib.h"
#include "cupti_locate.h"
#include "format.h"

enum cuda_state {
    CUDA_NOT_ATTACHED, /* the driver never called InitializeInjection (yet) */
    CUDA_RECORDING,
    CUDA_NOT_RECORDED, /* attaching failed; the reason was said */
    CUDA_OFF,          /* --no-cuda */
    CUDA_FORKED,       /* a fork child: CUDA does not survive fork() */
};

static _Atomic int state = CUDA_NOT_ATTACHED;
static atomic_flag attaching = ATOMIC_FLAG_INIT;
static atomic_flag reason_said = ATOMIC_FLAG_INIT;

/*
 * NVTXCAPTURE_CUDA: "0" (--no-cuda), "other" (the launcher found CUDA_INJECTION64_PATH naming
 * another tool's library and said so), else CUDA is recorded when the driver attaches us.
 */
static int cuda_wanted(void)
{
    const char *v = getenv("NVTXCAPTURE_CUDA");
    return !(v && (strcmp(v, "0") == 0 || strcmp(v, "no") == 0 || strcmp(v, "false") == 0 || strcmp(v, "other") == 0));
}

/* Why CUDA is off, for the capture (the user asked, or the launcher said why). */
static const char *off_reason(void)
{
    const char *v = getenv("NVTXCAPTURE_CUDA");
    return v && strcmp(v, "other") == 0 ? "CUDA_INJECTION64_PATH names another tool's library" : "--no-cuda";
}

/* cuDriverGetVersion of the loaded driver (called before subscribing: the collector's own call is not recorded). */
static uint32_t driver_version(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda) return 0;
    int (*get)(int *) = (int (*)(int *))dlsym(cuda, "cuDriverGetVersion");
    int v = 0;
    if (!get || get(&v) != 0) v = 0;
    dlclose(cuda);
    return (uint32_t)v;
}

/* Why CUDA is not recorded: once on stderr (unless the user turned CUDA off) and in the capture. */
static void say_why(uint32_t status, const char *reason, int print, uint32_t cupti_version, uint32_t driver)
{
    if (atomic_flag_test_and_set(&reason_said)) return;
    cuda_meta_status(status, cupti_version, driver, reason);
    if (!print) return;
    char line[PATH_MAX + 1024];
    int n = snprintf(line, sizeof line, "nvtx-capture: CUDA not recorded: %s; NVTX is recorded\n", reason);
    if (n > 0) {
        ssize_t ignored = write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)ignored;
    }
}

static void not_recorded(const char *reason, int print, uint32_t cupti_version, uint32_t driver)
{
    say_why(NVTXC_CUDA_STATUS_NOT_RECORDED, reason, print, cupti_version, driver);
}

#if NVTXC_WITH_CUPTI
static void attach_cupti(void)
{
    uint32_t driver = driver_version();
    char path[PATH_MAX], why[2048], notes[512] = "";
    int found = cupti_locate(getenv("NVTXCAPTURE_CUPTI"), path, sizeof path, why, sizeof why);
    if (found < 0) {
        atomic_store(&state, CUDA_NOT_RECORDED);
        not_recorded(why, 1, 0, driver);
        return;
    }
    char looked[2048];
    snprintf(looked, sizeof looked, "%s", why);
    if (cupti_load(path, why, sizeof why) != 0) {
        char reason[4096];
        if (found == 1) snprintf(reason, sizeof reason, "no libcupti found (looked in %s)", looked);
        else snprintf(reason, sizeof reason, "cannot load libcupti: %s", why);
        atomic_store(&state, CUDA_NOT_RECORDED);
        not_recorded(reason, 1, 0, driver);
        return;
    }
    uint32_t version = 0;
    if (cupti.GetVersion(&version) != CUPTI_SUCCESS) version = 0;
    if (cuda_callbacks_start(why, sizeof why) != 0) {
        atomic_store(&state, CUDA_NOT_RECORDED);
        not_recorded(why, 1, version, driver);
        return;
    }
    if (cuda_buffers_start(why, sizeof why, notes, sizeof notes) != 0) {
        cuda_callbacks_stop(); /* no API calls without their GPU work */
        atomic_store(&state, CUDA_NOT_RECORDED);
        not_recorded(why, 1, version, driver);
        return;
    }
    char text[PATH_MAX + 600];
    snprintf(text, sizeof text, "CUPTI from %s%s%s", cupti.path, notes[0] ? "; " : "", notes);
    cuda_meta_status(NVTXC_CUDA_STATUS_RECORDING, version, driver, text);
    nvtxc_g.cuda_recorded = 1;
    atomic_store(&state, CUDA_RECORDING);
    /*
     * Runs before the exit handlers registered earlier, among them the CUDA runtime's teardown
     * (registered when the runtime loaded, before it initialised the driver): GPU work is flushed
     * while CUPTI and the contexts still exist.
     */
    atexit(cuda_at_exit);
}
#endif

void cuda_attach(void)
{
    if (!nvtxc_capturing || atomic_flag_test_and_set(&attaching)) return; /* once: CUPTI takes one subscriber */
    if (!cuda_wanted()) {
        atomic_store(&state, CUDA_OFF);
        return;
    }
#if NVTXC_WITH_CUPTI
    attach_cupti();
#else
    atomic_store(&state, CUDA_NOT_RECORDED);
    not_recorded("this collector was built without the CUPTI headers (make -C collector CUPTI_INCLUDE=DIR)", 1, 0,
                 driver_version());
#endif
}

struct loaded {
    int runtime, driver;
};

static int visit_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct loaded *l = arg;
    const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    const char *base = slash ? slash + 1 : info->dlpi_name;
    if (!base) return 0;
    if (strncmp(base, "libcudart.so", 12) == 0) l->runtime = 1;
    if (strncmp(base, "libcuda.so", 10) == 0) l->driver = 1;
    return 0;
}

/* Why the driver never attached the collector, for a program that loaded CUDA; NULL when it did not. */
static const char *never_attached_reason(void)
{
    struct loaded l = {0, 0};
    dl_iterate_phdr(visit_object, &l);
    void *cuda = l.driver ? NULL : dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (cuda) {
        l.driver = 1;
        dlclose(cuda);
    }
    if (l.driver) {
        const char *inject = getenv("CUDA_INJECTION64_PATH");
        if (!inject || !*inject)
            return "CUDA_INJECTION64_PATH is not set (run the program with nvtx-capture, or set it to libnvtxcapture.so)";
        return "the CUDA driver was loaded but not initialised (no cuInit), or CUDA_INJECTION64_PATH names another library";
    }
    if (l.runtime) return "no CUDA driver: the program loaded the CUDA runtime, but libcuda.so.1 is not there (no NVIDIA driver)";
    return NULL;
}

void cuda_at_exit(void)
{
    /* Once: from the collector's own exit handler and from the one registered at attach (earlier). */
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (!nvtxc_capturing || atomic_flag_test_and_set(&done)) return;
    int s = atomic_load(&state);
#if NVTXC_WITH_CUPTI
    if (s == CUDA_RECORDING) {
        cuda_buffers_flush();
        /* Attached, but the driver found no GPU (cuInit failed and no context came): say so. */
        const char *failure = cuda_callbacks_init_failure();
        if (failure) say_why(NVTXC_CUDA_STATUS_STOPPED, failure, 1, 0, 0);
        return;
    }
#endif
    if (s == CUDA_NOT_ATTACHED || s == CUDA_OFF) {
        const char *reason = never_attached_reason();
        if (!reason) return;
        if (s == CUDA_OFF || !cuda_wanted()) not_recorded(off_reason(), 0, 0, 0);
        else not_recorded(reason, 1, 0, 0);
    }
}

void cuda_in_fatal_signal(int sig)
{
#if NVTXC_WITH_CUPTI
    /* Only signals from outside (a fault may come from inside CUDA), never on a thread inside CUDA. */
    int external = sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT;
    if (external && atomic_load(&state) == CUDA_RECORDING && !cuda_callbacks_thread_in_api())
        cuda_buffers_flush_in_signal();
#else
    (void)sig;
#endif
}

void cuda_after_fork_child(void)
{
    if (atomic_load(&state) != CUDA_NOT_ATTACHED) atomic_store(&state, CUDA_FORKED);
    nvtxc_g.cuda_recorded = 0;
    nvtxc_g.cuda_activity_records = 0;
    atomic_store(&nvtxc_g.cuda_api_records, 0);
}
