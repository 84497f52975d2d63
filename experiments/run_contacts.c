/* run_contacts.c: `contactlab run`'s contact-force CSV (--contacts N) and sample-measure CSV
 * (--measure BOX), doc/measure.md.
 *
 * <prefix>-contacts.csv: one row per contact of the last step at every N-th output row: the
 * two bodies by their index in the scene's order (the bodies CSV's), the contact point P
 * (midway between the surfaces, placed from body a as the world is at the row), the normal n
 * from a to b, the gap Phi, the force on b in the contact frame (F_n, F_u, F_w; F_n > 0 pushes
 * the bodies apart) and in the world axes (F_n n + F_u u + F_w w): enough to draw force chains
 * and to sum the contact forces on any body. The list is the one the last step used (the
 * configuration at that step's start), so the row of step 0 has none.
 *
 * <prefix>-measure.csv: one row per output row: the Love-Weber stress of clab_measure (all
 * nine components, compression positive), p, q, V, solid fraction, void ratio, the particles,
 * the force-carrying contacts, Z and Z_m (rattlers removed iteratively below --rattler-min). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run_contacts.h"

static const char *const ccols[] = {"t_s",  "step", "a",     "b",     "px_m", "py_m", "pz_m", "nx",  "ny",
                                    "nz",   "phi_m", "fn_N", "fu_N",  "fw_N", "fx_N", "fy_N", "fz_N"};
static const char *const mcols[] = {
    "t_s",       "step",        "sxx_Pa",    "sxy_Pa",      "sxz_Pa",      "syx_Pa",     "syy_Pa",
    "syz_Pa",    "szx_Pa",      "szy_Pa",    "szz_Pa",      "p_Pa",        "q_Pa",       "volume_m3",
    "solid_fraction", "void_ratio", "particles", "contacts_pp", "contacts_pb", "Z", "Z_m", "rattlers"};
enum { NC = sizeof ccols / sizeof ccols[0], NM = sizeof mcols / sizeof mcols[0] };
_Static_assert(NC == XP_RUN_CONTACT_COLS, "the contacts CSV's columns");

void xp_run_extra_init(xp_run_extra *x)
{
    memset(x, 0, sizeof *x);
    x->rattler_min = 2;
}

void xp_run_extra_help(void)
{
    printf("  --contacts N          write <scene>-<backend>-contacts.csv: every contact of the last step at\n"
           "                        every N-th output row (N >= 1): bodies a, b (the scene's order), point,\n"
           "                        normal, gap Phi, force on b in the frame n u w and in x y z [N]\n"
           "  --measure BOX         write <scene>-<backend>-measure.csv at every output row: the sample's\n"
           "                        stress tensor (Love-Weber, compression positive) [Pa], p, q, solid\n"
           "                        fraction, void ratio, coordination numbers Z and Z_m (doc/measure.md);\n"
           "                        BOX = walls (the box the planes enclose, periodic axes their period,\n"
           "                        found again at each row) or x0,x1,y0,y1,z0,z1 [m]\n"
           "  --rattler-min N       --measure: a particle with fewer force-carrying contacts is a rattler\n"
           "                        (removed iteratively for Z_m; default 2, Thornton; 4 = d + 1 for\n"
           "                        frictionless spheres)\n");
}

int xp_run_extra_option(xp_run_extra *x, int opt, const char *arg)
{
    switch (opt) {
    case 'c' + 512: return xp_parse_long("contacts", arg, 1, 1000000000L, &x->contacts_every) ? -1 : 1;
    case 'r' + 512: return xp_parse_long("rattler-min", arg, 1, 100, &x->rattler_min) ? -1 : 1;
    case 'm' + 512: break;
    default: return 0;
    }
    x->measure = 1;
    if (strcmp(arg, "walls") == 0) {
        x->box_walls = 1;
        return 1;
    }
    double v[6];
    int n = 0;
    const char *q = arg;
    for (; n < 6; n++) { /* six finite numbers, comma-separated (xp_parse_list refuses equal values) */
        char *end;
        errno = 0;
        v[n] = strtod(q, &end);
        if (end == q || errno == ERANGE || !isfinite(v[n]) || (*end != ',' && *end != '\0')) break;
        q = end + (*end == ',');
        if (*end == '\0') {
            n++;
            break;
        }
    }
    if (n != 6 || *q != '\0') {
        xp_option_error("contactlab run: --measure '%s': give walls or six numbers x0,x1,y0,y1,z0,z1 [m]\n", arg);
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        x->box.lo[k] = v[2 * k];
        x->box.hi[k] = v[2 * k + 1];
        if (!(x->box.lo[k] < x->box.hi[k])) {
            xp_option_error("contactlab run: --measure '%s': the box's %c range [%g, %g] is empty; x0 < x1, y0 < y1, "
                            "z0 < z1\n", arg, "xyz"[k], v[2 * k], v[2 * k + 1]);
            return -1;
        }
    }
    return 1;
}

