/*
 * fork(): the child writes its own capture (<stem>.<child pid>.nvtxc) and can use the domains and
 * registered strings its parent created. Push levels continue in the child (the parent's open
 * range is still open there), but the range itself belongs to the parent's capture.
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "emit.h"

static void *child_thread(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "child-worker");
    emit_thread(gettid(), "child-worker");
    int d = nvtxRangePushA("child thread range");
    nvtxRangePop();
    emit_pushpop("", "child thread range", d, NULL, 0, 0, NULL);
    return NULL;
}

int main(void)
{
    nvtxDomainHandle_t domain = nvtxDomainCreateA("fork domain");
    nvtxStringHandle_t reg = nvtxDomainRegisterStringA(domain, "registered before fork");
    nvtxNameCategoryA(3, "shared category");
    int outer = nvtxRangePushA("parent around fork");
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        int d = nvtxRangePushA("child work");
        nvtxRangePop();
        if (d != 1) {
            fprintf(stderr, "fork_child: push level in the child is %d, expected 1\n", d);
            return 1;
        }
        /* The parent's open range is not in the child's capture: there the child's range is at depth 0. */
        emit_pushpop("", "child work", 0, NULL, 0, 0, NULL);
        nvtxEventAttributes_t a = {0};
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.category = 3;
        a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
        a.message.registered = reg;
        nvtxDomainMarkEx(domain, &a);
        emit_mark("fork domain", "registered before fork", 3, 0, NULL);
        emit_category("", 3, "shared category");
        pthread_t t;
        pthread_create(&t, NULL, child_thread, NULL);
        pthread_join(t, NULL);
        emit_events(5);
        exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    nvtxRangePop();
    nvtxMarkA("parent after fork");
    emit_pushpop("", "parent around fork", outer, NULL, 0, 0, NULL);
    emit_mark("", "parent after fork", 0, 0, NULL);
    emit_category("", 3, "shared category");
    emit_events(3);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
