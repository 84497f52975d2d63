# convergence.gp: figures of `contactlab convergence`, run in its output folder (the driver
# copies this script there and runs it; run it again by hand with `gnuplot convergence.gp`).
# Input: convergence-settled_<method>-<solver>.csv (residual after each iteration).
# Output: convergence.png and convergence.pdf: residual against iteration (left) and against
# CPU time (right), one row per settled snapshot.

set datafile separator ","
set datafile commentschars "#"

snaps = system("ls convergence-settled_*-*.csv 2>/dev/null | sed -e 's/^convergence-settled_\\([a-z]*\\)-.*/\\1/' | sort -u")
nsnap = words(snaps)
if (nsnap == 0) { print "convergence.gp: no convergence-settled_*.csv series in this folder"; exit }
files(m) = system("ls convergence-settled_".m."-*.csv")
meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
solver(f) = meta(f, "solver")
spi(f) = real(meta(f, "cpu_s_per_iteration"))
omega(f) = meta(f, "omega")
label(f) = solver(f).(omega(f) ne "" ? sprintf(" ({/Symbol w} = %g)", real(omega(f))) : "")
# solid: the smallest residual so far; thin and light: the residual of each iterate
light(f) = "#B0".col(f)[2:7]
col(f) = solver(f) eq "apgd" ? "#0072B2" : solver(f) eq "gs" ? "#D55E00" : solver(f) eq "jacobi" ? "#009E73" : "#CC79A7"
snaptitle(m) = sprintf("pile of %s spheres settled under %s: %s contacts, %s unknowns, h = %g s", \
    meta(word(files(m), 1), "n_spheres"), (m eq "dvi" ? "DVI" : "penalty"), meta(word(files(m), 1), "contacts"), \
    meta(word(files(m), 1), "unknowns"), real(meta(word(files(m), 1), "h_s")))

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1200, 470 * nsnap + 40 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8in, (3.1 * nsnap + 0.3) font "Sans,8" enhanced
  }
  set output "convergence.".fmt
  set multiplot layout nsnap, 2 title "CCP solvers on one settled-pile problem, cold start ({/Symbol n} = 0); thick: smallest residual so far, thin: each iterate"
  do for [i = 1:nsnap] {
    m = word(snaps, i)
    fl = files(m)
    nf = words(fl)
    array SPI[nf]
    do for [j = 1:nf] { SPI[j] = spi(word(fl, j)) }
    set grid
    set logscale y
    set format y "10^{%L}"
    set ylabel "residual r [m/s]"
    set key top right box opaque
    # one decade of headroom above the largest residual, for the key
    rmax = 0
    do for [f in fl] { stats f using "residual_m_s" nooutput; rmax = (STATS_max > rmax ? STATS_max : rmax) }
    set yrange [*:10**(ceil(log10(rmax)) + 1)]
    set title snaptitle(m)
    set xlabel "iteration"
    unset logscale x
    set format x "%g"
    plot for [f in fl] f using "iteration":"residual_m_s" with lines lw 0.5 lc rgb light(f) notitle, \
         for [f in fl] f using "iteration":"best_residual_m_s" with lines lw 2 lc rgb col(f) title label(f), \
         1e-4 with lines dt 3 lc rgb "gray30" notitle, 1e-6 with lines dt 3 lc rgb "gray30" notitle
    set title "the same against CPU time (iteration x mean CPU seconds per iteration)"
    set xlabel "CPU time [s]"
    set logscale x
    set format x "10^{%L}"
    plot for [j = 1:nf] word(fl, j) using ($1 * SPI[j]):"residual_m_s" with lines lw 0.5 lc rgb light(word(fl, j)) \
         notitle, \
         for [j = 1:nf] word(fl, j) using ($1 * SPI[j]):"best_residual_m_s" with lines lw 2 lc rgb col(word(fl, j)) \
         title label(word(fl, j)), \
         1e-4 with lines dt 3 lc rgb "gray30" notitle, 1e-6 with lines dt 3 lc rgb "gray30" notitle
  }
  unset multiplot
  unset output
}