int xp_run_extra_check(const xp_run_extra *x, const clab_world *w, clab_error *err)
{
    clab_measure_box box;
    return x->measure && x->box_walls && clab_measure_box_from_walls(w, &box, err) ? -1 : 0;
}

int xp_run_extra_open(xp_run_extra *x, const xp_common *c, const char *prefix,
                      const clab_options *meta, int argc, char *const *argv, int flags, clab_error *err)
{
    clab_options m;
    clab_options_init(&m);
    clab_options_merge(&m, meta);
    char file[600], v[200];
    int rc = 0;
    if (x->contacts_every > 0) {
        snprintf(file, sizeof file, "%s-contacts.csv", prefix);
        xp_path(c, file, x->cpath, sizeof x->cpath);
        snprintf(v, sizeof v, "%ld", x->contacts_every);
        clab_options_set(&m, "contacts_every_rows", v, NULL);
        clab_options_set(&m, "a", "a, b: the contact's bodies, by index in the scene's order (the bodies CSV's); "
                                  "n from a to b", NULL);
        clab_options_set(&m, "px_m", "the contact point, midway between the surfaces, placed from body a", NULL);
        clab_options_set(&m, "fn_N", "fn, fu, fw: the force on b in the contact frame n u w (fn > 0 pushes apart); "
                                     "fx, fy, fz: the same in the world axes", NULL);
        clab_options_set(&m, "contacts", "the last step's contacts (configuration at its start); none at step 0",
                         NULL);
        x->fc = clab_csv_open(x->cpath, flags, err);
        rc = !x->fc || clab_csv_meta(x->fc, &m, argc, argv, err) || clab_csv_header(x->fc, ccols, NC, err);
    }
    if (!rc && x->measure) {
        clab_options_free(&m);
        clab_options_init(&m);
        clab_options_merge(&m, meta);
        snprintf(file, sizeof file, "%s-measure.csv", prefix);
        xp_path(c, file, x->mpath, sizeof x->mpath);
        if (x->box_walls) clab_options_set(&m, "measure_box", "walls (found again at each row)", NULL);
        else {
            snprintf(v, sizeof v, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", x->box.lo[0], x->box.hi[0], x->box.lo[1],
                     x->box.hi[1], x->box.lo[2], x->box.hi[2]);
            clab_options_set(&m, "measure_box", v, NULL);
        }
        snprintf(v, sizeof v, "%ld", x->rattler_min);
        clab_options_set(&m, "rattler_min", v, NULL);
        clab_options_set(&m, "sxx_Pa", "sigma_ij = (1/V) sum f_i l_j over the contacts (Love-Weber), compression "
                                       "positive; particles: the moving spheres with their center in the box", NULL);
        clab_options_set(&m, "q_Pa", "sqrt(3/2 s:s), s the deviator of sym(sigma)", NULL);
        clab_options_set(&m, "solid_fraction", "the spheres' volume inside the box (cut spheres exactly) / V", NULL);
        clab_options_set(&m, "Z", "(2 contacts_pp + contacts_pb) / particles, contacts with F_n > 0; Z_m the same "
                                  "after removing the rattlers (fewer than rattler_min contacts, iteratively)", NULL);
        x->fm = clab_csv_open(x->mpath, flags, err);
        rc = !x->fm || clab_csv_meta(x->fm, &m, argc, argv, err) || clab_csv_header(x->fm, mcols, NM, err);
    }
    clab_options_free(&m);
    return rc ? -1 : 0;
}

