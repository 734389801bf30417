// hsref: a reference driver for Vectorscan (Hyperscan's API), the peer
// logmatch's matching is measured against.
//
//   hsref PATTERNS LOG
//
// PATTERNS holds one regular expression a line (PCRE syntax, as
// scripts/bench-vectorscan.sh writes it from a catalog). Patterns Vectorscan
// refuses are left out, one at a time, and counted. LOG is scanned line by
// line in block mode, every pattern at once with HS_FLAG_SINGLEMATCH: the
// question asked is logmatch's prefilter's, which records match this line.
//
// It prints, on stdout, one line of key=value figures: the patterns kept and
// refused, the lines and matching lines, the compile and scan CPU time
// (user+system, getrusage) and the scan's CPU time a line.
#include <errno.h>
#include <hs/hs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double cpu_seconds(void) {
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static char *read_file(const char *path, size_t *len) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "hsref: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		if (r == 0) {
			break;
		}
		n += r;
	}
	if (ferror(f)) {
		fprintf(stderr, "hsref: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *ctx) {
	(void)id, (void)from, (void)to, (void)flags;
	*(int *)ctx = 1;
	return 0; // keep scanning: every matching pattern, as the prefilter
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: hsref PATTERNS LOG\n");
		return 2;
	}
	size_t plen, llen;
	char *pats = read_file(argv[1], &plen);
	char *log = read_file(argv[2], &llen);

	size_t cap = 1024, n = 0;
	const char **exprs = malloc(cap * sizeof *exprs);
	for (char *p = pats; *p;) {
		char *nl = strchr(p, '\n');
		if (nl) {
			*nl = 0;
		}
		if (*p) {
			if (n == cap) {
				cap *= 2;
				exprs = realloc(exprs, cap * sizeof *exprs);
			}
			exprs[n++] = p;
		}
		if (!nl) {
			break;
		}
		p = nl + 1;
	}
	unsigned *flags = malloc(n * sizeof *flags);
	unsigned *ids = malloc(n * sizeof *ids);
	for (size_t i = 0; i < n; i++) {
		flags[i] = HS_FLAG_SINGLEMATCH | HS_FLAG_ALLOWEMPTY;
		ids[i] = (unsigned)i;
	}

	// Compile all at once; on a refused pattern, drop it and compile
	// again. The CPU time of the refusals is not the compile's.
	double compile = 0;
	size_t refused = 0;
	hs_database_t *db = NULL;
	for (;;) {
		hs_compile_error_t *err = NULL;
		double c0 = cpu_seconds();
		hs_error_t rc = hs_compile_multi(exprs, flags, ids, (unsigned)n, HS_MODE_BLOCK, NULL, &db, &err);
		double c1 = cpu_seconds();
		if (rc == HS_SUCCESS) {
			compile += c1 - c0;
			break;
		}
		if (err->expression < 0 || (size_t)err->expression >= n) {
			fprintf(stderr, "hsref: compile: %s\n", err->message);
			return 1;
		}
		size_t bad = (size_t)err->expression;
		hs_free_compile_error(err);
		exprs[bad] = exprs[n - 1];
		flags[bad] = flags[n - 1];
		n--;
		refused++;
		for (size_t i = 0; i < n; i++) {
			ids[i] = (unsigned)i;
		}
	}
	hs_scratch_t *scratch = NULL;
	if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS) {
		fprintf(stderr, "hsref: hs_alloc_scratch failed\n");
		return 1;
	}

	long lines = 0, matched = 0;
	double s0 = cpu_seconds();
	for (char *p = log, *end = log + llen; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int hit = 0;
		if (hs_scan(db, p, (unsigned)len, 0, scratch, on_match, &hit) != HS_SUCCESS) {
			fprintf(stderr, "hsref: hs_scan failed at line %ld\n", lines + 1);
			return 1;
		}
		lines++;
		matched += hit;
		p += len + 1;
	}
	double scan = cpu_seconds() - s0;
	printf("patterns=%zu refused=%zu lines=%ld matched=%ld compile_cpu_s=%.4f scan_cpu_s=%.4f scan_cpu_ns_line=%.1f\n",
		n, refused, lines, matched, compile, scan, lines ? scan * 1e9 / lines : 0);
	hs_free_scratch(scratch);
	hs_free_database(db);
	return 0;
}
