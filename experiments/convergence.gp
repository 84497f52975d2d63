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
    meta(word(files(m), 1), "n_spheres"), (m eq "dvi" ? "Tasora-Anitescu CCP" : m eq "penalty" ? "Hertz-Mindlin penalty" : m), meta(word(files(m), 1), "contacts"), \
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

# ---- convergence-regularized.png/.pdf: Gauss-Seidel on the Lacoursiere-Servin regularized CCP ----
# Input: convergence-regularized_<method>-gs-eps_<eps_rel>.csv and convergence-regularized.csv
# (eps_rel = eps m/h^2; 0 is the rigid CCP). Left: residual against iteration; right: the
# iterations to reach 1e-4, 1e-6 m/s and the tolerance against eps_rel.
rfiles = system("ls convergence-regularized_*-gs-eps_*.csv 2>/dev/null | sort -t_ -k3,3g")
if (words(rfiles) > 0) {
  rsnaps = system("ls convergence-regularized_*-gs-eps_*.csv | sed -e 's/^convergence-regularized_\\([a-z]*\\)-.*/\\1/' | sort -u")
  rfl(m) = system("ls convergence-regularized_".m."-gs-eps_*.csv | sed -e 's/.*-eps_//' -e 's/\\.csv$//' | sort -g | sed -e 's/^/convergence-regularized_".m."-gs-eps_/' -e 's/$/.csv/'")
  epsof(f) = real(meta(f, "eps_rel"))
  rlabel(f) = epsof(f) == 0 ? "rigid CCP (Tasora-Anitescu)" : sprintf("{/Symbol e} m/h^2 = %g", epsof(f))
  nrs = words(rsnaps)
  rcolors = "black #0072B2 #56B4E9 #009E73 #E69F00 #D55E00 #CC79A7 #999999 #000080"
  do for [fmt in "png pdf"] {
    if (fmt eq "png") {
      set terminal pngcairo size 1200, 470 * nrs + 40 font "Sans,10" enhanced
    } else {
      set terminal pdfcairo size 8in, (3.1 * nrs + 0.3) font "Sans,8" enhanced
    }
    set output "convergence-regularized.".fmt
    set multiplot layout nrs, 2 title "Projected Gauss-Seidel on the settled-pile CCP with and without the Lacoursiere-Servin regularization (diagonal {/Symbol S} = {/Symbol e}/h^2 added to N), cold start"
    do for [i = 1:nrs] {
      m = word(rsnaps, i)
      fl = rfl(m)
      nf = words(fl)
      f1 = word(fl, 1)
      set title sprintf("pile of %s spheres settled under %s: %s contacts, h = %g s, mean sphere mass %.3g kg", \
          meta(f1, "n_spheres"), (m eq "dvi" ? "Tasora-Anitescu CCP" : m eq "penalty" ? "Hertz-Mindlin penalty" : m), meta(f1, "contacts"), real(meta(f1, "h_s")), \
          real(meta(f1, "mean_mass_kg")))
      set grid
      set logscale y
      set format y "10^{%L}"
      unset logscale x
      set format x "%g"
      set xlabel "Gauss-Seidel iteration"
      set ylabel "smallest residual so far r [m/s]"
      set yrange [*:*]
      set xrange [*:*]
      set key top right box opaque
      plot for [j = 1:nf] word(fl, j) using "iteration":"best_residual_m_s" with lines lw 2 \
           lc rgb (word(rcolors, j)) title rlabel(word(fl, j)), \
           1e-4 with lines dt 3 lc rgb "gray30" notitle, 1e-6 with lines dt 3 lc rgb "gray30" notitle
      set title "iterations to reach a residual (no point: not reached)"
      set logscale x
      set format x "10^{%L}"
      set logscale y
      set format y "10^{%L}"
      set xlabel "relative compliance {/Symbol e} m / h^2  (stiffness k = 1/{/Symbol e})"
      set ylabel "Gauss-Seidel iterations"
      set key top right box opaque
      # rigid iterations (eps_rel = 0 cannot sit on the log axis): drawn as horizontal lines
      stats "convergence-regularized.csv" using (stringcolumn("settle_method") eq m && column("eps_rel") == 0 ? column("iterations") : 1/0) nooutput
      rigid_it = STATS_max
      stats "convergence-regularized.csv" using (stringcolumn("settle_method") eq m && column("eps_rel") == 0 ? column("iterations_to_1e-4") : 1/0) nooutput
      rigid_4 = STATS_max
      set key bottom left box opaque
      plot "convergence-regularized.csv" using (stringcolumn("settle_method") eq m && column("eps_rel") > 0 ? column("eps_rel") : 1/0):"iterations_to_1e-4" with linespoints lw 2 pt 7 title "to r = 10^{-4} m/s", \
           "" using (stringcolumn("settle_method") eq m && column("eps_rel") > 0 ? column("eps_rel") : 1/0):"iterations_to_1e-6" with linespoints lw 2 pt 5 title "to r = 10^{-6} m/s", \
           "" using (stringcolumn("settle_method") eq m && column("eps_rel") > 0 ? column("eps_rel") : 1/0):(column("converged") > 0 ? column("iterations") : 1/0) with linespoints lw 2 pt 9 title sprintf("to the tolerance %s m/s", meta(f1, "tol_m_s")), \
           rigid_4 with lines dt 3 lw 2 lc rgb "#9400D3" title sprintf("rigid CCP to r = 10^{-4} m/s: %d", int(rigid_4)), \
           rigid_it with lines dt 2 lc rgb "black" title sprintf("rigid CCP: %d iterations (%s)", int(rigid_it), ((real(meta(f1, "max_iter")) <= rigid_it) ? "the limit" : "converged"))
    }
    unset multiplot
    unset output
  }
}
