/* group.c - concurrent jobs on top of iom_run() (see group.h). */
#include "core/group.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jobctl.h"

/* Members wait here until every one exists: go = 1 runs, go = -1 aborts. */
struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int go;
    unsigned expect, arrived; /* members that start their clocks together, and how many are there */
    uint64_t start_ns;        /* their common start (iom_now_ns), when the last one arrived */
};

struct member {
    pthread_t tid;
    const struct iom_job *job;
    struct iom_target *targets;
    unsigned nr;
    struct iom_run_hooks hooks;
    struct gate *gate;
    struct iom_result *result;
    int rc;
    bool started;
    struct member *waitee;  /* wait_for: start once it has finished, or NULL */
    struct iom_flow *flow;  /* the job's flow weight, held from before the gate opens */
    bool lined_up, arrived; /* starts its clock with the others (no wait_for, no startdelay) */
    volatile int end;       /* set by another job's exitall: end now (hooks.end) */
    uint32_t gid;           /* reporting group */
    struct member *all;     /* every member, nr_all of them */
    unsigned nr_all;
    struct iom_group_ctl *ctl;
    bool done;              /* under gate->lock */
};

/* A job's flow weight for all its threads (flow x numjobs x targets), when the
 * caller marked it flow_reserved: joined before any job of the group starts, so
 * the first job's I/O is held to its share from the start (fio registers every
 * job's flow before any runs); released when the job has returned. */
static struct iom_flow *flow_reserve(const struct iom_job *job, unsigned nr)
{
    return job->flow && job->flow_reserved
               ? iom_flow_join(job->flow_id, job->flow * job->numjobs * nr)
               : NULL;
}

static void flow_release(const struct iom_job *job, unsigned nr, struct iom_flow *f)
{
    if (f)
        iom_flow_leave(f, 0, job->flow * job->numjobs * nr);
}

/* Wait on the gate (its lock held) for a broadcast or 50 ms, whichever comes
 * first: the callers look at a stop flag between waits. */
static void wait_a_while(struct gate *g)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 50000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&g->cond, &g->lock, &ts);
}

/* The hooks' before_start: wait until every lined-up member has its workers set up
 * (or has returned), so their measured windows start together: the instant the
 * last one arrived, which every member takes as its start (each reading its own
 * clock after the wait would start, and end, a loaded machine's members tens of
 * milliseconds apart: a flow's weight then ran free after its partner ended). */
static uint64_t line_up(void *arg)
{
    struct member *m = arg;
    pthread_mutex_lock(&m->gate->lock);
    if (!m->arrived) {
        m->arrived = true;
        if (++m->gate->arrived == m->gate->expect)
            m->gate->start_ns = iom_now_ns();
        pthread_cond_broadcast(&m->gate->cond);
    }
    while (m->gate->arrived < m->gate->expect && !(m->hooks.stop && *m->hooks.stop)) {
        wait_a_while(m->gate);
    }
    uint64_t start = m->gate->arrived >= m->gate->expect ? m->gate->start_ns : 0;
    pthread_mutex_unlock(&m->gate->lock);
    return start;
}

/* fio's exitall (backend.c fio_terminate_threads): m has returned; end the
 * jobs its exit_what names. Under the gate's lock. */
static void exit_others(struct member *m)
{
    const struct iom_job *j = m->job;
    bool failed = m->rc || (m->result && m->result->error[0]);
    if (!(j->exitall || (j->exitall_on_error && failed)))
        return;
    for (unsigned i = 0; i < m->nr_all; i++)
        if (&m->all[i] != m && (j->exit_what || m->all[i].gid == m->gid))
            m->all[i].end = 1;
    if (j->exit_what == 2 && m->ctl)
        m->ctl->ended_all = true;
}

