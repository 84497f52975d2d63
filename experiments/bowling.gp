# bowling.gp: figures of `contactlab bowling`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot bowling.gp`).
# Input: the series bowling-series.txt lists, one file name a line (this run's, and no other
# file of the folder), bowling-v0_<v0>-mu_<mu>-<method>-h_<h>.csv (see the # lines of each);
# <method> is penalty (Hertz-Mindlin), dvi (Tasora-Anitescu CCP, relaxed Coulomb), dvi-exact
# (De Saxce fixed point, exact Coulomb), dvi-regularized (Lacoursiere-Servin) or any other
# method; the legends take its title from the series' "# method_title" line.
# Colours by method, dashes by step size (the smaller DVI step dashed).
# Output: bowling-height, bowling-normal-force, bowling-slip as .png (pngcairo) and .pdf.

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

# the cases: one panel per (v0, mu)
list = "bowling-series.txt"
cases = system("sed -e 's/^\\(bowling-v0_[^-]*-mu_[^-]*\\)-.*/\\1/' ".list." 2>/dev/null | sort -u -t_ -k2,2g -k3,3g")
ncases = words(cases)
if (ncases == 0) { print "bowling.gp: no series listed in ".list." (run contactlab bowling here)"; exit }
# the listed series of case c whose name continues with pattern p (a grep pattern)
listed(c, p) = sprintf("grep -F -e '%s-' %s | grep -e '^.\\{%d\\}%s'", c, list, strlen(c) + 1, p)
# drawn in this order, so the exact DVI lines lie on top of the others
files(c) = system(listed(c, "penalty-")."; ".listed(c, "dvi-h_")."; ".listed(c, "dvi-[^h]")."; ".listed(c, "")." | grep -v -e '-penalty-' -e '-dvi-'")
# the method and step of a series file f of case c
method(f, c) = f[strlen(c) + 2 : strstrt(f, "-h_") - 1]
hof(f) = f[strstrt(f, "-h_") + 3 : strlen(f) - 4]
# the method's title (its authors), from the series' metadata
# (its first words: the parenthesis that follows, e.g. "(relaxed Coulomb)", is in the title)
mtitle(f) = system("sed -n 's/^# method_title = //p' '".f."' | head -n 1 | sed 's/ (.*//'")
mname(f, c) = (mtitle(f) ne "" ? mtitle(f) : method(f, c))
label(f, c) = mname(f, c).", h = ".hof(f)." s"
mwidth(m) = (m eq "dvi-exact" ? 2.5 : 1.5)
mcolor(m) = (m eq "penalty" ? "#404040" : m eq "dvi" ? "#d62728" : m eq "dvi-exact" ? "#1f77b4" : m eq "midpoint" ? "#9467bd" : m eq "lcp" ? "#ff7f0e" : "#2ca02c")
# dashed for a DVI step smaller than the case's largest, hbig (set per case below; the shell
# compares the numbers, since gnuplot cannot read "1e-04" from a string)
hbig = ""
dvisteps(c) = system(listed(c, "dvi")." | sed -e 's/.*-h_//' -e 's/[.]csv$//' | sort -g | tail -1")
mdash(f) = (strstrt(f, "-penalty-") == 0 && hof(f) ne hbig ? 2 : 1)
v0of(c) = c[strstrt(c, "v0_") + 3 : strstrt(c, "-mu_") - 1]
muof(c) = c[strstrt(c, "-mu_") + 4 : strlen(c)]
title(c) = sprintf("v_0 = %s m/s, {/Symbol m} = %s", v0of(c), muof(c))

ncol = (ncases > 1 ? 2 : 1)
nrow = int((ncases + ncol - 1) / ncol)

do for [fmt in "png pdf"] {
  do for [fig in "height normal-force slip"] {
    if (fmt eq "png") {
      set terminal pngcairo size 1200, 450 * nrow + 60 font "Sans,10" enhanced
    } else {
      set terminal pdfcairo size 8in, (3.0 * nrow + 0.4) font "Sans,8" enhanced
    }
    set output "bowling-".fig.".".fmt
    set multiplot layout nrow, ncol title \
      (fig eq "height" ? "Bowling ball: height of the lowest point above the plane (relaxed CCP lifts off; exact Coulomb and penalty do not)" : \
       fig eq "normal-force" ? "Bowling ball: normal contact force" : \
       "Bowling ball: slip speed v_x - R {/Symbol w}_y against the analytic slip-to-roll line")
    do for [i = 1:ncases] {
      c = word(cases, i)
      hbig = dvisteps(c)
      set title title(c)
      set xlabel "time t [s]"
      set grid
      set autoscale xfix
      set offsets graph 0.02, 0.02, 0, 0
      # the legend in one panel only (every panel draws the same methods and steps), the second,
      # where every curve has settled (upper right; below m g for the force), not over the lift-off
      if (fig eq "normal-force") { set key bottom right } else { set key top right }
      set key box opaque font ",8" samplen 2 spacing 0.9 width -2
      if (i != (ncases > 1 ? 2 : 1)) { unset key }
      unset logscale y
      set autoscale y
      if (fig eq "height") {
        set ylabel "height of lowest point [m]"
        plot for [f in files(c)] f using "t_s":"height_m" with lines lw mwidth(method(f, c)) lc rgb mcolor(method(f, c)) dt mdash(f) title label(f, c)
      }
      if (fig eq "normal-force") {
        set ylabel "normal force F_n [N], mean over each output interval"
        set logscale y
        set yrange [1:*]
        # F_n = 0 (flight) is drawn below the axis, so isolated spikes of one step stay visible;
        # the row at t = 0 (before the first step: no force yet) is left out
        plot for [f in files(c)] f using "t_s":(column("t_s") <= 0 ? NaN : column("fn_N") > 1e-3 ? column("fn_N") : 1e-3) with lines lw 1.2 lc rgb mcolor(method(f, c)) dt mdash(f) title label(f, c), \
             7 * 9.81 with lines dt 2 lc rgb "black" title "m g"
      }
      if (fig eq "slip") {
        set ylabel "slip speed [m/s]"
        set yrange [*:*]
        w1 = word(files(c), 1)
        plot for [f in files(c)] f using "t_s":"slip_m_s" with lines lw mwidth(method(f, c)) lc rgb mcolor(method(f, c)) dt mdash(f) title label(f, c), \
             w1 using "t_s":"slip_analytic_m_s" with lines dt 2 lw 2 lc rgb "black" title "analytic: v_0 - 7/2 {/Symbol m} g t"
      }
    }
    unset multiplot
    unset output
  }
}
