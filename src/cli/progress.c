/* progress.c - the progress line with the overall time left (see progress.h). */
#include "cli/progress.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <sys/ioctl.h>
#endif

#include "cli/cli.h"
#include "report/report.h"

enum mode { MODE_OFF, MODE_TTY, MODE_STATUS };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    enum mode mode;
    bool thread;              /* ticker started */
    bool active;              /* a step, phase or pause is under way: draw */
    bool drawn;               /* a terminal line is on screen */
    char cmd[32];
    unsigned k, n;            /* run k of n (k 0: none started yet) */
    char name[96];
    double total_s;           /* planned seconds of everything, < 0 unknown */
    double done_s;            /* planned seconds of finished steps and pauses */
    bool mb;                  /* MB/s rather than MiB/s */
    uint64_t step_t0;         /* start of the step, pause or phase, ns */
    double ramp_s, run_s, cool_s;
    bool in_step;             /* between iom_cli_progress_step and its end */
    bool pausing;
    bool done;                /* the runner's last figures came: the step's final line */
    int shown_phase;          /* the step's latest phase shown (enum step_phase): never goes back */
    double pause_s;
    char phase[32];           /* a phase the runner does not drive; "" none */
    uint64_t phase_t0;        /* when that phase began, ns */
    double phase_frac;        /* its part done, 0..1; < 0 unknown */
    char detail[128];
    char rates[96];           /* "" until the first figures */
    uint64_t fig_from_ns, fig_to_ns; /* the window the figures in rates cover (0: none yet) */
    uint64_t interval_ns;     /* status lines (not a terminal) */
    uint64_t next_status_ns;
    uint64_t last_draw_ns;
    const char *ramp_word;
    char last[400];           /* the line last printed (a status line) or on screen */
    bool own_steps;           /* steps of iom_cli_progress_step_at: no runner figures come */
} P;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void iom_cli_format_eta(double s, char *buf, unsigned len)
{
    if (s < 0) {
        snprintf(buf, len, "--:--");
        return;
    }
    unsigned long t = (unsigned long)(s + 0.999);   /* round up: 0.2 s left shows 00:01 */
    if (t >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%02lu:%02lu", t / 60, t % 60);
}

static double planned_step_s(void)
{
    if (P.pausing)
        return P.pause_s;
    if (P.run_s <= 0)
        return -1;
    return P.ramp_s + P.run_s + P.cool_s;
}

/* under mu */
static double eta_locked(uint64_t now)
{
    if (P.total_s < 0)
        return -1;
    double used = P.done_s;
    if (P.active && (P.in_step || P.pausing)) {
        double plan = planned_step_s();
        if (plan < 0)
            return -1;
        double el = (double)(now - P.step_t0) / 1e9;
        used += el < plan ? el : plan;
    }
    double left = P.total_s - used;
    if (left < 0)
        left = 0;
    /* a preparation or a load that reports how far it is: the rest of it at
     * the rate so far (its elapsed time times undone/done), as the plan's
     * seconds do not hold it; fio's eta leaves its file layout out */
    if (P.active && P.phase[0] && !P.pausing && P.phase_frac > 0 && P.phase_frac < 1) {
        double el = (double)(now - P.phase_t0) / 1e9;
        left += el * (1 - P.phase_frac) / P.phase_frac;
    }
    return left;
}

double iom_cli_progress_eta(void)
{
    pthread_mutex_lock(&mu);
    double e = eta_locked(now_ns());
    pthread_mutex_unlock(&mu);
    return e;
}

/* A step's phases in order, and the one at t seconds into the step. */
enum step_phase { PH_RAMP, PH_MEASURE, PH_COOL, PH_PAST };

static int phase_at(double t)
{
    if (t < P.ramp_s)
        return PH_RAMP;
    if (P.run_s <= 0 || t < P.ramp_s + P.run_s)
        return PH_MEASURE;
    return t < P.ramp_s + P.run_s + P.cool_s ? PH_COOL : PH_PAST;
}

/* The line's parts (compose), put together by assemble: "LEAD NAME: BODY,
 * DETAIL, RATES [eta mm:ss]" ("mark 7/40 SEQ1M Q8T1 read run 2/5: measuring
 * 2/5 s, 1234 IOPS, 456.7 MB/s [eta 06:58]"; "run: preparing, creating
 * x.dat: 45% [eta --:--]"). */
struct line {
    char lead[48];       /* "run 1/1", "mark" */
    const char *name;    /* the step's name, "" none */
    char body[64];       /* "measuring 2/5 s", "preparing", "pause 3/5 s before 8/40" */
    char detail[128];    /* "creating x.dat: 45%", "" none */
    const char *rsep;    /* before the figures: ", " or ", partial: " */
    char rates[96];      /* the figures, "" none */
    char eta[24];        /* "[eta 06:58]"; "" none (a step stopped by a signal) */
};

/* Compose the line's parts now (under mu). */
static void compose(struct line *L, uint64_t now)
{
    memset(L, 0, sizeof(*L));
    L->name = "";
    L->rsep = ", ";
    char eta[16];
    iom_cli_format_eta(eta_locked(now), eta, sizeof(eta));
    snprintf(L->eta, sizeof(L->eta), "[eta %s]", eta);
    double el = (double)(now - P.step_t0) / 1e9;
    if (P.pausing) {
        snprintf(L->lead, sizeof(L->lead), "%s", P.cmd);
        snprintf(L->body, sizeof(L->body), "pause %lu/%.0f s before %u/%u",
                 (unsigned long)(el < P.pause_s ? el : P.pause_s), P.pause_s, P.k + 1, P.n);
        return;
    }
    if (P.k) {
        snprintf(L->lead, sizeof(L->lead), "%s %u/%u", P.cmd, P.k, P.n);
        L->name = P.name;
    } else {
        snprintf(L->lead, sizeof(L->lead), "%s", P.cmd);
    }
    if (P.done) {   /* a stopped step says so: its figures are partial, nothing is left */
        int sig = iom_cli_stop;
        snprintf(L->rates, sizeof(L->rates), "%s", P.rates);
        if (sig) {
            snprintf(L->body, sizeof(L->body), "interrupted by %s", iom_signal_name(sig));
            L->rsep = ", partial: ";
            L->eta[0] = 0;
        } else {
            snprintf(L->body, sizeof(L->body), "done");
        }
        return;
    }
    if (P.phase[0] || !P.in_step) {
        snprintf(L->body, sizeof(L->body), "%s", P.phase[0] ? P.phase : "finishing");
        snprintf(L->detail, sizeof(L->detail), "%s", P.detail);
        return;
    }
    /* Figures are shown with their own time: the phase they came from (their
     * window's middle), the seconds and the eta at their window's end, so
     * the counter never steps to a second whose figures have not come (the
     * figures of the last warm-up second read "warm-up 3/3 s", not
     * "measuring 0/5 s"; a redraw just before second 5's figures still says
     * 4 s with second 4's). They stay while the next ones are at most a
     * second late (2 s old; with --status-interval, the interval + 2 s);
     * older ones (a busy machine) do not hold the clock back: the line then
     * says where the step is now, without figures. Before the step's first
     * figures the line holds at its start for up to 2 s ("warm-up 0/1 s"
     * until the first second's figures come, not "measuring 0/5 s" drawn
     * just before them; a step of iom_cli_progress_step_at gets no figures
     * and follows the clock). The phase shown never goes back (late warm-up
     * figures after a measuring line), and figures show only under their
     * own phase's name. */
    bool with_rates = false;
    uint64_t t_line = now;
    if (!P.own_steps && !(P.rates[0] && P.fig_to_ns >= P.step_t0) && now - P.step_t0 < 2000000000u)
        t_line = P.step_t0;
    el = (double)(t_line - P.step_t0) / 1e9;
    int ph_now = phase_at(el);
    if (P.rates[0] && P.fig_to_ns >= P.step_t0) {
        double mid = ((double)(P.fig_from_ns - P.step_t0) + (double)(P.fig_to_ns - P.step_t0)) / 2e9;
        int fig_ph = phase_at(mid);
        uint64_t hold_ns = 2000000000u + (P.mode == MODE_STATUS ? P.interval_ns : 0);
        if ((P.fig_to_ns > now || now - P.fig_to_ns < hold_ns) && fig_ph >= P.shown_phase) {
            ph_now = fig_ph;
            t_line = P.fig_to_ns;
            el = (double)(t_line - P.step_t0) / 1e9;
            with_rates = true;
        }
    }
    if (ph_now < P.shown_phase)
        ph_now = P.shown_phase;
    P.shown_phase = ph_now;
    iom_cli_format_eta(eta_locked(t_line), eta, sizeof(eta));
    snprintf(L->eta, sizeof(L->eta), "[eta %s]", eta);
    const char *ph;
    double in, of;
    if (ph_now == PH_RAMP) {
        ph = P.ramp_word ? P.ramp_word : "warm-up";
        in = el;
        of = P.ramp_s;
    } else if (ph_now == PH_MEASURE) {
        ph = "measuring";
        in = el - P.ramp_s;
        of = P.run_s;
    } else if (ph_now == PH_COOL) {
        ph = "cool-down";
        in = el - P.ramp_s - P.run_s;
        of = P.cool_s;
    } else {   /* past the plan: threads stopping, last figures */
        snprintf(L->body, sizeof(L->body), "finishing");
        return;
    }
    if (in < 0)
        in = 0;
    if (of > 0 && in > of)
        in = of;
    /* whole seconds elapsed, as a clock shows them (the eta rounds up) */
    if (of > 0)
        snprintf(L->body, sizeof(L->body), "%s %lu/%.0f s", ph, (unsigned long)in, of);
    else
        snprintf(L->body, sizeof(L->body), "%s %lu s", ph, (unsigned long)in);
    if (with_rates)
        snprintf(L->rates, sizeof(L->rates), "%s", P.rates);
}

/* How much of the line assemble puts in (see fit_line). */
struct shape {
    bool lead, name;
    int rates;          /* 2 all the figures, 1 the last ("456.7 MB/s"), 0 none */
    size_t detail_w;    /* the detail at most this wide (cut in its middle), 0 none */
    size_t body_w;      /* the body at most this wide (cut at its end), 0 none */
};

/* Append s, at most n bytes of it, at buf[*o] (len bytes in all). */
static void put(char *buf, size_t len, size_t *o, const char *s, size_t n)
{
    size_t l = strlen(s);
    if (l > n)
        l = n;
    if (*o + 1 >= len)
        return;
    if (l > len - 1 - *o)
        l = len - 1 - *o;
    memcpy(buf + *o, s, l);
    *o += l;
    buf[*o] = 0;
}

/* Bytes of s that end on a character's boundary, at most n (UTF-8: a cut
 * never splits a character). */
static size_t utf8_head(const char *s, size_t n)
{
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

/* Put s at most w bytes wide: whole, or its start, "..." and (middle) its
 * end, or its start and "..." (!middle); nothing when w < 4. */
static void put_cut(char *buf, size_t len, size_t *o, const char *s, size_t w, bool middle)
{
    size_t l = strlen(s);
    if (l <= w) {
        put(buf, len, o, s, l);
        return;
    }
    if (w < 4)
        return;
    size_t keep = w - 3, head = middle ? keep / 2 : keep;
    put(buf, len, o, s, utf8_head(s, head));
    put(buf, len, o, "...", 3);
    if (middle) {
        const char *t = s + l - (keep - head);
        while (((unsigned char)*t & 0xC0) == 0x80)
            t++;
        put(buf, len, o, t, strlen(t));
    }
}

/* The line of parts L in shape s. */
static void assemble(char *buf, size_t len, const struct line *L, const struct shape *s)
{
    size_t o = 0;
    buf[0] = 0;
    if (s->lead) {
        put(buf, len, &o, L->lead, SIZE_MAX);
        if (s->name && L->name[0]) {
            put(buf, len, &o, " ", 1);
            put(buf, len, &o, L->name, SIZE_MAX);
        }
        put(buf, len, &o, ": ", 2);
    }
    put_cut(buf, len, &o, L->body, s->body_w, false);
    if (L->detail[0] && s->detail_w) {
        put(buf, len, &o, ", ", 2);
        put_cut(buf, len, &o, L->detail, s->detail_w, true);
    }
    const char *rates = s->rates ? L->rates : "";
    const char *last = s->rates == 1 ? strrchr(rates, ',') : NULL;
    if (last)
        rates = last + 2;   /* past ", " */
    if (rates[0]) {
        put(buf, len, &o, L->rsep, SIZE_MAX);
        put(buf, len, &o, rates, SIZE_MAX);
    }
    if (L->eta[0]) {
        if (o)
            put(buf, len, &o, " ", 1);
        put(buf, len, &o, L->eta, SIZE_MAX);
    }
}

/* The line of parts L in fewer than cols columns (0: no limit). A narrow
 * terminal gets what the step is doing and the whole "[eta mm:ss]" longest:
 * the figures but the last go first, then the step's name, then the last
 * figure; then the detail is cut in its middle ("creating /mnt/...x.dat:
 * 45%"), then the lead ("run 1/1: ") goes with the detail, then the body is
 * cut at its end ("measu..."), then it goes; only a terminal narrower than
 * the "[eta mm:ss]" itself gets that cut. */
static void fit_line(char *buf, size_t len, const struct line *L, size_t cols)
{
    struct shape s = {.lead = true, .name = true, .rates = 2, .detail_w = SIZE_MAX,
                      .body_w = SIZE_MAX};
    const size_t w = cols > 1 ? cols - 1 : 0;   /* a full line would wrap on some terminals */
    for (int step = 0;; step++) {
        struct shape t;
        switch (step) {
        case 0:
            break;
        case 1:
            s.rates = 1;
            break;
        case 2:
            s.name = false;
            break;
        case 3:
            s.rates = 0;
            break;
        case 4:   /* the detail in what is left, or none */
        case 5:
            s.lead = step == 4;
            t = s;
            t.detail_w = 0;
            assemble(buf, len, L, &t);
            s.detail_w = strlen(buf) + 2 + 8 <= w ? w - strlen(buf) - 2 : 0;
            break;
        case 6:   /* the body in what is left, or none */
            s.detail_w = 0;
            t = s;
            t.body_w = 0;
            assemble(buf, len, L, &t);
            s.body_w = strlen(buf) + 1 + 4 <= w ? w - strlen(buf) - 1 : 0;
            break;
        default:   /* narrower than the eta: cut */
            if (strlen(buf) > w)
                buf[utf8_head(buf, w)] = 0;
            return;
        }
        assemble(buf, len, L, &s);
        if (!w || strlen(buf) <= w)
            return;
    }
}

/* Width of the terminal on stderr, 80 when unknown. */
static size_t terminal_columns(void)
{
#ifdef _WIN32
    CONSOLE_SCREEN_BUFFER_INFO ci;
    if (GetConsoleScreenBufferInfo(GetStdHandle(STD_ERROR_HANDLE), &ci) &&
        ci.srWindow.Right - ci.srWindow.Left > 1)
        return (size_t)(ci.srWindow.Right - ci.srWindow.Left + 1);
    return 80;
#else
    struct winsize ws;
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col : 80;
#endif
}

/* Draw or print the line (under mu). A line that says nothing new (the same
 * text as the status line printed last, or as the line on the terminal) is
 * not written again: a load or a preparation that reports less often than
 * every interval or second would otherwise repeat its line. */
static void draw_locked(uint64_t now)
{
    if (!P.active || P.mode == MODE_OFF)
        return;
    char line[sizeof(P.last)];
    struct line parts;
    compose(&parts, now);
    if (P.mode == MODE_TTY) {
        /* shorter than the terminal: a wrapped line cannot be redrawn in place */
        fit_line(line, sizeof(line), &parts, terminal_columns());
        P.last_draw_ns = now;
        if (P.drawn && strcmp(line, P.last) == 0)
            return;
        fprintf(stderr, "\r\033[K%s", line);
        P.drawn = true;
    } else {
        fit_line(line, sizeof(line), &parts, 0);
        P.last_draw_ns = now;
        if (strcmp(line, P.last) == 0)
            return;
        fprintf(stderr, "%s\n", line);
    }
    fflush(stderr);
    memcpy(P.last, line, sizeof(P.last));
}

/* A status line now (under mu), the next one an interval after the due one. */
static void status_locked(uint64_t now)
{
    draw_locked(now);
    P.next_status_ns += P.interval_ns;
    if (P.next_status_ns <= now)
        P.next_status_ns = now + P.interval_ns;
}

/* How long past its due time the ticker holds a status line back (under
 * mu): in a run, up to an interval for the runner's figures of the second
 * just ended, which print it themselves (iom_cli_progress_rates), so a line
 * never shows the interval before; elsewhere (pauses, phases) none. */
static uint64_t status_wait_locked(void)
{
    return P.in_step && !P.phase[0] && !P.pausing && !P.done && !P.own_steps ? P.interval_ns : 0;
}

/* Under mu: a clocked step of iom_cli_progress_step_at has entered a second
 * of its own since the last draw. Such a step follows the host clock, so the
 * line is drawn at the step's whole seconds: drawn every second from
 * whenever, a redraw at 0.95 s past one second and the next at 2.05 s would
 * show "1/3 s" for the first and skip "2/3 s". */
static bool own_second_locked(uint64_t now)
{
    return P.own_steps && P.in_step && !P.phase[0] && P.last_draw_ns >= P.step_t0 &&
           (now - P.step_t0) / 1000000000u != (P.last_draw_ns - P.step_t0) / 1000000000u;
}

static void *ticker(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec ts = {0, 100000000};   /* 100 ms */
        nanosleep(&ts, NULL);
        uint64_t now = now_ns();
        pthread_mutex_lock(&mu);
        if (P.active) {
            if (P.mode == MODE_TTY && (now - P.last_draw_ns >= 1000000000u || own_second_locked(now))) {
                draw_locked(now);
            } else if (P.mode == MODE_STATUS && now >= P.next_status_ns + status_wait_locked()) {
                status_locked(now);
            }
        }
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

/* under mu: the ticker, with every signal blocked so they reach the main thread */
static void start_ticker(void)
{
    if (P.thread || P.mode == MODE_OFF)
        return;
#ifndef _WIN32 /* Windows runs console control handlers on a thread of their own */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
#endif
    pthread_t t;
    if (pthread_create(&t, NULL, ticker, NULL) == 0) {
        pthread_detach(t);
        P.thread = true;
    }
#ifndef _WIN32
    pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
}

void iom_cli_progress_plan(const char *cmd, const struct iom_run_opts *ro, unsigned nr_steps,
                           double total_s, bool mb_units)
{
    pthread_mutex_lock(&mu);
    bool quiet = ro && ro->quiet;
    uint64_t interval = ro ? ro->status_interval_ns : 0;
    P.mode = quiet ? MODE_OFF : isatty(STDERR_FILENO) ? MODE_TTY : interval ? MODE_STATUS : MODE_OFF;
    snprintf(P.cmd, sizeof(P.cmd), "%s", cmd);
    P.k = 0;
    P.n = nr_steps;
    P.total_s = total_s;
    P.done_s = 0;
    P.mb = mb_units;
    P.active = P.pausing = P.in_step = false;
    P.phase[0] = P.detail[0] = P.rates[0] = P.name[0] = 0;
    P.interval_ns = interval;
    P.ramp_word = NULL;
    P.last[0] = 0;
    P.own_steps = false;
    P.next_status_ns = now_ns() + interval;
    start_ticker();
    pthread_mutex_unlock(&mu);
}

/* End what is under way (under mu): its planned seconds count as used. */
static void end_locked(void)
{
    if (P.pausing) {
        P.done_s += P.pause_s;
        P.pausing = false;
    } else if (P.in_step) {
        double plan = planned_step_s();
        if (plan > 0)
            P.done_s += plan;
    }
    P.in_step = false;
    P.active = false;
}

void iom_cli_progress_step(const char *name, double ramp_s, double run_s, double cool_s)
{
    pthread_mutex_lock(&mu);
    if (!P.cmd[0]) {   /* no plan: one step of this length */
        pthread_mutex_unlock(&mu);
        iom_cli_progress_plan("iomark", NULL, 1, run_s > 0 ? ramp_s + run_s + cool_s : -1, false);
        pthread_mutex_lock(&mu);
    }
    if (P.active)
        end_locked();
    if (P.k < P.n)
        P.k++;
    snprintf(P.name, sizeof(P.name), "%s", name ? name : "");
    P.ramp_s = ramp_s;
    P.run_s = run_s;
    P.cool_s = cool_s;
    if (run_s <= 0)
        P.total_s = -1;
    P.phase[0] = P.detail[0] = P.rates[0] = 0;
    P.step_t0 = now_ns();
    P.fig_from_ns = P.fig_to_ns = 0;
    P.shown_phase = PH_RAMP;
    P.active = P.in_step = true;
    P.done = false;
    /* a status line left overdue by the phase before (a long preparation) is
     * due when the step's first second's figures are, not printed empty at
     * once ("measuring 0/4 s" with no figures, seen under load); otherwise the
     * lines keep their cadence (a short pause between steps may get one) */
    if (P.next_status_ns <= P.step_t0)
        P.next_status_ns = P.step_t0 + P.interval_ns;
    if (P.mode == MODE_TTY)
        draw_locked(P.step_t0);   /* at once: a 1 s run is seen */
    pthread_mutex_unlock(&mu);
}

void iom_cli_progress_ramp_word(const char *word)
{
    pthread_mutex_lock(&mu);
    P.ramp_word = word;
    pthread_mutex_unlock(&mu);
}

double iom_cli_job_seconds(const struct iom_job *job)
{
    if (!job || !job->runtime_ns)
        return -1;
    return (double)(job->ramp_ns + job->runtime_ns + job->cooldown_ns) / 1e9;
}

void iom_cli_progress_step_job(const char *name, const struct iom_job *job)
{
    iom_cli_progress_step(name, (double)job->ramp_ns / 1e9,
                          job->runtime_ns ? (double)job->runtime_ns / 1e9 : -1,
                          (double)job->cooldown_ns / 1e9);
}

void iom_cli_progress_phase(const char *phase, const char *detail, double done_frac)
{
    pthread_mutex_lock(&mu);
    if (!P.active) {
        P.active = true;
        P.step_t0 = now_ns();
    }
    if (phase && strcmp(phase, P.phase) != 0)
        P.phase_t0 = now_ns();
    P.phase_frac = done_frac <= 1 ? done_frac : 1;
    P.done = false;
    snprintf(P.phase, sizeof(P.phase), "%s", phase ? phase : "");
    snprintf(P.detail, sizeof(P.detail), "%s", detail ? detail : "");
    if (P.mode == MODE_TTY)
        draw_locked(now_ns());
    pthread_mutex_unlock(&mu);
}

/* New figures of the second just ended are in P.rates (under mu): redraw the
 * terminal line, or print the status line when it is due (or nearly). */
static void figures_locked(void)
{
    uint64_t now = now_ns();
    P.fig_from_ns = P.fig_to_ns >= P.step_t0 ? P.fig_to_ns : P.step_t0;
    P.fig_to_ns = now;
    if (P.mode == MODE_TTY)
        draw_locked(now);
    else if (P.mode == MODE_STATUS && P.active && now + P.interval_ns / 2 >= P.next_status_ns)
        status_locked(now);
}

/* "1234 IOPS, 45.6 MiB/s" in the command's unit (MB/s for mark), under mu */
static void format_rates_locked(char *buf, size_t len, double iops, double bytes_per_s)
{
    if (P.mb)
        snprintf(buf, len, "%.0f IOPS, %.1f MB/s", iops, bytes_per_s / 1e6);
    else
        snprintf(buf, len, "%.0f IOPS, %.1f MiB/s", iops, bytes_per_s / 1048576.0);
}

void iom_cli_progress_rates(double iops, double bytes_per_s)
{
    pthread_mutex_lock(&mu);
    format_rates_locked(P.rates, sizeof(P.rates), iops, bytes_per_s);
    figures_locked();
    pthread_mutex_unlock(&mu);
}

void iom_cli_progress_text(const char *text)
{
    pthread_mutex_lock(&mu);
    snprintf(P.rates, sizeof(P.rates), "%s", text);
    figures_locked();
    pthread_mutex_unlock(&mu);
}

void iom_cli_pause(uint64_t ns)
{
    pthread_mutex_lock(&mu);
    if (P.active)
        end_locked();
    P.pausing = true;
    P.done = false;
    P.pause_s = (double)ns / 1e9;
    P.phase[0] = 0;
    uint64_t t0 = P.step_t0 = now_ns();
    P.active = true;
    if (P.mode == MODE_TTY)
        draw_locked(t0);
    pthread_mutex_unlock(&mu);
    uint64_t end = t0 + ns;
    for (uint64_t now = t0; now < end && !iom_cli_stop; now = now_ns()) {
        uint64_t left = end - now;
        if (left > 50000000u)
            left = 50000000u;   /* see signals within 50 ms */
        struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        nanosleep(&ts, NULL);
    }
    pthread_mutex_lock(&mu);
    end_locked();
    pthread_mutex_unlock(&mu);
}

/* ---- the hooks the commands use (cli.h) ---- */

void iom_cli_progress(const struct iom_progress *p, void *arg)
{
    (void)arg;
    if (p->phase != IOM_PHASE_STOP) {
        iom_cli_progress_rates(p->iops, p->mib_per_s * 1048576.0);
        return;
    }
    /* the run's end, with the measured phase's figures (the result's): as
     * fio, a final status line; the step counts as done for the eta */
    char rates[96];
    pthread_mutex_lock(&mu);
    format_rates_locked(rates, sizeof(rates), p->iops, p->mib_per_s * 1048576.0);
    pthread_mutex_unlock(&mu);
    iom_cli_progress_done(rates);
}

void iom_cli_progress_done(const char *text)
{
    pthread_mutex_lock(&mu);
    if (P.in_step) {
        snprintf(P.rates, sizeof(P.rates), "%s", text);
        end_locked();
        P.active = P.done = true;
        uint64_t now = now_ns();
        if (P.mode == MODE_STATUS)
            status_locked(now);
        else if (P.mode == MODE_TTY)
            draw_locked(now);
        P.active = false;
    }
    pthread_mutex_unlock(&mu);
}

void iom_cli_progress_clear(void)
{
    pthread_mutex_lock(&mu);
    end_locked();
    P.phase[0] = P.detail[0] = 0;
    if (P.drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        P.drawn = false;
    }
    pthread_mutex_unlock(&mu);
}

struct iom_run_hooks iom_cli_hooks(const struct iom_run_opts *ro, const struct iom_job *job,
                                   const char *label)
{
    struct iom_run_hooks h = {.stop = &iom_cli_stop};
    if (ro->quiet)
        return h;
    pthread_mutex_lock(&mu);
    bool planned = P.cmd[0] != 0;
    pthread_mutex_unlock(&mu);
    if (!planned)
        iom_cli_progress_plan("iomark", ro, 1, iom_cli_job_seconds(job), false);
    if (job)
        iom_cli_progress_step_job(label, job);
    else
        iom_cli_progress_step(label, 0, -1, 0);
    h.progress = iom_cli_progress;
    return h;
}

void iom_cli_progress_step_at(unsigned k, const char *name, const char *phase, double ramp_s,
                              double run_s, double cool_s, double left_s)
{
    pthread_mutex_lock(&mu);
    if (P.active)
        end_locked();
    P.own_steps = true;
    P.k = k;
    snprintf(P.name, sizeof(P.name), "%s", name ? name : "");
    snprintf(P.phase, sizeof(P.phase), "%s", phase ? phase : "");
    P.phase_frac = -1; /* the lab's phases (booting) report no part done */
    P.detail[0] = P.rates[0] = 0;
    P.ramp_s = ramp_s;
    P.run_s = run_s;
    P.cool_s = cool_s;
    P.total_s = run_s > 0 && left_s >= 0 ? P.done_s + ramp_s + run_s + cool_s + left_s : -1;
    P.step_t0 = now_ns();
    P.fig_from_ns = P.fig_to_ns = 0;
    P.shown_phase = PH_RAMP;
    P.active = P.in_step = true;
    P.done = false;
    if (P.mode == MODE_TTY)
        draw_locked(P.step_t0);
    else if (!phase) /* a clocked step: its lines at its own whole seconds (own_second_locked) */
        P.next_status_ns = P.next_status_ns > P.step_t0
                               ? P.step_t0 + (P.next_status_ns - P.step_t0) / 1000000000u *
                                                 1000000000u
                               : P.step_t0 + P.interval_ns;
    pthread_mutex_unlock(&mu);
}
