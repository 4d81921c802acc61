/*
 * A slower disk for benchmarks: every fsync() and fdatasync() of the
 * process (and of the processes it starts) first sleeps SLOW_FSYNC_US
 * microseconds (default 2000, a commit's fsync when the server's bars were
 * set). Used to measure the group commit where the disk, not the CPU,
 * limits it; see docs/benchmarks/server.md.
 *
 *   cc -shared -fPIC -O2 -o target/slow-fsync.so scripts/slow-fsync.c -ldl
 *   LD_PRELOAD=$PWD/target/slow-fsync.so target/release/examples/loadgen ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void wait_like_a_slow_disk(void)
{
    static long us = -1;
    if (us < 0) {
        const char *v = getenv("SLOW_FSYNC_US");
        us = v ? atol(v) : 2000;
    }
    struct timespec t = { us / 1000000, (us % 1000000) * 1000 };
    nanosleep(&t, NULL);
}

/* Waits, then calls the C library's `name`, found once into `*real`. */
static int pass_on(const char *name, int (**real)(int), int fd)
{
    if (!*real)
        *real = (int (*)(int))dlsym(RTLD_NEXT, name);
    wait_like_a_slow_disk();
    return (*real)(fd);
}

int fsync(int fd)
{
    static int (*real)(int);
    return pass_on("fsync", &real, fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    return pass_on("fdatasync", &real, fd);
}
