"""Tooth stiffness of spur gears by ISO 6336-1 (Calculation of load capacity of spur and helical gears, part 1),
method B, clause 9 ("Tooth stiffness parameters c' and c_gamma"), for external spur gears of solid disks.

Written from the standard's formulas, independent of any model of the teeth:

    q' = C1 + C2/zn1 + C3/zn2 + C4 x1 + C5 x1/zn1 + C6 x2 + C7 x2/zn2 + C8 x1^2 + C9 x2^2   (mm um/N)
    C1..C9 = 0.04723, 0.15551, 0.25791, -0.00635, -0.11654, -0.00193, -0.24188, 0.00529, 0.00182,
    c'_th = 1/q'   (theoretical single stiffness, N/(mm um)),
    c' = c'_th C_M C_R C_B cos(beta)   (single stiffness: the largest stiffness of one tooth pair),
    C_M = 0.8 (correction of the theory to measurements, solid disks), C_R = 1 (solid disks),
    C_B = [1 + 0.5 (1.2 - h_fP/m)] [1 - 0.02 (20 deg - alpha_P)]   (basic rack; h_fP = 1.25 m gives 0.975),
    c' is multiplied by (F_t K_A/b / (100 N/mm))^0.25 where F_t K_A/b < 100 N/mm,
    and by E/E_st for other materials than steel, E = 2 E1 E2/(E1 + E2), E_st = 206000 N/mm^2
    (the example's 210 GPa steel: 1.019),
    c_gamma_alpha = c' (0.75 eps_alpha + 0.25)   (mesh stiffness: the mean over the mesh cycle; times 0.9 for
    eps_alpha < 1.2).

zn = z / cos^3(beta) (virtual numbers; spur: zn = z). The stiffness is per unit face width, along the line of
action (the normal load per unit face width that deflects the pair by 1 um along the line of action); times b it
is N/m. The clause and coefficient table are those of ISO 6336-1:2006 (clause 9, method B; its table of C1..C9); the
equation numbers of the edition could not be checked here. Two independent implementations of the standard
(public MATLAB and Python gear-rating code) use the same coefficients, C_B (0.975 for h_fP = 1.25 m) and E/E_st.
"""

from __future__ import annotations

import math

Q_COEFFICIENTS = (0.04723, 0.15551, 0.25791, -0.00635, -0.11654, -0.00193, -0.24188, 0.00529, 0.00182)
C_M, C_R = 0.8, 1.0


def q_prime(z1: int, z2: int, x1: float = 0.0, x2: float = 0.0, beta: float = 0.0) -> float:
    """Minimum flexibility q' of a tooth pair (mm um/N), from the virtual tooth numbers and the profile shifts."""
    C1, C2, C3, C4, C5, C6, C7, C8, C9 = Q_COEFFICIENTS
    zn1, zn2 = z1 / math.cos(beta) ** 3, z2 / math.cos(beta) ** 3
    return C1 + C2 / zn1 + C3 / zn2 + C4 * x1 + C5 * x1 / zn1 + C6 * x2 + C7 * x2 / zn2 + C8 * x1**2 + C9 * x2**2


def basic_rack_factor(h_fP_over_m: float = 1.25, alpha_P: float = math.radians(20.0)) -> float:
    """C_B = [1 + 0.5 (1.2 - h_fP/m)] [1 - 0.02 (20 deg - alpha_P in deg)]."""
    return (1 + 0.5 * (1.2 - h_fP_over_m)) * (1 - 0.02 * (20.0 - math.degrees(alpha_P)))


E_ST = 206e9  # Pa: the steel the standard's stiffness formulas are written for


def single_stiffness(z1, z2, b, F_t, x1=0.0, x2=0.0, beta=0.0, h_fP_over_m=1.25, alpha_P=math.radians(20.0),
                     K_A=1.0, E1=E_ST, E2=E_ST) -> float:
    """c' b (N/m) for the face width b (m) under the nominal tangential force F_t (N) at the reference circle."""
    E = 2 * E1 * E2 / (E1 + E2)
    c = C_M * C_R * basic_rack_factor(h_fP_over_m, alpha_P) * math.cos(beta) / q_prime(z1, z2, x1, x2, beta) * E / E_ST
    load = F_t * K_A / (b * 1e3)  # N/mm
    if load < 100.0:
        c *= (load / 100.0) ** 0.25
    return c * 1e9 * b  # N/(mm um) = 1e9 N/m^2, times b in m


def mesh_stiffness(z1, z2, b, F_t, eps_alpha, **kw) -> float:
    """c_gamma_alpha b (N/m) = c' b (0.75 eps_alpha + 0.25) (times 0.9 for eps_alpha < 1.2)."""
    return single_stiffness(z1, z2, b, F_t, **kw) * (0.75 * eps_alpha + 0.25) * (0.9 if eps_alpha < 1.2 else 1.0)
