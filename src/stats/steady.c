/* steady.c - fio's steady-state criteria (steady.h; fio 3.33 steadystate.c). */
#include "stats/steady.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int iom_ss_init(struct iom_ss *ss, uint32_t state, double limit, uint32_t dur)
{
    *ss = (struct iom_ss){.state = state, .limit = limit, .dur = dur};
    if (!dur)
        return -EINVAL;
    ss->iops = calloc(dur, sizeof(*ss->iops));
    ss->bw = calloc(dur, sizeof(*ss->bw));
    if (!ss->iops || !ss->bw) {
        iom_ss_free(ss);
        return -ENOMEM;
    }
    uint64_t n = dur;
    ss->sum_x = n * (n - 1) / 2;
    ss->sum_x_sq = (n - 1) * n * (2 * n - 1) / 6;
    return 0;
}

void iom_ss_free(struct iom_ss *ss)
{
    free(ss->iops);
    free(ss->bw);
    ss->iops = ss->bw = NULL;
}

static uint64_t y_at(const struct iom_ss *ss, uint32_t i)
{
    return ss->state & IOM_SS_IOPS ? ss->iops[i] : ss->bw[i];
}

/* fio steadystate_slope, once the window is full */
static bool judge_slope(struct iom_ss *ss, uint64_t new_val)
{
    if (!ss->full) {
        ss->sum_y = 0;
        for (uint32_t i = 0; i < ss->dur; i++) {
            ss->sum_y += y_at(ss, i);
            ss->sum_xy += i * y_at(ss, (ss->head + i) % ss->dur);
        }
        ss->full = true;
    } else { /* the oldest sample out, the new one in (x shifts by one) */
        ss->sum_y -= ss->oldest_y;
        ss->sum_y += new_val;
        ss->sum_xy = ss->sum_xy - ss->sum_y + ss->dur * new_val;
    }
    ss->oldest_y = y_at(ss, ss->head);
    double n = ss->dur;
    ss->slope = ((double)ss->sum_xy - (double)ss->sum_x * (double)ss->sum_y / n) /
                ((double)ss->sum_x_sq - (double)ss->sum_x * (double)ss->sum_x / n);
    if (ss->state & IOM_SS_PCT) /* fio: the mean in whole units (integer division) */
        ss->criterion = 100.0 * ss->slope / (double)(ss->sum_y / ss->dur);
    else
        ss->criterion = ss->slope;
    double result = ss->criterion < 0.0 ? -ss->criterion : ss->criterion;
    return result < ss->limit;
}

/* fio steadystate_deviation, once the window is full */
static bool judge_deviation(struct iom_ss *ss)
{
    if (!ss->full) {
        ss->sum_y = 0;
        for (uint32_t i = 0; i < ss->dur; i++)
            ss->sum_y += y_at(ss, i);
        ss->full = true;
    } else {
        ss->sum_y -= ss->oldest_y;
        ss->sum_y += y_at(ss, ss->tail);
    }
    ss->oldest_y = y_at(ss, ss->head);
    double mean = (double)ss->sum_y / ss->dur;
    ss->deviation = 0.0;
    for (uint32_t i = 0; i < ss->dur; i++) {
        double diff = (double)y_at(ss, i) - mean;
        diff = diff < 0.0 ? -diff : diff;
        if (diff > ss->deviation)
            ss->deviation = diff;
    }
    ss->criterion = ss->state & IOM_SS_PCT ? 100.0 * ss->deviation / mean : ss->deviation;
    return ss->criterion < ss->limit;
}

bool iom_ss_add(struct iom_ss *ss, uint64_t iops, uint64_t bw)
{
    if (ss->attained || !ss->dur)
        return ss->attained;
    ss->bw[ss->tail] = bw;
    ss->iops[ss->tail] = iops;
    if (ss->full || ss->tail - ss->head == ss->dur - 1) {
        bool met = ss->state & IOM_SS_SLOPE ? judge_slope(ss, ss->state & IOM_SS_IOPS ? iops : bw)
                                            : judge_deviation(ss);
        if (met) {
            ss->attained = true;
            return true;
        }
    }
    ss->tail = (ss->tail + 1) % ss->dur;
    if (ss->tail <= ss->head)
        ss->head = (ss->head + 1) % ss->dur;
    return false;
}

void iom_ss_data(const struct iom_ss *ss, uint64_t *iops, uint64_t *bw)
{
    uint32_t j = ss->attained || !ss->full ? ss->head : ss->head == 0 ? ss->dur - 1 : ss->head - 1;
    for (uint32_t l = 0; l < ss->dur; l++) {
        uint32_t k = (j + l) % ss->dur;
        iops[l] = ss->iops[k];
        bw[l] = ss->bw[k];
    }
}

static uint64_t mean_of(const uint64_t *v, uint32_t n)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += v[i];
    return n ? sum / n : 0;
}

uint64_t iom_ss_iops_mean(const struct iom_ss *ss)
{
    return mean_of(ss->iops, ss->dur);
}

uint64_t iom_ss_bw_mean(const struct iom_ss *ss)
{
    return mean_of(ss->bw, ss->dur);
}

void iom_ss_name(uint32_t state, double limit, char *buf, unsigned len)
{
    snprintf(buf, len, "%s%s:%f%s", state & IOM_SS_IOPS ? "iops" : "bw",
             state & IOM_SS_SLOPE ? "_slope" : "", (float)limit, state & IOM_SS_PCT ? "%" : "");
}
