#!/usr/bin/env python3
"""fio_parse_compare.py FIO_DEBUG_PARSE IOMARK_PARSE_ONLY: compare, job by job
(in file order), what fio 3.x parsed (`fio --parse-only --debug=parse`) with
iomark's `run FILE --parse-only` lines: rw, bs (when no bssplit), iodepth,
clones (numjobs), rwmixread (mixed patterns), size (one-file jobs; with filesize
the amount of I/O, iomark's io_limit), offset,
runtime, random map (norandommap), invalidate, a backward skip (rw=read:-8k). fio's defaults where the
file sets nothing (HOWTO): rw=read, bs=4k, iodepth=1, numjobs=1,
rwmixread=50, offset=0, norandommap=0, invalidate=1. Prints one line per
mismatch and exits 1 if any; prints the number of fields compared."""
import re, sys

def fio_jobs(path):
    """fio's debug log: the handle_option lines after "Parsing section [X]"
    are X's; a job starts from a copy of the [global] options so far."""
    jobs, glob, cur, last = [], {}, None, None
    for line in open(path, errors='replace'):
        m = re.match(r'parse\s+\d+\s+(.*)$', line.rstrip('\n'))
        if not m:
            continue
        t = m.group(1)
        p = re.match(r'Parsing section \[(.+)\]$', t)
        if p:
            if p.group(1) == 'global':
                cur = glob
            else:
                cur = {k: list(v) for k, v in glob.items()}
                jobs.append((p.group(1), cur))
            continue
        o = re.match(r'handle_option=([^,]+), ptr=(.*)$', t)
        if o and cur is not None:
            last = o.group(1)
            cur[last] = [o.group(2), None]
            continue
        r = re.match(r'\s*ret=0, out=(\d+)', t)
        if r and cur is not None and last in cur:
            cur[last][1] = int(r.group(1))
    return jobs

def iomark_jobs(path):
    out = []
    for line in open(path):
        if not line.startswith('['):
            continue
        kv = dict(re.findall(r'(\w+)=(\S*)', line))
        out.append(kv)
    return out

def main():
    fj, ij = fio_jobs(sys.argv[1]), iomark_jobs(sys.argv[2])
    merged = [(name, d, None) for name, d in fj]
    if len(merged) != len(ij):
        print(f'job count: fio {len(merged)}, iomark {len(ij)}')
        return 1
    bad = n = 0
    def cmp(job, field, want, got):
        nonlocal bad, n
        n += 1
        if str(want) != str(got):
            bad += 1
            print(f'[{job}] {field}: fio {want}, iomark {got}')
    for (name, d, _), i in zip(merged, ij):
        def num(k, default):
            return d[k][1] if k in d and d[k][1] is not None else default
        rw = d.get('rw', d.get('readwrite', ['read']))[0].split(':')[0]
        rw = {'readwrite': 'rw'}.get(rw, rw)
        cmp(name, 'rw', rw, i['rw'])
        # rw=read:-8k: fio's backward skip (HOWTO "rw", the ':<nr>' suffix)
        sk = re.match(r'-(\d+)([kmg]?)$', d.get('rw', d.get('readwrite', ['']))[0].partition(':')[2].lower())
        if sk:
            cmp(name, 'seq_back', int(sk.group(1)) * 1024 ** ' kmg'.index(sk.group(2) or ' '),
                i.get('seq_back'))
        if 'bssplit' not in i and 'bsrange' not in d:
            cmp(name, 'bs', num('bs', num('blocksize', 4096)), i['bs'])
        cmp(name, 'iodepth', num('iodepth', 1), i['iodepth'])
        cmp(name, 'clones', num('numjobs', 1), i['clones'])
        if rw in ('rw', 'randrw'):
            mix = num('rwmixread', None)
            if mix is None:
                w = num('rwmixwrite', None)
                mix = 100 - w if w is not None else 50
            cmp(name, 'rwmixread', mix, i['rwmixread'])
        f = d.get('filename', [''])[0]
        if 'size' in d and d['size'][1] is not None and f and ':' not in f:
            if 'filesize' in d:  # fio HOWTO: size is then the job's I/O over files of filesize
                if i.get('time_based') != '1':  # (time_based: the runtime ends it)
                    cmp(name, 'io_limit', d['size'][1], i.get('io_limit'))
            else:
                cmp(name, 'size', d['size'][1], i['size'])
        cmp(name, 'offset', num('offset', 0), i['offset'])
        if 'runtime' in d:
            cmp(name, 'runtime_s', '%.3f' % (num('runtime', 0) / 1e6), i['runtime_s'])
        nrm = d.get('norandommap')
        nrm = 0 if nrm is None else (1 if nrm[0] in ('(null)', '1') else 0)
        cmp(name, 'random_map', 1 - nrm, i['random_map'])
        inv = d.get('invalidate')
        inv = 1 if inv is None else (1 if inv[0] in ('(null)', '1') else 0)
        cmp(name, 'invalidate', inv, i['invalidate'])
    print(f'{n} fields compared, {bad} differ')
    return 1 if bad else 0

sys.exit(main())
