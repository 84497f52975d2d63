# cone.gp: figures of `contactlab cone`, run in its output folder (the driver copies this script
# there and runs it; run it again by hand with `gnuplot cone.gp`).
# Input: cone-summary.csv, the series cone-<method>-v_<v>[-seed_<s>].csv and, with several beds
# (--beds), cone-slopes.csv (each slope's mean over the beds and its standard error).
# Output: cone-force (tip force against depth, every method and speed; with several beds every
# bed's series, a colour a speed) and cone-slope (the slope of tip force against depth against
# the penetration speed: every bed's, and with several beds their mean +- standard error), each
# as .png and .pdf.

set datafile separator ","
set datafile commentschars "#"
if (system("ls cone-summary.csv 2>/dev/null") eq "") { print "cone.gp: no cone-summary.csv in this folder"; exit }
files(pat) = system("ls ".pat." 2>/dev/null | tr '\\n' ' '")
meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
methods = system("awk -F, '/^#/ {next} !h {h = 1; next} !s[$1]++ {printf \"%s \", $1}' cone-summary.csv")
speeds = system("ls cone-*-v_*.csv | sed 's/.*-v_//; s/-seed_.*//; s/.csv$//' | sort -g -u | tr '\\n' ' '")
nbeds = int(system("awk -F, '/^#/ {next} !h {h = 1; for (i = 1; i <= NF; i++) if ($i == \"seed\") k = i; next} !s[$k]++ {n++} END {print n + 0}' cone-summary.csv"))
multi = system("ls cone-slopes.csv 2>/dev/null") ne ""
nm = words(methods)
ns = words(speeds)
vof(f) = strstrt(f, "-seed_") ? f[strstrt(f, "-v_") + 3 : strstrt(f, "-seed_") - 1] : f[strstrt(f, "-v_") + 3 : strlen(f) - 4]
# the legend once per speed: the first bed's series
first_bed(f) = !strstrt(f, "-seed_") || strstrt(f, sprintf("-seed_%s.csv", word(seeds, 1)))
seeds = system("awk -F, '/^#/ {next} !h {h = 1; for (i = 1; i <= NF; i++) if ($i == \"seed\") k = i; next} !s[$k]++ {printf \"%s \", $k}' cone-summary.csv")
vidx(f) = sum [i = 1:ns] (word(speeds, i) eq vof(f) ? i : 0)
title_of(m) = m eq "penalty" ? "Hertz-Mindlin penalty" : m eq "dvi" ? "Tasora-Anitescu CCP" : m
f1 = word(files("cone-*-v_*.csv"), 1)
Hc = real(meta(f1, "cone_height_m"))
Rc = real(meta(f1, "cone_radius_m"))

do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 560 * nm + 60, 480 font "Sans,10" enhanced }
  else { set terminal pdfcairo size 3.9 * nm + 0.4, 3.3 font "Sans,8" enhanced }
  set output "cone-force.".fmt
  set multiplot layout 1, nm title sprintf("Cone penetrometer (60-degree cone, radius %.3g m) pushed into a settled bed: tip force against depth%s", Rc, nbeds > 1 ? sprintf(" (%d beds)", nbeds) : "")
  do for [j = 1:nm] {
    m = word(methods, j)
    fs = files("cone-".m."-v_*.csv")
    set title title_of(m)
    set xlabel "tip depth below the surface [m]"
    set ylabel "tip force F_{tip} (vertical, on the cone's triangles) [N]"
    set grid
    set key top left box opaque font ",8"
    set autoscale
    set offsets 0, 0, graph 0.05, 0
    set arrow 1 from Hc, graph 0 to Hc, graph 1 nohead dt 3 lc rgb "gray30"
    set label 1 "cone embedded" at Hc, graph 0.95 offset 0.5, 0 font ",8"
    plot for [f in fs] f using "depth_m":"F_tip_N" with lines lw (nbeds > 1 ? 1 : 1.5) lc vidx(f) \
         title (first_bed(f) ? sprintf("v = %s m/s", vof(f)) : "")
  }
  unset multiplot
  unset arrow 1
  unset label 1
  unset output
}

do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 760, 520 font "Sans,10" enhanced }
  else { set terminal pdfcairo size 5.2, 3.6 font "Sans,8" enhanced }
  set output "cone-slope.".fmt
  set title (multi ? sprintf("Slope of the tip force against depth over the embedded part, %d beds: mean +- standard error", nbeds) \
                   : "Slope of the tip force against depth over the embedded part: quasi-static where it stops changing with v")
  set xlabel "penetration speed v [m/s]"
  set ylabel "dF_{tip}/d(depth) [N/m]"
  set logscale x
  set grid
  set autoscale
  set offsets graph 0.1, graph 0.1, graph 0.15, graph 0.05
  set key top left box opaque
  # every bed's slope (small points, shifted a little per method so they do not hide each
  # other); the means with their standard errors
  sh(j) = 1.0 + 0.04 * (j - 0.5 * (nm + 1))
  if (multi) {
    plot for [j = 1:nm] "cone-summary.csv" using (strcol(1) eq word(methods, j) ? column("v_m_s") * sh(j) : NaN):"slope_tip_N_m" \
           with points pt 6 ps 0.8 lc j title sprintf("%s, each bed", title_of(word(methods, j))), \
         for [j = 1:nm] "cone-slopes.csv" using (strcol(1) eq word(methods, j) ? column("v_m_s") * sh(j) : NaN):"slope_mean_N_m":"slope_se_N_m" \
           with yerrorlines lw 2 pt 7 ps 1.3 lc j title sprintf("%s, mean +- s.e.", title_of(word(methods, j)))
  } else {
    plot for [j = 1:nm] "cone-summary.csv" using (strcol(1) eq word(methods, j) ? column("v_m_s") : NaN):"slope_tip_N_m" \
         with linespoints lw 2 pt 7 ps 1.5 lc j title title_of(word(methods, j))
  }
  unset output
}
