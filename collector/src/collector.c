/* The collector's process-wide state and its locks: every other unit uses them, so they depend on nothing. */
#include "collector.h"

#include <time.h>

struct nvtxc_global nvtxc_g;
struct owned_lock nvtxc_registry_lock = OWNED_LOCK_INIT;
struct owned_lock nvtxc_file_lock = OWNED_LOCK_INIT;
struct owned_lock nvtxc_meta_lock = OWNED_LOCK_INIT;
int nvtxc_capturing;
__thread pid_t nvtxc_tid TLS_FAST;

/* ---------------------------------------------------------------- locks */

void lock_take(struct owned_lock *l)
{
    pthread_mutex_lock(&l->mutex);
    l->owner = my_tid();
}

void lock_give(struct owned_lock *l)
{
    l->owner = 0;
    pthread_mutex_unlock(&l->mutex);
}

int lock_take_in_signal(struct owned_lock *l)
{
    if (l->owner == my_tid()) return 0;
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < 1000; i++) {
        if (pthread_mutex_trylock(&l->mutex) == 0) {
            l->owner = my_tid();
            return 1;
        }
        nanosleep(&pause, NULL);
    }
    return 0;
}

void lock_reset(struct owned_lock *l)
{
    pthread_mutex_init(&l->mutex, NULL);
    l->owner = 0;
}

