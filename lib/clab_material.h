/* clab_material.h: surface and bulk properties, and the one mixing rule for a pair.
 *
 * Mixing rule for a contact between materials a and b (used by every backend):
 *   mu      = min(mu_a, mu_b)                       friction, the weaker surface governs
 *   mu_roll = min(mu_roll_a, mu_roll_b)             rolling resistance
 *   cor     = min(cor_a, cor_b)                     coefficient of restitution
 *   1/E*    = (1 - nu_a^2)/E_a + (1 - nu_b^2)/E_b   Hertz effective modulus
 *   1/G*    = 2(2 - nu_a)(1 + nu_a)/E_a + 2(2 - nu_b)(1 + nu_b)/E_b   Mindlin shear modulus
 *   k_n, k_t (explicit values): harmonic mean 2 k_a k_b/(k_a + k_b), so two equal materials
 *           give the value the user wrote; gamma_n, gamma_t: arithmetic mean; a value of 0 in
 *           either material means "derive from E, nu, cor" for the pair.
 * E*, G* are the effective moduli of Johnson, Contact Mechanics (1985), Sect. 4.2 and 7.1,
 * as in LIGGGHTS and Chrono's SMC. */
#ifndef CLAB_MATERIAL_H
#define CLAB_MATERIAL_H

#include "clab_error.h"

#define CLAB_NAME_LEN 64

typedef struct clab_material {
    char name[CLAB_NAME_LEN];
    double mu;      /* Coulomb friction coefficient [-] */
    double mu_roll; /* rolling resistance coefficient [m] (0 = off) */
    double E;       /* Young's modulus [Pa] */
    double nu;      /* Poisson ratio [-], in (-1, 0.5) */
    double cor;     /* coefficient of restitution [-], in (0, 1] */
    double kn;      /* explicit normal stiffness [N/m] (Hooke) or [N/m^1.5] (Hertz); 0 = from E */
    double kt;      /* explicit tangential stiffness, same units; 0 = from G */
    double gn;      /* explicit normal damping rate gamma_n [1/s] (force = gamma_n m_eff v); 0 = from cor */
    double gt;      /* explicit tangential damping rate gamma_t [1/s]; 0 = from cor */
} clab_material;

/* Properties of one contact pair, after the mixing rule. */
typedef struct clab_material_pair {
    double mu, mu_roll, cor;
    double Estar; /* effective Young's modulus E* [Pa] */
    double Gstar; /* effective shear modulus G* [Pa] */
    double kn, kt, gn, gt; /* explicit values, 0 where they are to be derived */
} clab_material_pair;

/* Defaults: steel-like, mu = 0.5, E = 2e8 Pa (a soft DEM modulus), nu = 0.3, cor = 0.5. */
clab_material clab_default_material(void);

/* Check ranges; on failure err names the material and the parameter. */
int clab_material_validate(const clab_material *m, clab_error *err);

/* The mixing rule above. */
clab_material_pair clab_material_mix(const clab_material *a, const clab_material *b);

#endif
