# scaling.gp: figure of `contactlab scaling`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot scaling.gp`).
# Input: scaling-summary.csv (one row per method and N) and scaling-fit.csv (c N^b per method).
# Output: scaling.png and scaling.pdf: CPU seconds per step (with the fits) and per simulated
# second against N, log-log.

set datafile separator ","
set datafile commentschars "#"

if (system("test -s scaling-summary.csv && echo y") ne "y") { print "scaling.gp: no scaling-summary.csv in this folder"; exit }
methods = system("grep -v '^#' scaling-summary.csv | tail -n +2 | cut -d, -f1 | sort -u")
fitval(m, k) = real(system("grep '^".m.",' scaling-fit.csv | cut -d, -f".k))
hasfit(m) = system("grep -c '^".m.",' scaling-fit.csv") + 0 > 0
col(m) = m eq "dvi" ? "#0072B2" : "#D55E00"
name(m) = m eq "dvi" ? "Tasora-Anitescu CCP" : m eq "penalty" ? "Hertz-Mindlin penalty" : m
meta(k) = system("grep '^# ".k." = ' scaling-n_*-dvi.csv 2>/dev/null | head -1 | sed 's/.* = //'")
dvitol = meta("dvi_tol_m_s")
hstr(m) = sprintf("%g", real(system("grep '^".m.",' scaling-summary.csv | head -1 | cut -d, -f4")))
nm = words(methods)
array B[nm]
array C[nm]
array BE[nm]
do for [i = 1:nm] {
  m = word(methods, i)
  B[i] = hasfit(m) ? fitval(m, 2) : NaN
  BE[i] = hasfit(m) ? fitval(m, 3) : NaN
  C[i] = hasfit(m) ? fitval(m, 4) : NaN
}
ptitle(i) = name(word(methods, i)).", h = ".hstr(word(methods, i))." s".(word(methods, i) eq "dvi" && dvitol ne "" ? sprintf(", tol %g m/s", real(dvitol)) : "")
ftitle(i) = sprintf("fit %.2e N^{%.3f%s}", C[i], B[i], BE[i] >= 0.0005 ? sprintf(" {/Symbol \261} %.3f", BE[i]) : "")

stats "scaling-summary.csv" using "n" nooutput
nlo = STATS_min / 1.3
nhi = STATS_max * 1.3

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1300, 560 font "Sans,11" enhanced
  } else {
    set terminal pdfcairo size 9in, 3.9in font "Sans,9" enhanced
  }
  set output "scaling.".fmt
  set multiplot layout 1, 2 title "Cost against the number of spheres (deposited pile, single thread; dashed: least-squares fit c N^b)"
  set xlabel "number of spheres N"
  set logscale xy
  set xrange [nlo:nhi]
  set xtics ("100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000, "5000" 5000, "10^4" 1e4, "2·10^4" 2e4, \
             "5·10^4" 5e4, "10^5" 1e5)
  set format y "10^{%L}"
  set grid xtics ytics mxtics mytics
  set key top left box opaque

  set title "CPU time per step"
  set ylabel "CPU time per step [s]"
  plot for [i = 1:nm] "scaling-summary.csv" using (strcol(1) eq word(methods, i) ? column("n") : NaN):"cpu_s_per_step" \
       with linespoints pt 7 ps 1.2 lw 1.5 lc rgb col(word(methods, i)) title ptitle(i), \
       for [i = 1:nm] C[i] * x**B[i] with lines dt 2 lw 1.5 lc rgb col(word(methods, i)) title ftitle(i)

  set title "CPU time per simulated second (steps of the method's own size h)"
  set ylabel "CPU time per simulated second [s/s]"
  plot for [i = 1:nm] "scaling-summary.csv" using (strcol(1) eq word(methods, i) ? column("n") : NaN):"cpu_s_per_simulated_s" \
       with linespoints pt 7 ps 1.2 lw 1.5 lc rgb col(word(methods, i)) title ptitle(i)
  unset multiplot
  unset output
}
