# painleve.gp: figures of `contactlab painleve`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot painleve.gp`).
# Input: painleve-region.csv (mu*(theta), A), painleve-summary.csv, painleve-files.gp (the
# series at the first point inside the region and the run points, written by the driver) and
# those series.
# Output (.png and .pdf):
#   painleve-region:  the (theta, mu) plane, B < 0 above mu*(theta), shaded as inconsistent
#                     (A < 0) or indeterminate (A > 0), at the runs' theta' and at a second one;
#                     the run points marked
#   painleve-traces:  every method at the inside point: the end's height, its tangential
#                     velocity and the normal force (rigid methods: impulse per step / h)
#   painleve-penalty: the penalty spike against the stiffness: F_n(t) for each E, and the peak
#                     force and the event's impulse against E beside the rigid sticking impulse

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls painleve-region.csv painleve-files.gp 2>/dev/null | wc -l") + 0 < 2) { print "painleve.gp: no painleve-region.csv or painleve-files.gp in this folder"; exit }
load "painleve-files.gp"
meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
thd_run = real(meta("painleve-region.csv", "thetadot_rad_s"))
thd_reg = real(meta("painleve-region.csv", "region_thetadot_rad_s"))
mumax = 4.0
# the run points inside the region are filled (B < 0: mu above the box's mu* at that angle)
mustar_rod(t) = (1 + 3 * cos(t * pi / 180)**2) / (3 * sin(t * pi / 180) * cos(t * pi / 180))

