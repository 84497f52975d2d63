# validate.gp: figures of `contactlab validate`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot validate.gp`).
# Input: validate-test<N>-<material>-<method>.csv, columns x, closed form 1, obtained 1,
# closed form 2, obtained 2.
# Output: validate-test4 (tangential restitution and rebound angle against the incidence angle,
# Chung-Ooi test 4), validate-test5 (normalized spin and contact-point recoil against the
# normalized tangential speed), validate-test6 (tangential velocity and spin after against the
# spin before), each with the closed form as a line and every method as points, .png and .pdf.

set datafile separator ","
set datafile commentschars "#"
set key noautotitle

files(pat) = system("ls ".pat." 2>/dev/null | tr '\\n' ' '")
methodof(f) = system("sed -n 's/^# method = //p' ".f." | head -1")
matof(f) = system("sed -n 's/^# material = //p' ".f." | head -1")
cf(f) = system("sed -n 's/^# closed_form = //p' ".f." | head -1")
ccp(f) = strstrt(cf(f), "e = 0") > 0
# dash: rigid body solid, exact Coulomb dashed, the relaxed cone dash-dotted
dash(f) = ccp(f) ? (strstrt(cf(f), "relaxed") > 0 ? 4 : 2) : 1

# tn: the test, 4, 5 or 6; xl, y1, y2: axis labels; t1, t2: panel titles
do for [tn in "4 5 6"] {
  fs = files("validate-test".tn."-*.csv")
  if (words(fs) > 0) {
    if (tn eq "4") {
      xl = "incidence angle theta from the normal [deg]"; y1 = "tangential restitution e_t = v_t'/v_t"; y2 = "rebound angle [deg]"
      T = "Chung-Ooi test 4: oblique impact at 3.9 m/s (Al oxide, mu = 0.092, e = 0.98)"
    }
    if (tn eq "5") {
      xl = "v_t/(mu v_n)"; y1 = "R omega'/(mu v_n)"; y2 = "contact-point recoil v_{ct}'/(mu v_n)"
      T = "Chung-Ooi test 5: oblique impact at v_n = 5 m/s (mu = 0.3, e = 1)"
    }
    if (tn eq "6") {
      xl = "spin before omega [rad/s]"; y1 = "tangential velocity after v_t' [m/s]"; y2 = "spin after omega' [rad/s]"
      T = "Chung-Ooi test 6: spinning sphere on a rigid plane, v_n = 0.2 m/s (mu = 0.4, e = 0.5)"
    }
    m1 = matof(word(fs, 1))
    do for [fmt in "png pdf"] {
      if (fmt eq "png") { set terminal pngcairo size 1200, 680 font "Sans,10" enhanced } else { set terminal pdfcairo size 8.4, 4.5 font "Sans,8" enhanced }
      set output "validate-test".tn.".".fmt
      set multiplot layout 1, 2 title T
      set grid
      set key below box opaque font ",9" maxrows 4
      set offsets graph 0, graph 0, graph 0.05, graph 0.05
      set xlabel xl offset 0, 0.4
      do for [q = 1:2] {
        set ylabel (q == 1 ? y1 : y2)
        # the closed forms do not depend on the material: drawn once, from the first one's files
        plot for [f in fs] f using 1:(matof(f) eq m1 ? column(2 * q) : NaN) with lines lw 2 dt dash(f) \
               lc rgb (ccp(f) ? "gray50" : "black") \
               title (matof(f) ne m1 ? "" : ccp(f) ? "rigid, e = 0, ".methodof(f)."'s cone (closed form)" : "rigid body (closed form)"), \
             for [f in fs] f using 1:(column(2 * q + 1)) with points pt (matof(f) eq m1 ? 6 : 5) ps (matof(f) eq m1 ? 1.4 : 0.6) \
               title methodof(f).", ".matof(f)
      }
      unset multiplot
    }
  }
}
