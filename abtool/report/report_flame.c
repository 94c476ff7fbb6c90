/* report_flame.c - the profiles section of the HTML report: a
 * differential flame graph per profiled row, drawn as inline SVG from the
 * folded stacks (see report.h, ab_report_flame; docs/profiles.md). The
 * layout is Brendan Gregg's flame graph (root at the bottom, a frame as
 * wide as its samples, children in name order); the colouring is his
 * differential one, by the change of each stack path's share. */
#include "report.h"
#include "report_common.h"
#include "profile_fold.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The drawing's width and a frame's height, in SVG units. */
#define FLAME_W 1200.0
#define FRAME_H 16.0
/* Frames narrower than this (SVG units) are not drawn. */
#define MIN_W 0.3

struct node {
	char *name;
	uint64_t count[2];      /* samples with this path: parent, candidate */
	size_t child, next;     /* first child, next sibling (0: none; node 0 is the root) */
};

struct tree {
	struct node *v;
	size_t n, cap;
	uint64_t total[2];
	int side;               /* the side being added */
	size_t depth;           /* the deepest path */
};

static size_t node_new(struct tree *t, const char *name, size_t len)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = ab_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].name = ab_xstrndup(name, len);
	return t->n++;
}

/* The child `name` of node `parent`, made when missing. */
static size_t child_of(struct tree *t, size_t parent, const char *name, size_t len)
{
	size_t c, k;

	for (c = t->v[parent].child; c; c = t->v[c].next)
		if (strlen(t->v[c].name) == len && !memcmp(t->v[c].name, name, len))
			return c;
	k = node_new(t, name, len);
	t->v[k].next = t->v[parent].child;
	t->v[parent].child = k;
	return k;
}

static void add_stack(void *ctx, const char *stack, size_t slen, uint64_t count)
{
	struct tree *t = ctx;
	const char *p = stack, *end = stack + slen;
	size_t at = 0, depth = 0;

	t->v[0].count[t->side] += count;
	t->total[t->side] += count;
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p)), *e = semi ? semi : end;
		at = child_of(t, at, p, (size_t)(e - p));
		t->v[at].count[t->side] += count;
		depth++;
		p = semi ? semi + 1 : end;
	}
	if (depth > t->depth)
		t->depth = depth;
}

static double share(const struct tree *t, size_t k, int side)
{
	return t->total[side] ? (double)t->v[k].count[side] / (double)t->total[side] : 0.0;
}

/* Red for a path whose share grew, blue for one that shrank, by how much
 * against the largest change `scale` (Gregg's differential colours). */
static void colour(char *buf, size_t size, double delta, double scale)
{
	double x = scale > 0 ? fabs(delta) / scale : 0;
	int v = 230 - (int)(fmin(x, 1.0) * 150);

	if (delta > 0)
		snprintf(buf, size, "rgb(240,%d,%d)", v, v);
	else if (delta < 0)
		snprintf(buf, size, "rgb(%d,%d,240)", v, v);
	else
		snprintf(buf, size, "rgb(225,225,225)");
}

struct draw {
	FILE *f;
	const struct tree *t;
	double scale;        /* the largest |change| of a path's share */
	size_t frames;
};

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct tree *t = ctx;
	return strcmp(t->v[*(const size_t *)a].name, t->v[*(const size_t *)b].name);
}

/* The largest |change| of a drawn path's share, under node k. */
static double max_change(const struct tree *t, size_t k)
{
	double m = fabs(share(t, k, 1) - share(t, k, 0)), c;
	size_t ch;

	for (ch = t->v[k].child; ch; ch = t->v[ch].next)
		if ((c = max_change(t, ch)) > m)
			m = c;
	return m;
}

/* Draw node k at x (a fraction of the width) and depth d, then its
 * children in name order. */
