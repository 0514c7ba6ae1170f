/*
 * rand.h - TPC-C input generators: uniform random numbers, NURand, the
 * random strings and customer last names of the TPC-C specification
 * (revision 5.11, clauses 2.1.6 and 4.3.2), and the transaction-mix picker.
 *
 * The generator is xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64; one state per thread, no locking.
 */
#ifndef IOMARK_TPCC_RAND_H
#define IOMARK_TPCC_RAND_H

#include "core/offsets.h"
#include <stddef.h>
#include <stdint.h>

/* The generator is iomark's xoshiro256** (core/offsets.h), one per virtual user. */
struct tpcc_rng {
    struct iom_rng rng;
};

/* The NURand run-time constants C (clause 2.1.6). */
struct tpcc_nurand_c {
    unsigned c_last;   /* for A = 255 (customer last name) */
    unsigned c_id;     /* for A = 1023 (customer id) */
    unsigned ol_i_id;  /* for A = 8191 (item id) */
};

/* C of the last-name NURand used when loading (any value in [0, 255]; fixed
 * so that a run started later can choose its C with a valid delta). */
#define TPCC_C_LAST_LOAD 157u

/* Seed the generator; equal seeds give equal streams. */
void tpcc_rng_seed(struct tpcc_rng *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t tpcc_rng_next(struct tpcc_rng *r);

/* Uniform integer in [lo, hi] (lo <= hi), without modulo bias. */
int64_t tpcc_rand_int(struct tpcc_rng *r, int64_t lo, int64_t hi);

/* Uniform real in [0, 1). */
double tpcc_rand_unit(struct tpcc_rng *r);

/*
 * NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x,
 * clause 2.1.6, with C the run-time constant for this A.
 */
int64_t tpcc_nurand(struct tpcc_rng *r, unsigned A, int64_t x, int64_t y, unsigned C);

/*
 * Run-time C constants: c_id in [0, 1023], ol_i_id in [0, 8191] uniform;
 * c_last = TPCC_C_LAST_LOAD - delta with delta in [65, 119] and not 96 or
 * 112, so |C_run - C_load| obeys clause 2.1.6.1.
 */
void tpcc_nurand_c_run(struct tpcc_rng *r, struct tpcc_nurand_c *c);

/*
 * Customer last name of number num in [0, 999]: three syllables of
 * BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING chosen by its digits
 * (clause 4.3.2.3). buf needs 16 bytes. Returns buf.
 */
char *tpcc_last_name(unsigned num, char *buf);

/* Random a-string (letters and digits) of length in [lo, hi]; buf needs hi + 1. */
void tpcc_astring(struct tpcc_rng *r, unsigned lo, unsigned hi, char *buf);

/* Random n-string (digits) of length in [lo, hi]; buf needs hi + 1. */
void tpcc_nstring(struct tpcc_rng *r, unsigned lo, unsigned hi, char *buf);

/* i_data / s_data: a-string of 26..50 characters, 10% of them with "ORIGINAL"
 * at a random position (clause 4.3.3.1). buf needs 51 bytes. */
void tpcc_data_string(struct tpcc_rng *r, char *buf);

/* Zip code: 4 random digits then "11111" (clause 4.3.2.7). buf needs 10 bytes. */
void tpcc_zip(struct tpcc_rng *r, char *buf);

/* Transaction types, in the order of the --mix option. */
enum tpcc_txn_type {
    TPCC_NEW_ORDER,
    TPCC_PAYMENT,
    TPCC_DELIVERY,
    TPCC_ORDER_STATUS,
    TPCC_STOCK_LEVEL,
    TPCC_NR_TXN
};

/* JSON/text names: new_order, payment, delivery, order_status, stock_level. */
extern const char *const tpcc_txn_name[TPCC_NR_TXN];

/* Pick a type with probability weight[t] / sum(weight); the sum must be > 0. */
enum tpcc_txn_type tpcc_pick_txn(struct tpcc_rng *r, const unsigned weight[TPCC_NR_TXN]);

/*
 * The transaction deck of TPC-C clause 5.2.4.2 (revision 5.11): each virtual
 * user deals its types from a deck holding weight[t] cards of type t,
 * shuffled (Fisher-Yates, with r) before every pass, so that every pass of
 * sum(weight) transactions has exactly the weights' mix and a run cannot
 * drift below the minimum percentages of clause 5.2.3 the way independent
 * draws can. With 10:10:1:1:1 a pass is 23 cards: Payment 43.5% (floor 43),
 * Delivery, Order-Status and Stock-Level 4.3% each (floor 4).
 */
#define TPCC_DECK_MAX (TPCC_NR_TXN * 1000)  /* the CLI allows weights 0..1000 */
struct tpcc_deck {
    unsigned char card[TPCC_DECK_MAX];
    unsigned n, pos;  /* cards in the deck; next card (n: shuffle first) */
};

/* Fill d with weight[t] cards of each type (each weight <= 1000, sum > 0). */
void tpcc_deck_init(struct tpcc_deck *d, const unsigned weight[TPCC_NR_TXN]);

/* The next card; shuffles the deck with r at the start of every pass. */
enum tpcc_txn_type tpcc_deck_draw(struct tpcc_deck *d, struct tpcc_rng *r);

/* TPC-C clause 5.2.3 minimum shares of the mix in percent (0 for New-Order,
 * which has none): Payment 43, Delivery 4, Order-Status 4, Stock-Level 4. */
extern const double tpcc_mix_floor_pct[TPCC_NR_TXN];

#endif
