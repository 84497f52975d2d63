/* ball.c: a ball dropped on a plane, under each contact method, through the public API alone.
 *
 * A sphere of radius 0.1 m (density 1000 kg/m^3, the default material) is let go 5 cm above
 * a fixed plane and simulated for 1 s with the penalty (DEM) method, at a step of 1e-4 s, and
 * with the DVI (cone complementarity) method, at 1e-3 s. By then it rests on the plane: its
 * height is the radius (less the penalty method's small overlap) and the contact force F_n
 * balances its weight m g.
 *
 *     cc ball.c $(pkg-config --cflags --libs contactlab) -o ball && ./ball */
#include <stdio.h>

#include <contactlab/contactlab.h>

/* Drop the ball under backend `method` with time step h [s], step to t = 1 s, print its height
 * and contact force. */
static int drop(const char *method, double h)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL); /* gravity (0, 0, -9.81) m/s^2 */
    clab_body_def plane = clab_default_body_def(), ball = clab_default_body_def();
    plane.shape = clab_plane(); /* the half-space z < 0 */
    plane.fixed = 1;
    ball.shape = clab_sphere(0.1);
    ball.r = clab_v3(0.0, 0.0, 0.15);
    clab_world_add_body(w, &plane, &err);
    int b = clab_world_add_body(w, &ball, &err);
    clab_sim *s = clab_sim_create(w, method, h, NULL, &err);
    int rc = s ? CLAB_OK : err.status;
    while (rc == CLAB_OK && w->t < 1.0 - 0.5 * h) rc = clab_sim_step(s, &err);
    clab_vec3 f = clab_v3(0.0, 0.0, 0.0); /* (F_n, F_u, F_w) [N] of the one contact */
    if (rc == CLAB_OK && s->contacts.n == 1) clab_sim_forces(s, &f);
    if (rc == CLAB_OK)
        printf("%-8s t = %.3f s  z = %.9f m  F_n = %.6f N  m g = %.6f N\n", method, w->t, w->bodies[b].r.z,
               f.x, -w->bodies[b].m * w->gravity.z);
    else
        fprintf(stderr, "%s: %s\n", method, err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc != CLAB_OK;
}

int main(void)
{
    return drop("penalty", 1e-4) | drop("dvi", 1e-3);
}