static void draw_node(struct draw *d, size_t k, double x, size_t depth)
{
	const struct tree *t = d->t;
	double w = share(t, k, 1), delta = share(t, k, 1) - share(t, k, 0);
	size_t ch, n = 0, i, *kids;
	char fill[64];

	if (w * FLAME_W < MIN_W)
		return;
	if (depth > 0) {
		double px = x * FLAME_W, pw = w * FLAME_W, y = (double)(t->depth - depth) * FRAME_H;
		size_t chars = pw > 20 ? (size_t)((pw - 6) / 7) : 0, len = strlen(t->v[k].name);
		colour(fill, sizeof(fill), delta, d->scale);
		fprintf(d->f, "<g class=\"fr\" data-x=\"%.6f\" data-w=\"%.6f\" data-d=\"%zu\" data-n=\"", x, w,
			depth);
		ab_report_escape_xml(d->f, t->v[k].name);
		fprintf(d->f, "\"><title>");
		ab_report_escape_xml(d->f, t->v[k].name);
		fprintf(d->f, ": candidate %llu samples (%.2f%%), parent %llu (%.2f%%), change %+.2f pp</title>"
			"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
			(unsigned long long)t->v[k].count[1], 100 * share(t, k, 1),
			(unsigned long long)t->v[k].count[0], 100 * share(t, k, 0), 100 * delta, px, y, pw,
			FRAME_H - 1, fill);
		fprintf(d->f, "<text x=\"%.2f\" y=\"%.1f\">", px + 3, y + FRAME_H - 4.5);
		if (chars >= 3) {
			char *shown = ab_xstrndup(t->v[k].name, len > chars ? chars - 2 : len);
			ab_report_escape_xml(d->f, shown);
			if (len > chars)
				fprintf(d->f, "..");
			free(shown);
		}
		fprintf(d->f, "</text></g>\n");
		d->frames++;
	}
	for (ch = t->v[k].child; ch; ch = t->v[ch].next)
		n++;
	kids = ab_xcalloc(n + 1, sizeof(*kids));
	for (ch = t->v[k].child, i = 0; ch; ch = t->v[ch].next)
		kids[i++] = ch;
	qsort_r(kids, n, sizeof(*kids), by_name, (void *)t);
	for (i = 0; i < n; i++) {
		draw_node(d, kids[i], x, depth + 1);
		x += share(t, kids[i], 1);
	}
	free(kids);
}

/* The script of every flame graph on the page: the search box marks the
 * frames whose name holds the text, a click zooms to a frame (its
 * ancestors full width, what is not under it hidden), "reset" undoes it. */
static const char flame_script[] =
	"<script>\n(function () {\n"
	"\tvar W = 1200;\n"
	"\tfunction label(g, w) {\n"
	"\t\tvar t = g.querySelector('text'), n = g.getAttribute('data-n'), c = Math.floor((w - 6) / 7);\n"
	"\t\tt.textContent = w > 20 && c >= 3 ? (n.length > c ? n.slice(0, c - 2) + '..' : n) : '';\n"
	"\t}\n"
	"\tfunction zoom(svg, fx, fw, fd) {\n"
	"\t\tsvg.querySelectorAll('g.fr').forEach(function (g) {\n"
	"\t\t\tvar x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');\n"
	"\t\t\tvar r = g.querySelector('rect'), t = g.querySelector('text'), nx, nw, e = 1e-9;\n"
	"\t\t\tif (d >= fd && x >= fx - e && x + w <= fx + fw + e) { nx = (x - fx) / fw * W; nw = w / fw * W; }\n"
	"\t\t\telse if (d < fd && x <= fx + e && x + w >= fx + fw - e) { nx = 0; nw = W; }\n"
	"\t\t\telse { g.style.display = 'none'; return; }\n"
	"\t\t\tg.style.display = '';\n"
	"\t\t\tr.setAttribute('x', nx.toFixed(2)); r.setAttribute('width', nw.toFixed(2));\n"
	"\t\t\tt.setAttribute('x', (nx + 3).toFixed(2)); label(g, nw);\n"
	"\t\t});\n"
	"\t}\n"
	"\tdocument.querySelectorAll('div.flame').forEach(function (box) {\n"
	"\t\tvar svg = box.querySelector('svg'), input = box.querySelector('input'),\n"
	"\t\t    reset = box.querySelector('button'), note = box.querySelector('.flame-match');\n"
	"\t\tsvg.addEventListener('click', function (ev) {\n"
	"\t\t\tvar g = ev.target.closest('g.fr');\n"
	"\t\t\tif (g) zoom(svg, +g.getAttribute('data-x'), +g.getAttribute('data-w'), +g.getAttribute('data-d'));\n"
	"\t\t});\n"
	"\t\treset.addEventListener('click', function () { zoom(svg, 0, 1, 0); });\n"
	"\t\tinput.addEventListener('input', function () {\n"
	"\t\t\tvar q = input.value, n = 0;\n"
	"\t\t\tsvg.querySelectorAll('g.fr').forEach(function (g) {\n"
	"\t\t\t\tvar hit = q !== '' && g.getAttribute('data-n').indexOf(q) >= 0;\n"
	"\t\t\t\tg.classList.toggle('hit', hit); n += hit;\n"
	"\t\t\t});\n"
	"\t\t\tnote.textContent = q === '' ? '' : n + ' frames match';\n"
	"\t\t});\n"
	"\t});\n"
	"})();\n</script>\n";

void ab_report_flame_change(FILE *f, const struct ab_fold_change *c, int html)
{
	fprintf(f, html ? "<td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td>"
		"<td>%+.1f pp</td><td>%llu</td><td>%llu</td></tr>\n"
		: " %7.1f%% %7.1f%% %7.1f%% %7.1f%% %+6.1f pp %9llu %9llu\n", 100 * c->self_share[0],
		100 * c->self_share[1], 100 * c->total_share[0], 100 * c->total_share[1],
		100 * c->delta, (unsigned long long)c->total[0], (unsigned long long)c->total[1]);
}

