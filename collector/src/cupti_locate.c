#include "cupti_locate.h"

#include <dirent.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the search has found out about the process and where it looked. */
struct search {
    char *out;
    size_t cap;
    char *why;
    size_t why_cap;
    size_t why_len;
    /* Major version of the libcudart the process loaded (libcudart.so.12 -> 12), 0 when unknown. */
    int cuda_major;
    char cudart_dir[PATH_MAX];
    /* site-packages / dist-packages directories of loaded objects (a Python process: torch's libraries). */
    char site[4][PATH_MAX];
    int nsite;
};

static void looked(struct search *s, const char *dir)
{
    if (s->why_len + strlen(dir) + 3 >= s->why_cap) return;
    int n = snprintf(s->why + s->why_len, s->why_cap - s->why_len, "%s%s", s->why_len ? ", " : "", dir);
    if (n > 0) s->why_len += (size_t)n;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Version suffix of "libcupti.so.13.0.48" as a number for comparisons (13): -1 for plain libcupti.so. */
static long suffix_major(const char *name)
{
    const char *v = name + strlen("libcupti.so");
    return *v == '.' ? strtol(v + 1, NULL, 10) : -1;
}

/*
 * The libcupti in `dir`: libcupti.so.<major of the loaded libcudart> first (a CUPTI must not be
 * newer than the driver, and the one of the program's own CUDA release is the one that fits), then
 * libcupti.so, then the highest version. 1 when found (path in s->out).
 */
static int pick_in_dir(struct search *s, const char *dir)
{
    char resolved[PATH_MAX];
    if (!realpath(dir, resolved) || !is_dir(resolved)) return 0;
    looked(s, resolved);
    DIR *d = opendir(resolved);
    if (!d) return 0;
    char best[NAME_MAX + 1] = "";
    long best_rank = -3;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "libcupti.so", 11) != 0) continue;
        if (e->d_name[11] != 0 && e->d_name[11] != '.') continue;
        long major = suffix_major(e->d_name);
        /* Rank: the matching major, then the unversioned name, then by version. */
        long rank = s->cuda_major > 0 && major == s->cuda_major ? 1000000 : major < 0 ? 999999 : major;
        if (rank > best_rank || (rank == best_rank && strlen(e->d_name) < strlen(best))) {
            char candidate[PATH_MAX];
            if (snprintf(candidate, sizeof candidate, "%s/%s", resolved, e->d_name) >= (int)sizeof candidate) continue;
            if (!is_file(candidate)) continue;
            best_rank = rank;
            snprintf(best, sizeof best, "%s", e->d_name);
        }
    }
    closedir(d);
    if (!best[0]) return 0;
    return snprintf(s->out, s->cap, "%s/%s", resolved, best) < (int)s->cap;
}

static int pick_under(struct search *s, const char *base, const char *rel)
{
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/%s", base, rel) >= (int)sizeof dir) return 0;
    return pick_in_dir(s, dir);
}

static void note_site(struct search *s, const char *path)
{
    static const char *const markers[] = {"/site-packages/", "/dist-packages/"};
    for (int m = 0; m < 2; m++) {
        const char *at = strstr(path, markers[m]);
        if (!at) continue;
        size_t n = (size_t)(at - path) + strlen(markers[m]) - 1;
        if (n >= PATH_MAX) return;
        for (int i = 0; i < s->nsite; i++)
            if (strlen(s->site[i]) == n && strncmp(s->site[i], path, n) == 0) return;
        if (s->nsite == 4) return;
        memcpy(s->site[s->nsite], path, n);
        s->site[s->nsite][n] = 0;
        s->nsite++;
        return;
    }
}

static int visit_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct search *s = arg;
    const char *path = info->dlpi_name;
    if (!path || !*path) return 0;
    note_site(s, path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!s->cudart_dir[0] && strncmp(base, "libcudart.so", 12) == 0 && slash) {
        size_t n = (size_t)(slash - path);
        if (n < sizeof s->cudart_dir) {
            memcpy(s->cudart_dir, path, n);
            s->cudart_dir[n] = 0;
            if (base[12] == '.') s->cuda_major = atoi(base + 13);
        }
    }
    return 0;
}

/* The pip wheels' layouts under one site-packages directory. */
static int pick_in_site(struct search *s, const char *site)
{
    static const char *const wheels[] = {"nvidia/cuda_cupti/lib", "nvidia/cu13/lib", "nvidia/cu12/lib"};
    for (size_t i = 0; i < sizeof wheels / sizeof wheels[0]; i++)
        if (pick_under(s, site, wheels[i])) return 1;
    return 0;
}

