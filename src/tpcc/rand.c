/* rand.c - TPC-C random inputs (see rand.h for the clauses). */
#include "tpcc/rand.h"

#include <string.h>

const char *const tpcc_txn_name[TPCC_NR_TXN] = {"new_order", "payment", "delivery",
                                                "order_status", "stock_level"};

void tpcc_rng_seed(struct tpcc_rng *r, uint64_t seed)
{
    iom_rng_seed(&r->rng, seed);
}

uint64_t tpcc_rng_next(struct tpcc_rng *r)
{
    return iom_rng_next(&r->rng);
}

int64_t tpcc_rand_int(struct tpcc_rng *r, int64_t lo, int64_t hi)
{
    uint64_t range = (uint64_t)(hi - lo) + 1;
    if (range == 0) /* the whole 64-bit range */
        return (int64_t)tpcc_rng_next(r);
    /* Lemire's nearly divisionless method */
    unsigned __int128 m = (unsigned __int128)tpcc_rng_next(r) * range;
    uint64_t l = (uint64_t)m;
    if (l < range) {
        uint64_t t = -range % range;
        while (l < t) {
            m = (unsigned __int128)tpcc_rng_next(r) * range;
            l = (uint64_t)m;
        }
    }
    return lo + (int64_t)(m >> 64);
}

double tpcc_rand_unit(struct tpcc_rng *r)
{
    return (double)(tpcc_rng_next(r) >> 11) * 0x1.0p-53;
}

int64_t tpcc_nurand(struct tpcc_rng *r, unsigned A, int64_t x, int64_t y, unsigned C)
{
    int64_t a = tpcc_rand_int(r, 0, A), b = tpcc_rand_int(r, x, y);
    return (((a | b) + (int64_t)C) % (y - x + 1)) + x;
}

void tpcc_nurand_c_run(struct tpcc_rng *r, struct tpcc_nurand_c *c)
{
    c->c_id = (unsigned)tpcc_rand_int(r, 0, 1023);
    c->ol_i_id = (unsigned)tpcc_rand_int(r, 0, 8191);
    int delta;
    do {
        delta = (int)tpcc_rand_int(r, 65, 119);
    } while (delta == 96 || delta == 112);
    c->c_last = TPCC_C_LAST_LOAD - (unsigned)delta; /* 157 - [65,119] stays in [0, 255] */
}

char *tpcc_last_name(unsigned num, char *buf)
{
    static const char *const syl[10] = {"BAR", "OUGHT", "ABLE", "PRI", "PRES",
                                        "ESE", "ANTI", "CALLY", "ATION", "EING"};
    num %= 1000;
    strcpy(buf, syl[num / 100]);
    strcat(buf, syl[(num / 10) % 10]);
    strcat(buf, syl[num % 10]);
    return buf;
}

void tpcc_astring(struct tpcc_rng *r, unsigned lo, unsigned hi, char *buf)
{
    static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned n = (unsigned)tpcc_rand_int(r, lo, hi);
    for (unsigned i = 0; i < n; i++)
        buf[i] = al[tpcc_rand_int(r, 0, (int64_t)sizeof(al) - 2)];
    buf[n] = '\0';
}

void tpcc_nstring(struct tpcc_rng *r, unsigned lo, unsigned hi, char *buf)
{
    unsigned n = (unsigned)tpcc_rand_int(r, lo, hi);
    for (unsigned i = 0; i < n; i++)
        buf[i] = (char)('0' + tpcc_rand_int(r, 0, 9));
    buf[n] = '\0';
}

void tpcc_data_string(struct tpcc_rng *r, char *buf)
{
    tpcc_astring(r, 26, 50, buf);
    if (tpcc_rand_int(r, 1, 100) <= 10) {
        size_t n = strlen(buf);
        size_t pos = (size_t)tpcc_rand_int(r, 0, (int64_t)n - 8);
        memcpy(buf + pos, "ORIGINAL", 8);
    }
}

void tpcc_zip(struct tpcc_rng *r, char *buf)
{
    tpcc_nstring(r, 4, 4, buf);
    strcpy(buf + 4, "11111");
}

enum tpcc_txn_type tpcc_pick_txn(struct tpcc_rng *r, const unsigned weight[TPCC_NR_TXN])
{
    unsigned sum = 0;
    for (int i = 0; i < TPCC_NR_TXN; i++)
        sum += weight[i];
    unsigned x = (unsigned)tpcc_rand_int(r, 1, sum);
    for (int i = 0; i < TPCC_NR_TXN; i++) {
        if (x <= weight[i])
            return (enum tpcc_txn_type)i;
        x -= weight[i];
    }
    return TPCC_NEW_ORDER;
}

const double tpcc_mix_floor_pct[TPCC_NR_TXN] = {0, 43.0, 4.0, 4.0, 4.0};

void tpcc_deck_init(struct tpcc_deck *d, const unsigned weight[TPCC_NR_TXN])
{
    d->n = 0;
    for (int t = 0; t < TPCC_NR_TXN; t++)
        for (unsigned k = 0; k < weight[t] && d->n < TPCC_DECK_MAX; k++)
            d->card[d->n++] = (unsigned char)t;
    d->pos = d->n;
}

enum tpcc_txn_type tpcc_deck_draw(struct tpcc_deck *d, struct tpcc_rng *r)
{
    if (d->n == 0)
        return TPCC_NEW_ORDER;
    if (d->pos >= d->n) {
        for (unsigned i = d->n - 1; i > 0; i--) {  /* Fisher-Yates */
            unsigned j = (unsigned)tpcc_rand_int(r, 0, i);
            unsigned char c = d->card[i];
            d->card[i] = d->card[j];
            d->card[j] = c;
        }
        d->pos = 0;
    }
    return (enum tpcc_txn_type)d->card[d->pos++];
}
