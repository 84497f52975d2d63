# shear.gp: figures of `contactlab shear`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot shear.gp`).
# Input: shear-summary.csv, shear-mohr-coulomb.csv and the shear-sigma_<kPa>kPa-<method>.csv
# series. Output (.png and .pdf): shear-stress-ratio (tau/sigma_n against the shear
# displacement, one panel per normal stress, every method), shear-dilation (the plate's rise),
# shear-mohr-coulomb (peak and residual tau against sigma_n with the fitted envelopes).

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls shear-summary.csv shear-mohr-coulomb.csv 2>/dev/null | wc -l") + 0 < 2) { print "shear.gp: no shear-summary.csv or shear-mohr-coulomb.csv in this folder"; exit }
sfile = system("ls shear-sigma_*.csv 2>/dev/null | head -1")
meta(k) = system("sed -n 's/^# ".k." = //p' ".sfile." | head -1")
# the normal stresses (targets, kPa) and the methods, in the order they ran
sigmas = system("awk -F, '!/^#/ && $1 != \"method\" && !($2 in s) {s[$2] = 1; printf \"%s \", $2}' shear-summary.csv")
methods = system("awk -F, '!/^#/ && $1 != \"method\" {printf \"%s \", $1}' shear-mohr-coulomb.csv")
title(m) = system("awk -F, -v m=".m." '!/^#/ && $1 == m {print $NF}' shear-mohr-coulomb.csv")
mc(m, col) = real(system("awk -F, -v m=".m." -v c=".col." '!/^#/ && $1 == m {print ($c == \"\" ? \"NaN\" : $c)}' shear-mohr-coulomb.csv"))
ns = words(sigmas)
nm = words(methods)
series(s, m) = sprintf("shear-sigma_%skPa-%s.csv", s, m)
# the indices (in methods) of the methods run at normal stress s (De Saxce's fixed point runs
# at the first and last only by default), so each method keeps its color in every panel
ran(s) = system("j=0; for m in ".methods."; do j=$((j+1)); [ -f shear-sigma_".s."kPa-$m.csv ] && printf '%d ' $j; done")
array colors[8] = ["#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
color(i) = colors[(i - 1) % 8 + 1]
rows = ns <= 2 ? 1 : 2
cols = ns <= 2 ? ns : int((ns + 1) / 2)
info = sprintf("%s spheres, d = %g mm, {/Symbol m} = %s, shear speed %g mm/s", meta("n"), 1e3 * real(meta("d_m")), meta("mu"), 1e3 * real(meta("shear_speed_m_s")))

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 560 * cols, 470 * rows + 40 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 4.0 * cols, 3.4 * rows + 0.3 font "Sans,8" enhanced
  }
  # tau/sigma_n against displacement, one panel per normal stress
  set output "shear-stress-ratio.".fmt
  set multiplot layout rows, cols title "Direct shear: stress ratio against shear displacement; ".info
  set grid
  set xlabel "shear displacement [mm]"
  set ylabel "{/Symbol t} / {/Symbol s}_n"
  set key below font ",8"
  set yrange [0:*]
  do for [i = 1:ns] {
    set title sprintf("{/Symbol s}_n = %s kPa", word(sigmas, i))
    js = ran(word(sigmas, i))
    plot for [k = 1:words(js)] series(word(sigmas, i), word(methods, int(word(js, k)))) using "x_mm":"stress_ratio" \
         with lines lw 1.5 lc rgb color(int(word(js, k))) title title(word(methods, int(word(js, k))))
  }
  unset multiplot
  unset output

  # the plate's rise
  set output "shear-dilation.".fmt
  set multiplot layout rows, cols title "Direct shear: dilation (rise of the loading plate) against shear displacement"
  set ylabel "plate rise [mm]"
  set yrange [*:*]
  set key below font ",8"
  do for [i = 1:ns] {
    set title sprintf("{/Symbol s}_n = %s kPa", word(sigmas, i))
    js = ran(word(sigmas, i))
    plot for [k = 1:words(js)] series(word(sigmas, i), word(methods, int(word(js, k)))) using "x_mm":"dilation_mm" \
         with lines lw 1.5 lc rgb color(int(word(js, k))) title title(word(methods, int(word(js, k))))
  }
  unset multiplot
  unset output

  # Mohr-Coulomb envelopes: peak and residual
  if (fmt eq "png") {
    set terminal pngcairo size 1200, 600 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8in, 4in font "Sans,8" enhanced
  }
  set output "shear-mohr-coulomb.".fmt
  set multiplot layout 1, 2 title "Mohr-Coulomb envelopes {/Symbol t} = c + {/Symbol s}_n tan {/Symbol f} (least squares); ".info
  set xlabel "normal stress on the shear plane {/Symbol s}_n [kPa]"
  set ylabel "shear stress {/Symbol t} [kPa]"
  set xrange [0:*]
  set yrange [0:*]
  set key below font ",8"
  sel(m) = strcol("method") eq m ? 1 : NaN
  set title "peak"
  plot for [j = 1:nm] "shear-summary.csv" using "sigma_n_kPa":(sel(word(methods, j)) * column("tau_peak_kPa")) \
         with points pt 7 ps 1.3 lc rgb color(j) \
         title sprintf("%s: {/Symbol f} = %.1f deg, c = %.2f kPa", title(word(methods, j)), mc(word(methods, j), 2), mc(word(methods, j), 4)), \
       for [j = 1:nm] mc(word(methods, j), 4) + x * mc(word(methods, j), 12) with lines lw 1.5 lc rgb color(j) notitle
  set title "residual (mean over the last third of the shift)"
  plot for [j = 1:nm] "shear-summary.csv" using "sigma_n_kPa":(sel(word(methods, j)) * column("tau_residual_kPa")) \
         with points pt 5 ps 1.2 lc rgb color(j) \
         title sprintf("%s: {/Symbol f} = %.1f deg, c = %.2f kPa", title(word(methods, j)), mc(word(methods, j), 7), mc(word(methods, j), 9)), \
       for [j = 1:nm] mc(word(methods, j), 9) + x * mc(word(methods, j), 13) with lines lw 1.5 lc rgb color(j) notitle
  unset multiplot
  unset output
}
