# cone-error.gp: figures of `contactlab cone-error`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot cone-error.gp`).
# Input: cone-error-summary.csv (measured), cone-error-closed-form.csv (the closed form for a
# regular k-gon, doc/lcp.md) and the trajectories cone-error-k_<k>-<method>.csv.
# Output: cone-error (the friction's deflection at the launch, the heading's turn and the path's
# deflection at the stop against the launch angle phi, one colour per k) and cone-error-paths
# (the trajectories at --phi-track), .png and .pdf.

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls cone-error-summary.csv 2>/dev/null") eq "") { print "cone-error.gp: no cone-error-summary.csv in this folder"; exit }
meta(k) = system("sed -n 's/^# ".k." = //p' cone-error-summary.csv | head -1")
mu = real(meta("mu"))
ks = system("grep -v '^#' cone-error-closed-form.csv | tail -n +2 | cut -d, -f1 | sort -gu | tr '\\n' ' '")
K(i) = real(word(ks, i))
selk(k) = (strcol("method") eq "lcp" && column("k") == k) ? 1 : NaN
cfk(k) = column("k") == k ? 1 : NaN
tfiles = system("ls cone-error-k_*-lcp.csv 2>/dev/null | sort -t_ -k2 -g | tr '\\n' ' '")
kof(f) = f[strstrt(f, "k_") + 2 : strstrt(f, "-lcp") - 1]

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1500, 500 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 10in, 3.4in font "Sans,8" enhanced
  }
  set output "cone-error.".fmt
  set multiplot layout 1, 3 title sprintf("Stewart-Trinkle LCP, friction polygon of k edges: a puck launched at {/Symbol f} from an edge ({/Symbol m} = %g); points: simulation, lines: closed form", mu)
  set grid
  set xlabel "launch angle {/Symbol f} from edge 0 [deg]"
  set xrange [0:90]
  set xtics 15
  set key top right box opaque font ",8"
  set title "friction force from -v at the launch"
  set ylabel "deflection [deg]"
  plot for [i = 1:words(ks)] "cone-error-closed-form.csv" using "phi_deg":(cfk(K(i)) * column("force_deflection_deg")) with lines lw 1.5 lc i notitle, \
       for [i = 1:words(ks)] "cone-error-summary.csv" using "phi_deg":(selk(K(i)) * column("force_deflection_deg")) with points pt 7 ps 0.7 lc i title sprintf("k = %d", K(i))
  set title "turn of the heading at the stop"
  set ylabel "heading turn [deg]"
  plot for [i = 1:words(ks)] "cone-error-closed-form.csv" using "phi_deg":(cfk(K(i)) * column("heading_turn_deg")) with lines lw 1.5 lc i notitle, \
       for [i = 1:words(ks)] "cone-error-summary.csv" using "phi_deg":(selk(K(i)) * column("heading_turn_deg")) with points pt 7 ps 0.7 lc i title sprintf("k = %d", K(i))
  set title "deflection of the path (displacement at the stop)"
  set ylabel "path deflection [deg]"
  plot for [i = 1:words(ks)] "cone-error-closed-form.csv" using "phi_deg":(cfk(K(i)) * column("path_deflection_deg")) with lines lw 1.5 lc i notitle, \
       for [i = 1:words(ks)] "cone-error-summary.csv" using "phi_deg":(selk(K(i)) * column("path_deflection_deg")) with points pt 7 ps 0.7 lc i title sprintf("k = %d", K(i))
  unset multiplot
  unset output

  if (words(tfiles) > 0) {
    if (fmt eq "png") {
      set terminal pngcairo size 1000, 480 font "Sans,10" enhanced
    } else {
      set terminal pdfcairo size 7in, 3.4in font "Sans,8" enhanced
    }
    set output "cone-error-paths.".fmt
    phit = real(system("sed -n 's/^# phi_deg = //p' ".word(tfiles, 1)." | head -1"))
    set title sprintf("Puck trajectories launched at {/Symbol f} = %g deg from edge 0 (dashed: the launch direction)", phit)
    set xlabel "x along u (edge 0) [m]"
    set ylabel "y along w = n x u [m]"
    set size ratio -1
    set xrange [*:*]
    set yrange [*:*]
    set xtics autofreq
    set key top left box opaque
    set parametric
    v0 = real(meta("v0_m_s"))
    g = real(meta("g_m_s2"))
    set trange [0:v0 * v0 / (2 * mu * g)]
    plot for [f in tfiles] f using "x_u_m":"y_w_m" with lines lw 2 title sprintf("k = %s", kof(f)), \
         t * cos(phit * pi / 180), t * sin(phit * pi / 180) with lines dt 2 lc rgb "black" title "round cone: straight, V^2/(2 {/Symbol m} g)"
    unset parametric
    set size noratio
    unset output
  }
}
