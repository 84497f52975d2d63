# run.gp: the figure of `contactlab run`, drawn in its output folder (the program copies this
# script there and runs gnuplot -e "prefix='<scene>-<backend>'" run.gp; run it again by hand
# the same way).
# Input: <prefix>-steps.csv (t_s, kinetic_energy_J, contacts, max_penetration_m; see its # lines).
# Output: <prefix>-run.png (pngcairo) and .pdf: kinetic energy, contact count and deepest
# penetration against time, one panel each, sharing the time axis.

if (!exists("prefix")) {
  prefix = system("ls *-steps.csv 2>/dev/null | head -n 1 | sed -e 's/-steps[.]csv$//'")
}
if (prefix eq "") { print "run.gp: no <scene>-<backend>-steps.csv in this folder"; exit }
f = prefix."-steps.csv"
scene = system("sed -n 's/^# scene = //p' '".f."' | head -n 1 | sed -e 's|.*/||'")
backend = system("sed -n 's/^# backend = //p' '".f."' | head -n 1")
h = system("sed -n 's/^# h_s = //p' '".f."' | head -n 1")

set datafile separator ","
set datafile commentschars "#"
# the kinetic energy on a log axis when it is positive somewhere after the start
stats f using "kinetic_energy_J" nooutput
kepos = (STATS_max > 0)

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 900, 900 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 6in, 6in font "Sans,8" enhanced
  }
  set output prefix."-run.".fmt
  set multiplot layout 3, 1 title sprintf("contactlab run %s under %s (h = %s s)", scene, backend, h) noenhanced
  set grid
  set autoscale xfix
  set key off
  set lmargin 12
  set format x ""
  unset xlabel
  set ylabel "kinetic energy [J]"
  if (kepos) {
    set logscale y
    plot f using "t_s":(column("kinetic_energy_J") > 0 ? column("kinetic_energy_J") : NaN) with lines lw 1.5 lc rgb "#1f77b4"
    unset logscale y
  } else {
    plot f using "t_s":"kinetic_energy_J" with lines lw 1.5 lc rgb "#1f77b4"
  }
  set ylabel "contacts"
  set yrange [0:*]
  plot f using "t_s":"contacts" with steps lw 1.5 lc rgb "#d62728"
  set autoscale y
  set format x "%g"
  set xlabel "time t [s]"
  set ylabel "deepest penetration -{/Symbol F} [m]"
  set format y "%.1te%+03T"
  set yrange [0:*]
  plot f using "t_s":"max_penetration_m" with lines lw 1.5 lc rgb "#2ca02c"
  set autoscale y
  set format y "%g"
  unset multiplot
  unset output
}