mcolor(i) = word("#1f77b4 #6baed6 #08306b #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf #bcbd22 #7f7f7f", (i - 1) % 12 + 1)
# the rigid methods dashed, thicker, over the force laws
dtv(i) = trforce[i] ? 1 : 2
# the rigid methods drawn wide to narrow in table order, so one lying on another still shows
lwv(i) = trforce[i] ? 1.5 : (4.5 - 1.5 * (i - 1 - sum [j = 1:ntr] (trforce[j] ? 1 : 0)) > 1.2 ? 4.5 - 1.5 * (i - 1 - sum [j = 1:ntr] (trforce[j] ? 1 : 0)) : 1.2)

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1300, 620 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8.6in, 4.1in font "Sans,8" enhanced
  }
  # ---- the region ----
  set output "painleve-region.".fmt
  set multiplot layout 1, 2 title "Painleve's rod (uniform, I = m l^2/3): where the classical problem fails, m B = 1 + 3 cos^2{/Symbol q} - 3 {/Symbol m} sin{/Symbol q} cos{/Symbol q} < 0"
  set grid
  set xlabel "angle of the rod to the plane {/Symbol q} [deg]"
  set ylabel "friction coefficient {/Symbol m}"
  set xrange [0:90]
  set yrange [0:mumax]
  set key below box font ",9" horizontal maxcols 2 spacing 1.1
  set xlabel offset 0, 0.3
  do for [panel = 1:2] {
    thd = panel == 1 ? thd_run : thd_reg
    acol = panel == 1 ? "A_run_m_s2" : "A_region_m_s2"
    set title sprintf("{/Symbol q}' = %g rad/s%s", thd, panel == 1 ? " (the runs)" : "")
    plot "painleve-region.csv" using "theta_deg":(column(acol) < 0 ? column("mu_star_box") : NaN):(mumax) with filledcurves lc rgb "#f4a582" fs solid 0.6 title "inconsistent: B < 0, A < 0 (no solution)", \
         "" using "theta_deg":(column(acol) >= 0 ? column("mu_star_box") : NaN):(mumax) with filledcurves lc rgb "#92c5de" fs solid 0.6 title "indeterminate: B < 0, A > 0 (two solutions)", \
         "" using "theta_deg":"mu_star_rod" with lines lw 2 lc rgb "black" title "{/Symbol m}*({/Symbol q}) = (1 + 3 cos^2{/Symbol q})/(3 sin{/Symbol q} cos{/Symbol q}), thin rod", \
         "" using "theta_deg":"mu_star_box" with lines lw 1.5 dt 2 lc rgb "#555555" title "{/Symbol m}* of the simulated box (its corner, w > 0)", \
         "+" using (atan(2) * 180 / pi):(4.0 / 3):(sprintf("min 4/3 at tan{/Symbol q} = 2 (%.1f deg)", atan(2) * 180 / pi)) every ::0::0 with labels point pt 7 ps 1 lc rgb "black" offset 0, -1.2 notitle, \
         for [i = 1:npt] "+" using (ptheta[i]):(pmu[i]) every ::0::0 with points pt (pmu[i] > mustar_rod(ptheta[i]) ? 5 : 4) ps 2 lw 2 lc rgb "#b2182b" title (i == 1 ? "run points (filled: inside)" : "")
  }
  unset multiplot
  unset output
  set key inside noreverse vertical maxrows auto maxcols auto
  set xlabel offset 0, 0

  if (ntr > 0) {
    # ---- the traces at the inside point ----
    if (fmt eq "png") {
      set terminal pngcairo size 1300, 1000 font "Sans,10" enhanced
    } else {
      set terminal pdfcairo size 8.6in, 6.6in font "Sans,8" enhanced
    }
    set output "painleve-traces.".fmt
    tmax = 0.05
    endname = exists("rod_end") && rod_end eq "corner" ? "one corner on the plane (rod rolled 45 deg about its axis)" : "its bottom edge on the plane (two box corners)"
    set multiplot layout 3, 1 title sprintf("Painleve's rod inside the region ({/Symbol q} = %g deg, {/Symbol m} = %g): the sliding end, %s", inside_theta, inside_mu, endname)
    set xrange [0:tmax * 1000]
    set autoscale y
    set xlabel "time t [ms]"
    set key bottom right box opaque font ",9" samplen 3 spacing 1
    unset key
    set title "height of the end above the plane (negative: penalty overlap)"
    set ylabel "height [mm]"
    plot for [i = 1:ntr] trfile[i] using (1000 * column("t_s")):(1000 * column("end_height_m")) with lines lw lwv(i) lc rgb mcolor(i) dt dtv(i) title trtitle[i]
    set title "tangential velocity of the end (sliding towards -x: negative)"
    set ylabel "v_t [m/s]"
    set key bottom right box opaque
    plot for [i = 1:ntr] trfile[i] using (1000 * column("t_s")):"end_vt_m_s" with lines lw lwv(i) lc rgb mcolor(i) dt dtv(i) title trtitle[i]
    set title "normal contact force on the end (rigid methods: impulse of the step / h)"
    set ylabel "F_n [N]"
    unset key
    # each row holds the step's (or the interval's) force up to its time: drawn as steps
    plot for [i = 1:ntr] trfile[i] using (1000 * column("t_s")):"fn_step_max_N" with fsteps lw lwv(i) lc rgb mcolor(i) dt dtv(i) title trtitle[i]
    unset multiplot
    unset output
    set xrange [*:*]

    # ---- the penalty spike against the stiffness ----
    npen = sum [i = 1:ntr] (trforce[i] ? 1 : 0)
    if (npen > 0) {
      if (fmt eq "png") {
        set terminal pngcairo size 1300, 500 font "Sans,10" enhanced
      } else {
        set terminal pdfcairo size 8.6in, 3.3in font "Sans,8" enhanced
      }
      set output "painleve-penalty.".fmt
      set multiplot layout 1, 2 title sprintf("Penalty contact at the inside point ({/Symbol q} = %g deg, {/Symbol m} = %g): a normal force spike instead of an impulse", inside_theta, inside_mu)
      set title "normal force on the end, largest of each output interval"
      set xlabel "time t [ms]"
      set ylabel "F_n [N]"
      set xrange [0:tmax * 1000]
      set key top right box opaque font ",9"
      plot for [i = 1:ntr] trfile[i] using (1000 * column("t_s")):(trforce[i] ? column("fn_step_max_N") : NaN) with lines lw 1.5 lc rgb mcolor(i) title (trforce[i] ? trtitle[i] : "")
      set xrange [*:*]
      set logscale x
      set title "the spike against Young's modulus E (Hertz-Mindlin)"
      set xlabel "E [Pa]"
      set ylabel "peak F_n [N]  /  impulse [mN s]"
      set logscale y
      set key bottom right box opaque
      insel(x) = (abs(column("theta_deg") - inside_theta) < 1e-9 && abs(column("mu") - inside_mu) < 1e-12 && column("E_Pa") == column("E_Pa")) ? x : NaN
      plot "painleve-summary.csv" using "E_Pa":(insel(column("fn_peak_N"))) with linespoints pt 7 lw 2 lc rgb "#1f77b4" title "peak normal force [N]", \
           "" using "E_Pa":(insel(1000 * column("impulse_n_Ns"))) with linespoints pt 5 lw 2 lc rgb "#d62728" title "normal impulse of the event (F_n > big m g) [mN s]", \
           "" using "E_Pa":(insel(1000 * column("stick_impulse_n_Ns"))) with lines dt 2 lw 2 lc rgb "black" title "rigid sticking impulse P_n [mN s]"
      unset logscale xy
      unset multiplot
      unset output
    }
  }
}
