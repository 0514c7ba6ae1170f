/* fio_num.c - fio's num2str() for the fio-style reports (see fio.h). Source:
 * fio 3.33 lib/num2str.c. Also the latency distribution's lines (stat.c show_lat). */
#include "report/fio.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void iom_fio_num2str(uint64_t num, int maxlen, int pow2, const char *unit, char *buf, size_t len)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    const char *const *pre = pow2 ? iec : si;
    const unsigned thousand = pow2 ? 1024 : 1000;
    unsigned modulo = (unsigned)-1;
    int post = 0, carry = 0;
    char tmp[32];
    while (post < 7) {
        snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
        if ((int)strlen(tmp) <= maxlen)
            break;
        modulo = (unsigned)(num % thousand);
        num /= thousand;
        carry = modulo >= thousand / 2;
        post++;
    }
    if (post >= 7)
        post = 0;
    if (modulo == (unsigned)-1) {
        snprintf(buf, len, "%llu%s%s", (unsigned long long)num, pre[post], unit);
        return;
    }
    snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
    int room = maxlen - (int)strlen(tmp);
    if (room <= 1) {
        if (carry)
            num++;
        snprintf(buf, len, "%llu%s%s", (unsigned long long)num, pre[post], unit);
        return;
    }
    char frac[32];
    snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)modulo / (double)thousand);
    /* fio prints the digits after "0."; a fraction that rounds up to "1.0"
     * carries into the integer part (fio's num2str: if (tmp[0] == '1') num++) */
    if (frac[0] == '1')
        num++;
    snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, pre[post], unit);
}

void iom_fio_show_lat_dist(FILE *f, const double *v, int n, const char *unit, const double *keys)
{
    int line = 0;
    bool shown = false, new_line = true;
    for (int i = 0; i < n; i++) {
        if (v[i] <= 0.0)
            continue;
        shown = true;
        if (new_line) {
            if (line)
                fprintf(f, "\n");
            fprintf(f, "  lat (%s)   : ", unit);
            new_line = false;
            line = 0;
        }
        if (line)
            fprintf(f, ", ");
        if (i == 11)
            fprintf(f, ">=2000=%3.2f%%", v[i]);
        else
            fprintf(f, "%g=%3.2f%%", keys[i], v[i]);
        if (++line == 5)
            new_line = true;
    }
    if (shown)
        fprintf(f, "\n");
}