/* The table of the functions whose inclusive share changed most. */
static void change_table(FILE *f, const char *a, const char *b)
{
	struct ab_fold_funcs fa, fb;
	struct ab_fold_change *c;
	size_t n, i;

	ab_fold_funcs(&fa, a, strlen(a));
	ab_fold_funcs(&fb, b, strlen(b));
	c = ab_fold_compare(&fa, &fb, &n);
	fprintf(f, "<table class=\"flame-table\"><thead><tr><th>function</th><th>self A</th><th>self B</th>"
		"<th>incl A</th><th>incl B</th><th>change</th><th>samples A</th><th>samples B</th></tr>"
		"</thead><tbody>\n");
	for (i = 0; i < n && i < 15; i++) {
		fprintf(f, "<tr><td><code>");
		ab_report_escape_xml(f, c[i].name);
		fprintf(f, "</code></td>");
		ab_report_flame_change(f, &c[i], 1);
	}
	fprintf(f, "</tbody></table>\n");
	free(c);
	ab_fold_funcs_release(&fa);
	ab_fold_funcs_release(&fb);
}

/* One row's flame graph and table. */
static void row_flame(FILE *f, const json_t *row)
{
	const json_t *a = json_object_get(row, "parent"), *b = json_object_get(row, "candidate");
	const char *fa = ab_report_str(a, "folded"), *fb = ab_report_str(b, "folded");
	struct tree t;
	struct draw d;
	size_t i;

	fprintf(f, "<h3>row ");
	ab_report_escape_xml(f, ab_report_str(row, "label"));
	fprintf(f, "</h3>\n");
	if (!json_is_true(json_object_get(a, "ok")) || !json_is_true(json_object_get(b, "ok"))) {
		fprintf(f, "<p>No profile: ");
		ab_report_escape_xml(f, ab_report_str(json_is_true(json_object_get(a, "ok")) ? b : a, "reason"));
		fprintf(f, ".</p>\n");
		return;
	}
	memset(&t, 0, sizeof(t));
	node_new(&t, "all", 3);
	t.side = 0;
	ab_fold_each(fa, strlen(fa), add_stack, &t);
	t.side = 1;
	ab_fold_each(fb, strlen(fb), add_stack, &t);
	fprintf(f, "<p>perf -e ");
	ab_report_escape_xml(f, ab_report_str(b, "event"));
	fprintf(f, ": parent %llu samples in %lld runs, candidate %llu samples in %lld runs. Widths are "
		"the candidate's samples; red: the stack's share grew against the parent, blue: it "
		"shrank. Click a frame to zoom.</p>\n", (unsigned long long)t.total[0],
		ab_report_int(a, "runs"), (unsigned long long)t.total[1], ab_report_int(b, "runs"));
	for (i = 0; i < 2; i++)
		if (*ab_report_str(i ? b : a, "reason")) {
			fprintf(f, "<p class=\"note\">%s: ", i ? "candidate" : "parent");
			ab_report_escape_xml(f, ab_report_str(i ? b : a, "reason"));
			fprintf(f, "</p>\n");
		}
	fprintf(f, "<div class=\"flame\"><p><input type=\"search\" placeholder=\"search functions\" "
		"aria-label=\"search functions\"> <button type=\"button\">reset zoom</button> "
		"<span class=\"flame-match\"></span></p>\n");
	fprintf(f, "<svg class=\"flamegraph\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\" role=\"img\" "
		"aria-label=\"differential flame graph\" font-size=\"11\" font-family=\"monospace\">\n",
		FLAME_W, (double)(t.depth ? t.depth : 1) * FRAME_H);
	d.f = f;
	d.t = &t;
	d.scale = max_change(&t, 0);
	d.frames = 0;
	draw_node(&d, 0, 0.0, 0);
	fprintf(f, "</svg></div>\n");
	change_table(f, fa, fb);
	for (i = 0; i < t.n; i++)
		free(t.v[i].name);
	free(t.v);
}

int ab_report_flame(FILE *f, const json_t *profiles)
{
	const json_t *row;
	size_t i;

	if (!json_array_size(profiles))
		return 0;
	fprintf(f, "<section id=\"profiles\">\n<h2>Profiles</h2>\n<p>Extra samples of each side under "
		"<code>perf record -g</code>, taken after the measured pairs; they decide nothing. "
		"Self: samples in the function itself; incl: samples with it on the stack; change: incl "
		"B &minus; incl A in percentage points.</p>\n<style>\n"
		"svg.flamegraph g.fr text { fill: #000; pointer-events: none; }\n"
		"svg.flamegraph g.fr { cursor: pointer; }\n"
		"svg.flamegraph g.fr:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		"svg.flamegraph g.fr.hit rect { fill: rgb(230,0,230); }\n"
		"table.flame-table td { text-align: right; }\n"
		"table.flame-table td:first-child { text-align: left; }\n"
		"</style>\n");
	json_array_foreach(profiles, i, row)
		row_flame(f, row);
	fprintf(f, "%s</section>\n", flame_script);
	return 0;
}
