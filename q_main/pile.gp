# pile.gp: figures of `contactlab pile`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot pile.gp`).
# Input: pile-n_<N>-<method>.csv series and pile-n_<N>-<method>-pdf.csv histograms.
# Output: pile-settling (kinetic energy, contacts, penetration, solver iterations against
# time) and pile-force-pdf (P(f/<f>) with the exponential tail fits), .png and .pdf.

set datafile separator ","
set datafile commentschars "#"

series = system("ls pile-n_*-penalty.csv pile-n_*-dvi.csv 2>/dev/null")
hists = system("ls pile-n_*-penalty-pdf.csv pile-n_*-dvi-pdf.csv 2>/dev/null")
if (words(series) == 0) { print "pile.gp: no pile-n_*-<method>.csv series in this folder"; exit }

meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
isdvi(f) = strstrt(f, "-dvi") > 0
label(f) = (isdvi(f) ? "Tasora-Anitescu CCP" : "Hertz-Mindlin penalty").sprintf(", N = %s, h = %g s", meta(f, "n_spheres"), real(meta(f, "h_s")))
col(f) = isdvi(f) ? "#0072B2" : "#D55E00"
nseries = words(series)
# every N in its own dash pattern when several were run into the same folder
dt_of(i) = 1 + int((i - 1) / 2)

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1200, 900 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8in, 6in font "Sans,8" enhanced
  }
  set output "pile-settling.".fmt
  set multiplot layout 2, 2 title "Granular settling: spheres falling from a random loose packing into a box"
  set grid
  set xlabel "time t [s]"
  set autoscale xfix
  set key top right box opaque

  set title "kinetic energy of the spheres"
  set ylabel "kinetic energy [J]"
  set logscale y
  set format y "10^{%L}"
  plot for [i = 1:nseries] word(series, i) using "t_s":(column("kinetic_energy_J") > 0 ? column("kinetic_energy_J") : NaN) \
       with lines lw 1.5 lc rgb col(word(series, i)) dt dt_of(i) title label(word(series, i))

  set title "contacts (solid: carrying load, F_n > f_{eps}; dashed: all records, {/Symbol F} < envelope)"
  set ylabel "number of contacts"
  unset logscale y
  set format y "%g"
  set key bottom right
  plot for [i = 1:nseries] word(series, i) using "t_s":"contacts_active" with lines lw 1.5 lc rgb col(word(series, i)) \
       title label(word(series, i)), \
       for [i = 1:nseries] word(series, i) using "t_s":"contacts" with lines lw 1 dt 2 lc rgb col(word(series, i)) notitle

  set title "largest penetration -{/Symbol F}"
  set ylabel "max penetration [m]"
  set logscale y
  set format y "10^{%L}"
  set key top left
  plot for [i = 1:nseries] word(series, i) using "t_s":(column("max_penetration_m") > 0 ? column("max_penetration_m") : NaN) \
       with lines lw 1.5 lc rgb col(word(series, i)) title label(word(series, i))

  set title "Tasora-Anitescu CCP solver iterations per step (mean over each output interval)"
  set ylabel "iterations per step"
  unset logscale y
  set format y "%g"
  set key top left
  dvis = system("ls pile-n_*-dvi.csv 2>/dev/null")
  if (words(dvis) > 0) {
    plot for [f in dvis] f using "t_s":"iterations_mean" with lines lw 1.5 lc rgb col(f) \
         title label(f).sprintf(", tol %g m/s, limit %s", real(meta(f, "dvi_tol_m_s")), meta(f, "dvi_max_iter"))
  } else {
    set label 1 "no DVI run in this folder" at graph 0.5, 0.5 center
    plot NaN notitle
    unset label 1
  }
  unset multiplot
  unset output
}

nh = words(hists)
if (nh == 0) { print "pile.gp: no pile-n_*-<method>-pdf.csv histograms in this folder"; exit }
beta(f) = real(meta(f, "tail_beta"))
c0(f) = real(meta(f, "tail_ln_prefactor"))
fmax(f) = real(system("tail -1 ".f." | cut -d, -f2"))
hlabel(f) = (isdvi(f) ? "Tasora-Anitescu CCP" : "Hertz-Mindlin penalty").sprintf(", N = %s: %s forces", meta(f, "n_spheres"), meta(f, "n_forces"))
flabel(f) = sprintf("fit f > <f>: exp(-%.2f f/<f>)", beta(f))

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 900, 650 font "Sans,11" enhanced
  } else {
    set terminal pdfcairo size 6in, 4.3in font "Sans,9" enhanced
  }
  set output "pile-force-pdf.".fmt
  set title "Normal forces between spheres in the settled pile (error bars: {/Symbol \326}count)"
  set xlabel "normalized normal force f / <f>"
  set ylabel "probability density P(f / <f>)"
  set logscale y
  set format y "10^{%L}"
  set grid
  set key top right box opaque
  set xrange [0:fmax(word(hists, 1))]
  # below the density of a single count, so one-count bins show their error bar reaching zero
  nmax = 0
  do for [f in hists] { stats f using "count" nooutput; nmax = (STATS_sum > nmax ? STATS_sum : nmax) }
  bw = fmax(word(hists, 1)) / words(system("grep -v '^#' ".word(hists, 1)." | tail -n +2"))
  set yrange [10**floor(log10(0.5 / (nmax * bw))):*]
  set samples 200
  plot for [i = 1:nh] word(hists, i) using "f_rel_mid":(column("count") > 0 ? column("pdf") : NaN) \
       :(column("pdf") - column("pdf_err") > 0 ? column("pdf") - column("pdf_err") : 1e-30):(column("pdf") + column("pdf_err")) \
       with yerrorbars pt 7 ps 0.8 lc rgb col(word(hists, i)) title hlabel(word(hists, i)), \
       for [i = 1:nh] (x >= 1 ? exp(c0(word(hists, i)) - beta(word(hists, i)) * x) : NaN) \
       with lines lw 1.5 dt 2 lc rgb col(word(hists, i)) title flabel(word(hists, i))
  unset output
}
