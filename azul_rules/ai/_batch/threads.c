/*
 * The threads that step a batch: started with it (at its first job), kept between
 * steps, ended with it; a forked process starts its own.
 */
#include <pthread.h>
#include <unistd.h>

#include "batch.h"

/* The threads of a batch, started at its first job and kept until it is freed: each job
 * wakes them, each runs its slice, and the last to finish wakes the caller, which runs
 * slice 0 meanwhile.  A process forked from one with threads starts its own. */
typedef struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pid_t pid;                   /* the process whose threads these are */
    int workers;                 /* threads started (slices 1 ... workers) */
    unsigned long long pending;  /* threads still running the current job (atomic) */
    int stop;                    /* atomic */
    unsigned long long job;      /* counts the jobs given (atomic) */
    Slice *slices;               /* the current job's slices */
    pthread_t ids[256];
} Pool;

typedef struct {
    Pool *pool;
    int index;
} Worker;

/* A short wait for ``*value`` to differ from ``from`` without sleeping (the next step
 * of a loop comes within microseconds: a sleeping thread takes tens to wake); whether
 * it did. */
static int
spun(const volatile unsigned long long *value, unsigned long long from)
{
    enum { SPINS = 4000 };
    for (int i = 0; i < SPINS; i++) {
        if (__atomic_load_n(value, __ATOMIC_ACQUIRE) != from) {
            return 1;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    return 0;
}

static void *
work(void *arg)
{
    Worker *worker = arg;
    Pool *pool = worker->pool;
    int index = worker->index;
    PyMem_RawFree(worker);
    unsigned long long seen = 0;
    for (;;) {
        if (!spun(&pool->job, seen)) {
            pthread_mutex_lock(&pool->lock);
            while (__atomic_load_n(&pool->job, __ATOMIC_ACQUIRE) == seen && !pool->stop) {
                pthread_cond_wait(&pool->wake, &pool->lock);
            }
            pthread_mutex_unlock(&pool->lock);
        }
        if (__atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE)) {
            return NULL;
        }
        seen = __atomic_load_n(&pool->job, __ATOMIC_ACQUIRE);
        vb_run_slice(&pool->slices[index]);
        if (__atomic_sub_fetch(&pool->pending, 1, __ATOMIC_ACQ_REL) == 0) {
            pthread_mutex_lock(&pool->lock);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->lock);
        }
    }
}

/* Stops and joins the threads, frees the pool (in a forked child: the threads are the
 * parent's, only the memory is freed). */
void
vb_pool_stop(Pool *pool)
{
    if (pool == NULL) {
        return;
    }
    if (pool->pid == getpid()) {
        pthread_mutex_lock(&pool->lock);
        __atomic_store_n(&pool->stop, 1, __ATOMIC_RELEASE);
        __atomic_add_fetch(&pool->job, 1, __ATOMIC_ACQ_REL);  /* ends a spinning wait */
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
        for (int t = 1; t <= pool->workers; t++) {
            pthread_join(pool->ids[t], NULL);
        }
        pthread_cond_destroy(&pool->wake);
        pthread_cond_destroy(&pool->done);
        pthread_mutex_destroy(&pool->lock);
    }
    PyMem_RawFree(pool);
}

/* The batch's pool with up to ``wanted`` threads (as many as could be started), made
 * at the first job; NULL when none could be (the caller then runs every slice). */
static Pool *
pool_of(Games *self, int wanted)
{
    Pool *pool = self->pool;
    if (pool != NULL && pool->pid != getpid()) {
        vb_pool_stop(pool);  /* a forked child: the threads stayed with the parent */
        pool = self->pool = NULL;
    }
    if (pool != NULL) {
        return pool;
    }
    pool = PyMem_RawCalloc(1, sizeof(Pool));
    if (pool == NULL) {
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->pid = getpid();
    for (int t = 1; t <= wanted; t++) {
        Worker *worker = PyMem_RawMalloc(sizeof(Worker));
        if (worker == NULL) {
            break;
        }
        *worker = (Worker){pool, t};
        if (pthread_create(&pool->ids[t], NULL, work, worker) != 0) {
            PyMem_RawFree(worker);
            break;  /* no more threads: the caller runs the slices left */
        }
        pool->workers = t;
    }
    self->pool = pool;
    return pool;
}

/* A job over every game, split over the threads (each game on its own: the same results
 * whatever the split), with the GIL released. */
void
vb_run_job(Games *self, Job job, const void *actions, int wide, const Outputs *out)
{
    enum { MIN_SLICE = 512 };
    int threads = self->threads;
    if (threads > self->count / MIN_SLICE) {
        threads = self->count / MIN_SLICE > 0 ? (int)(self->count / MIN_SLICE) : 1;
    }
    Slice slices[256];
    for (int t = 0; t < threads; t++) {
        slices[t] = (Slice){self, job, actions, wide, out, self->count * t / threads,
                            self->count * (t + 1) / threads};
    }
    self->busy = 1;
    self->busy_pid = (long)getpid();
    Py_BEGIN_ALLOW_THREADS
    Pool *pool = threads > 1 ? pool_of(self, threads - 1) : NULL;
    int helped = pool != NULL ? pool->workers : 0;
    if (helped > 0) {
        pthread_mutex_lock(&pool->lock);
        pool->slices = slices;
        __atomic_store_n(&pool->pending, (unsigned long long)helped, __ATOMIC_RELAXED);
        __atomic_add_fetch(&pool->job, 1, __ATOMIC_ACQ_REL);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }
    vb_run_slice(&slices[0]);
    for (int t = helped + 1; t < threads; t++) {
        vb_run_slice(&slices[t]);
    }
    if (helped > 0) {
        unsigned long long left = (unsigned long long)helped;
        while (left > 0 && spun(&pool->pending, left)) {
            left = __atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE);
        }
        if (left > 0) {
            pthread_mutex_lock(&pool->lock);
            while (__atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE) > 0) {
                pthread_cond_wait(&pool->done, &pool->lock);
            }
            pthread_mutex_unlock(&pool->lock);
        }
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
}
