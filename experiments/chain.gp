# chain.gp: figures of `contactlab chain`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot chain.gp`).
# Input: chain-summary.csv, chain-arrival-<law>-<method>-h_<h>.csv (one row per sphere) and
# chain-series-<law>-<method>-h_<h>.csv (velocity of every sphere against time).
# Output: chain-arrival (arrival time against position, with the theoretical lines) and
# chain-velocity (velocities of every fifth sphere), as .png (pngcairo) and .pdf (pdfcairo).

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls chain-summary.csv 2>/dev/null") eq "") { print "chain.gp: no chain-summary.csv in this folder"; exit }
afiles = system("ls chain-arrival-hertz-*.csv chain-arrival-hooke-*.csv chain-arrival-rigid-*.csv 2>/dev/null | tr '\\n' ' '")
sfiles = system("ls chain-series-hertz-*.csv chain-series-hooke-*.csv chain-series-rigid-*.csv 2>/dev/null | tr '\\n' ' '")
na = words(afiles)
ns = words(sfiles)
if (na == 0) { print "chain.gp: no chain-arrival-*.csv in this folder"; exit }
meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
law(f) = (strstrt(f, "-hertz-") > 0 ? "hertz" : (strstrt(f, "-hooke-") > 0 ? "hooke" : "rigid"))
hof(f) = f[strstrt(f, "-h_") + 3 : strlen(f) - 4]
# the summary's value of a column for the row of this arrival file
sumval(f, name) = real(system("grep -v '^#' chain-summary.csv | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == \"".name."\") c = i; next} " . \
  "index($0, \"".f."\") {print $c; exit}'"))
colour(f) = (law(f) eq "hertz" ? "#1f77b4" : (law(f) eq "hooke" ? "#2ca02c" : "#d62728"))
label(f) = law(f) eq "rigid" ? sprintf("Tasora-Anitescu CCP, h = %s s: every sphere at t = h", hof(f)) : \
  sprintf("Hertz-Mindlin penalty %s, h = %s s: %.0f m/s", (law(f) eq "hertz" ? "Hertz" : "Hooke"), hof(f), sumval(f, "wave_speed_m_s"))
theory(f) = law(f) eq "rigid" ? "Tasora-Anitescu CCP: t = h (first step)" : (law(f) eq "hertz" ? \
  sprintf("Nesterenko V_s = %.0f m/s (v_m = %.2f m/s)", sumval(f, "wave_speed_theory_m_s"), sumval(f, "v_wave_m_s")) : \
  sprintf("linear chain a (k/m)^{1/2} = %.0f m/s", sumval(f, "wave_speed_theory_m_s")))
n = int(real(meta(word(afiles, 1), "n_spheres")))
v0 = real(meta(word(afiles, 1), "v_striker_m_s"))
thr = real(meta(word(afiles, 1), "threshold"))

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 900, 600 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 6in, 4in font "Sans,8" enhanced
  }
  set output "chain-arrival.".fmt
  set title sprintf("Chain of %d touching spheres struck at one end at %g m/s: arrival of the blow\n(arrival: speed first exceeds %g v; lines: theory with the measured wave amplitude)", n, v0, thr)
  set xlabel "position of the sphere's center from the first sphere x [mm]"
  set ylabel "arrival time [{/Symbol m}s]"
  set grid
  set key top left box opaque font ",9" spacing 1.3
  set xrange [*:*]
  set yrange [0:*]
  set autoscale xfix
  set offsets graph 0.02, graph 0.02, graph 0.15, 0
  plot for [f in afiles] f using (1000 * column("x_m")):(1e6 * column("arrival_s")) with points pt 7 ps 0.9 lc rgb colour(f) title label(f), \
       for [f in afiles] f using (1000 * column("x_m")):(1e6 * column("arrival_theory_s")) with lines lw 1.5 dt 2 lc rgb colour(f) title theory(f)
  unset output
}

# velocities of every fifth sphere and of the striker, one panel per run; colour = position
step = n >= 20 ? 5 : 1
set palette defined (0 "#440154", 0.25 "#3b528b", 0.5 "#21918c", 0.75 "#5ec962", 1 "#e8c31a")
unset colorbox
set cbrange [0:n]
do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 520 * ns + 80, 480 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 3.5 * ns + 0.5, 3.3 font "Sans,8" enhanced
  }
  set output "chain-velocity.".fmt
  set multiplot layout 1, ns title sprintf("Chain of %d spheres struck at %g m/s: velocity of the striker and of spheres 1, %d, %d, ... against time", n, v0, step, 2 * step)
  do for [j = 1:ns] {
    f = word(sfiles, j)
    set title (law(f) eq "rigid" ? sprintf("Tasora-Anitescu CCP, h = %s s: after the first step all move at v/(N+1) = %.3g m/s", hof(f), v0 / (n + 1)) : sprintf("Hertz-Mindlin penalty, %s contacts, h = %s s", (law(f) eq "hertz" ? "Hertz" : "Hooke"), hof(f)))
    set xlabel "time [{/Symbol m}s]"
    set ylabel "velocity along the row [m/s]"
    set grid
    set key top right box opaque font ",8" maxrows 6
    set xrange [0:*]
    set autoscale xfix
    set yrange [*:*]
    set offsets 0, 0, graph 0.35, graph 0.05
    plot f using (1e6 * column("t_s")):"v_striker_m_s" with lines lw 1.5 dt 2 lc rgb "black" title "striker", \
         for [i = 0:n:step] f using (1e6 * column("t_s")):(column(sprintf("v_%d_m_s", (i == 0 ? 1 : i)))) with lines lw 1.5 \
           lc palette cb (i == 0 ? 1 : i) title sprintf("sphere %d", (i == 0 ? 1 : i))
  }
  unset multiplot
  unset output
}