static int pick_in_toolkit(struct search *s, const char *root)
{
    static const char *const dirs[] = {"lib64", "lib", "extras/CUPTI/lib64", "targets/x86_64-linux/lib",
                                       "targets/sbsa-linux/lib"};
    if (!root || !*root || !is_dir(root)) return 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (pick_under(s, root, dirs[i])) return 1;
    return 0;
}

/* Each entry of a ':'-separated list (PYTHONPATH), as a site directory. */
static int pick_in_path_list(struct search *s, const char *list)
{
    if (!list) return 0;
    char entry[PATH_MAX];
    while (*list) {
        const char *colon = strchr(list, ':');
        size_t n = colon ? (size_t)(colon - list) : strlen(list);
        if (n > 0 && n < sizeof entry) {
            memcpy(entry, list, n);
            entry[n] = 0;
            if (pick_in_site(s, entry)) return 1;
        }
        list += n;
        if (*list == ':') list++;
    }
    return 0;
}

static int pick_in_venv(struct search *s, const char *venv)
{
    if (!venv || !*venv) return 0;
    char lib[PATH_MAX];
    if (snprintf(lib, sizeof lib, "%s/lib", venv) >= (int)sizeof lib) return 0;
    DIR *d = opendir(lib);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "python", 6) != 0) continue;
        char site[PATH_MAX];
        if (snprintf(site, sizeof site, "%s/%s/site-packages", lib, e->d_name) >= (int)sizeof site) continue;
        found = pick_in_site(s, site);
    }
    closedir(d);
    return found;
}

static int by_version_descending(const struct dirent **a, const struct dirent **b)
{
    return -strverscmp((*a)->d_name, (*b)->d_name);
}

static int only_cuda_dirs(const struct dirent *e)
{
    return strncmp(e->d_name, "cuda-", 5) == 0;
}

int cupti_locate(const char *requested, char *out, size_t cap, char *why, size_t why_cap)
{
    struct search s;
    memset(&s, 0, sizeof s);
    s.out = out;
    s.cap = cap;
    s.why = why;
    s.why_cap = why_cap;
    if (why_cap) why[0] = 0;
    dl_iterate_phdr(visit_object, &s);

    if (requested && *requested) {
        if (is_file(requested)) {
            char *r = realpath(requested, NULL);
            snprintf(out, cap, "%s", r ? r : requested);
            free(r);
            return 0;
        }
        if (is_dir(requested) && pick_in_dir(&s, requested)) return 0;
        snprintf(why, why_cap, "%s (--cupti) is not a libcupti nor a directory that holds one", requested);
        return -1;
    }
    /* Next to the program's libcudart: the same directory (a toolkit's lib64, the cu13 wheel), the
       older toolkits' extras/CUPTI, and the cu12 wheels' sibling package. */
    if (s.cudart_dir[0]) {
        if (pick_in_dir(&s, s.cudart_dir) || pick_under(&s, s.cudart_dir, "../extras/CUPTI/lib64") ||
            pick_under(&s, s.cudart_dir, "../../cuda_cupti/lib"))
            return 0;
    }
    if (pick_in_toolkit(&s, getenv("CUDA_HOME")) || pick_in_toolkit(&s, getenv("CUDA_PATH")) ||
        pick_in_toolkit(&s, "/usr/local/cuda"))
        return 0;
    struct dirent **versions = NULL;
    int n = scandir("/usr/local", &versions, only_cuda_dirs, by_version_descending);
    int found = 0;
    for (int i = 0; i < n; i++) {
        char root[PATH_MAX];
        if (!found && snprintf(root, sizeof root, "/usr/local/%s", versions[i]->d_name) < (int)sizeof root)
            found = pick_in_toolkit(&s, root);
        free(versions[i]);
    }
    free(versions);
    if (found) return 0;
    for (int i = 0; i < s.nsite; i++)
        if (pick_in_site(&s, s.site[i])) return 0;
    if (pick_in_path_list(&s, getenv("PYTHONPATH")) || pick_in_venv(&s, getenv("VIRTUAL_ENV"))) return 0;
    /* Last: the loader's own search (LD_LIBRARY_PATH, ld.so.cache), by name. */
    looked(&s, "the loader's search path");
    if (s.cuda_major > 0) snprintf(out, cap, "libcupti.so.%d", s.cuda_major);
    else snprintf(out, cap, "%s", "libcupti.so");
    return 1;
}