void xp_run_contact_row(const clab_world *w, const clab_contacts *cs, size_t i, clab_vec3 f, size_t a, size_t b,
                        double row[XP_RUN_CONTACT_COLS])
{
    const clab_contact *k = &cs->c[i];
    clab_vec3 u, v, P = clab_contact_point(cs, i, w->bodies);
    clab_contact_frame(k, &u, &v);
    /* F = F_n n + F_u u + F_w w, the force on b in the world axes */
    clab_vec3 F = clab_v3_add(clab_v3_scale(k->n, f.x), clab_v3_add(clab_v3_scale(u, f.y), clab_v3_scale(v, f.z)));
    const double r[NC] = {w->t, (double)w->step, (double)a, (double)b, P.x, P.y, P.z,
                          k->n.x, k->n.y, k->n.z, k->phi, f.x, f.y, f.z, F.x, F.y, F.z};
    memcpy(row, r, sizeof r);
}

/* the contacts' rows of the last step */
static int contact_rows(xp_run_extra *x, const clab_sim *s, const size_t *order, clab_error *err)
{
    const clab_world *w = s->world;
    const clab_contacts *cs = &s->contacts;
    for (size_t k = 0; k < w->nbodies; k++) x->inv[order[k]] = k;
    for (size_t i = 0; i < cs->n; i++) {
        double row[NC];
        xp_run_contact_row(w, cs, i, x->f[i], x->inv[cs->c[i].a], x->inv[cs->c[i].b], row);
        if (clab_csv_row(x->fc, row, NC, err)) return -1;
    }
    return 0;
}

int xp_run_extra_rows(xp_run_extra *x, const clab_sim *s, const size_t *order, long nout, clab_error *err)
{
    const clab_world *w = s->world;
    const size_t n = s->contacts.n;
    if (n > x->fcap) {
        free(x->f);
        x->f = malloc(n * sizeof *x->f);
        x->fcap = x->f ? n : 0;
        if (!x->f) return clab_error_set(err, CLAB_ENOMEM, "out of memory for %zu contact forces", n), -1;
    }
    if (!x->inv && !(x->inv = malloc((w->nbodies ? w->nbodies : 1) * sizeof *x->inv)))
        return clab_error_set(err, CLAB_ENOMEM, "out of memory for %zu bodies", w->nbodies), -1;
    if (n) clab_sim_forces(s, x->f);
    if (x->fc && nout % x->contacts_every == 0 && contact_rows(x, s, order, err)) return -1;
    if (!x->fm) return 0;
    clab_measure_opts o = clab_measure_default_opts();
    clab_measure_box box = x->box;
    if (x->box_walls && clab_measure_box_from_walls(w, &box, err)) return -1;
    o.box = &box;
    o.rattler_min = (int)x->rattler_min;
    clab_measure m;
    if (clab_measure_contacts(w, &s->contacts, x->f, &o, &m, err)) return -1;
    double row[NM] = {w->t, (double)w->step, m.sigma[0][0], m.sigma[0][1], m.sigma[0][2], m.sigma[1][0],
                      m.sigma[1][1], m.sigma[1][2], m.sigma[2][0], m.sigma[2][1], m.sigma[2][2], m.p, m.q, m.volume,
                      m.solid_fraction, m.void_ratio, (double)m.particles, (double)m.contacts_pp,
                      (double)m.contacts_pb, m.Z, m.Z_m, (double)m.rattlers};
    return clab_csv_row(x->fm, row, NM, err) ? -1 : 0;
}

int xp_run_extra_close(xp_run_extra *x, clab_error *err)
{
    int rc = 0;
    if (x->fc && clab_csv_close(x->fc, err)) rc = -1;
    if (x->fm && clab_csv_close(x->fm, rc ? NULL : err)) rc = -1;
    x->fc = x->fm = NULL;
    free(x->f);
    free(x->inv);
    x->f = NULL;
    x->inv = NULL;
    x->fcap = 0;
    return rc;
}