static void *member_main(void *arg)
{
    struct member *m = arg;
    pthread_mutex_lock(&m->gate->lock);
    while (!m->gate->go)
        pthread_cond_wait(&m->gate->cond, &m->gate->lock);
    int go = m->gate->go;
    /* wait_for: after the waitee's end (a stop ends the wait too: the run then
     * returns at once, interrupted) */
    while (go > 0 && m->waitee && !m->waitee->done && !m->end &&
           !(m->hooks.stop && *m->hooks.stop)) {
        wait_a_while(m->gate);
    }
    pthread_mutex_unlock(&m->gate->lock);
    if (go > 0)
        m->rc = iom_run(m->job, m->targets, m->nr, &m->hooks, &m->result);
    flow_release(m->job, m->nr, m->flow);
    pthread_mutex_lock(&m->gate->lock);
    if (m->lined_up && !m->arrived) { /* returned before its clock started (set-up failed) */
        m->arrived = true;
        if (++m->gate->arrived == m->gate->expect)
            m->gate->start_ns = iom_now_ns();
    }
    m->done = true;
    exit_others(m);
    pthread_cond_broadcast(&m->gate->cond);
    pthread_mutex_unlock(&m->gate->lock);
    return NULL;
}

int iom_run_group(const struct iom_job *const *jobs, struct iom_target *const *targets,
                  const unsigned *nr_targets, unsigned nr_jobs, struct iom_group_ctl *ctl,
                  const struct iom_run_hooks *hooks, struct iom_result **out)
{
    const int *wait_for = ctl ? ctl->wait_for : NULL;
    for (unsigned i = 0; i < nr_jobs; i++)
        out[i] = NULL;
    if (nr_jobs == 1) {
        struct iom_flow *f = flow_reserve(jobs[0], nr_targets[0]);
        int rc1 = iom_run(jobs[0], targets[0], nr_targets[0], hooks, &out[0]);
        flow_release(jobs[0], nr_targets[0], f);
        if (ctl && jobs[0]->exit_what == 2 &&
            (jobs[0]->exitall || (jobs[0]->exitall_on_error && (rc1 || (out[0] && out[0]->error[0])))))
            ctl->ended_all = true;
        return rc1;
    }
    struct member *ms = calloc(nr_jobs, sizeof(*ms));
    if (!ms)
        return -ENOMEM;
    struct gate gate = {.go = 0};
    pthread_mutex_init(&gate.lock, NULL);
    pthread_cond_init(&gate.cond, NULL);
    int rc = 0;
    unsigned started = 0;
    for (unsigned i = 0; i < nr_jobs; i++) {
        struct member *m = &ms[i];
        m->job = jobs[i];
        m->targets = targets[i];
        m->nr = nr_targets[i];
        m->gate = &gate;
        m->all = ms;
        m->nr_all = nr_jobs;
        m->ctl = ctl;
        m->gid = ctl && ctl->groupid ? ctl->groupid[i] : 0;
        m->flow = flow_reserve(m->job, m->nr);
        if (wait_for && wait_for[i] >= 0 && (unsigned)wait_for[i] < i)
            m->waitee = &ms[wait_for[i]];
        if (hooks)
            m->hooks = *hooks;
        if (i > 0) {
            m->hooks.progress = NULL;
            m->hooks.arg = NULL;
        }
        m->lined_up = !m->waitee && !iom_startdelay_pick(m->job) && !m->hooks.sync;
        m->hooks.end = &m->end;
        if (m->lined_up) {
            m->hooks.before_start = line_up;
            m->hooks.before_start_arg = m;
            gate.expect++;
        }
        if (pthread_create(&m->tid, NULL, member_main, m) != 0) {
            rc = -EAGAIN;
            break;
        }
        m->started = true;
        started++;
    }
    pthread_mutex_lock(&gate.lock);
    gate.go = rc ? -1 : 1;
    pthread_cond_broadcast(&gate.cond);
    pthread_mutex_unlock(&gate.lock);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(ms[i].tid, NULL);
        out[i] = ms[i].result;
        if (!rc && ms[i].rc)
            rc = ms[i].rc;
    }
    pthread_mutex_destroy(&gate.lock);
    pthread_cond_destroy(&gate.cond);
    free(ms);
    return rc;
}
