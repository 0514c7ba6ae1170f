/*
 * test_tpcc_deck.c - the TPC-C transaction deck (clause 5.2.4.2) and the
 * measured-mix floors (clause 5.2.3), against counts worked out by hand:
 *  - 10:10:1:1:1 gives a 23-card deck: 10 New-Order, 10 Payment, 1 each of
 *    Delivery, Order-Status, Stock-Level;
 *  - every pass of 23 draws (for 1000 passes, 4 seeds) holds exactly those
 *    counts, so Payment is 10/23 = 43.48% >= 43% and the others 1/23 = 4.35%
 *    >= 4% after any whole number of passes; the order differs between passes;
 *  - with 0:1:0:0:0 only Payment is dealt;
 *  - measured mix 450/427/41/41/41 of 1000 calls: Payment 42.7% < 43% is the
 *    only type flagged; 440/435/42/42/41: Stock-Level 4.1% passes, none flagged;
 *    an empty run flags nothing.
 */
#include <stdio.h>
#include <string.h>

#include "tpcc/rand.h"
#include "tpcc/report.h"

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static struct tpcc_deck deck;

int main(void)
{
    const unsigned mix[TPCC_NR_TXN] = {10, 10, 1, 1, 1};
    const unsigned want[TPCC_NR_TXN] = {10, 10, 1, 1, 1}; /* by hand from the weights */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct tpcc_rng r;
        tpcc_rng_seed(&r, seed);
        tpcc_deck_init(&deck, mix);
        CHECK(deck.n == 23, "deck of %u cards, wanted 23", deck.n);
        unsigned reorders = 0;
        enum tpcc_txn_type prev[23] = {0};
        for (int pass = 0; pass < 1000; pass++) {
            unsigned cnt[TPCC_NR_TXN] = {0};
            enum tpcc_txn_type seq[23];
            for (int i = 0; i < 23; i++) {
                seq[i] = tpcc_deck_draw(&deck, &r);
                CHECK(seq[i] < TPCC_NR_TXN, "card %d out of range", (int)seq[i]);
                cnt[seq[i]]++;
            }
            for (int k = 0; k < TPCC_NR_TXN; k++)
                CHECK(cnt[k] == want[k], "seed %llu pass %d: %s %u times, wanted %u",
                      (unsigned long long)seed, pass, tpcc_txn_name[k], cnt[k], want[k]);
            if (pass && memcmp(seq, prev, sizeof(seq)))
                reorders++;
            memcpy(prev, seq, sizeof(seq));
        }
        CHECK(reorders > 900, "seed %llu: only %u of 999 passes reshuffled",
              (unsigned long long)seed, reorders);
    }
    {
        const unsigned only_pay[TPCC_NR_TXN] = {0, 1, 0, 0, 0};
        struct tpcc_rng r;
        tpcc_rng_seed(&r, 9);
        tpcc_deck_init(&deck, only_pay);
        for (int i = 0; i < 50; i++)
            CHECK(tpcc_deck_draw(&deck, &r) == TPCC_PAYMENT, "0:1:0:0:0 dealt something else");
    }
    {
        static struct tpcc_run_result x;
        const uint64_t calls[TPCC_NR_TXN] = {450, 427, 41, 41, 41};
        for (int k = 0; k < TPCC_NR_TXN; k++)
            x.txn[k].lat.ios = calls[k];
        double pct[TPCC_NR_TXN];
        unsigned below = iom_tpcc_mix_measured(&x, pct);
        CHECK(below == 1u << TPCC_PAYMENT, "below mask %#x, wanted Payment only", below);
        CHECK(pct[TPCC_PAYMENT] > 42.69 && pct[TPCC_PAYMENT] < 42.71, "Payment %.3f%%, wanted 42.7",
              pct[TPCC_PAYMENT]);
        const uint64_t ok[TPCC_NR_TXN] = {440, 435, 42, 42, 41};
        for (int k = 0; k < TPCC_NR_TXN; k++)
            x.txn[k].lat.ios = ok[k];
        below = iom_tpcc_mix_measured(&x, pct);
        CHECK(below == 0, "440/435/42/42/41 flagged %#x", below);
        CHECK(pct[TPCC_STOCK_LEVEL] > 4.09 && pct[TPCC_STOCK_LEVEL] < 4.11, "Stock-Level %.3f%%",
              pct[TPCC_STOCK_LEVEL]);
        memset(&x, 0, sizeof(x));
        CHECK(iom_tpcc_mix_measured(&x, pct) == 0, "an empty run flagged");
    }
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
