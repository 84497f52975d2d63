# triaxial.gp: figures of `contactlab triaxial`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot triaxial.gp`).
# Input: triaxial-summary.csv and the triaxial-p_<kPa>kPa-<method>.csv series. Output (.png
# and .pdf): triaxial-q-p (q/p and the volumetric strain against the axial strain, every
# method and confining stress, the critical-state q/p of each as a dotted line).

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls triaxial-summary.csv 2>/dev/null") eq "") { print "triaxial.gp: no triaxial-summary.csv in this folder"; exit }
files = system("awk -F, '!/^#/ && $1 != \"method\" {printf \"%s \", $NF}' triaxial-summary.csv")
meth(f) = system("awk -F, -v f=".f." '!/^#/ && $NF == f {print $1}' triaxial-summary.csv")
pof(f) = system("awk -F, -v f=".f." '!/^#/ && $NF == f {print $2}' triaxial-summary.csv")
cs(f) = real(system("awk -F, -v f=".f." '!/^#/ && $NF == f {print $5}' triaxial-summary.csv"))
phics(f) = real(system("awk -F, -v f=".f." '!/^#/ && $NF == f {print $7}' triaxial-summary.csv"))
mtitle(f) = system("sed -n 's/^# method_title = //p' ".f." | head -1")
meta(k) = system("sed -n 's/^# ".k." = //p' ".word(files, 1)." | head -1")
nf = words(files)
array colors[8] = ["#1f77b4", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
color(i) = colors[(i - 1) % 8 + 1]

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1200, 560 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8in, 3.3in font "Sans,8" enhanced
  }
  set output "triaxial-q-p.".fmt
  set multiplot layout 1, 2 title sprintf("Triaxial compression: %s spheres, d = %g mm, {/Symbol m} = %s, strain rate %g/s (I = %.1e)", \
      meta("n"), 1e3 * real(meta("d_m")), meta("mu"), real(meta("strain_rate_1_s")), real(meta("inertial_number")))
  set grid
  set autoscale xfix
  set key width 3
  set xlabel "axial strain {/Symbol e}_a"
  set ylabel "stress ratio q / p"
  set key below font ",8"
  set yrange [0:*]
  plot for [i = 1:nf] word(files, i) using "eps_a":"q_over_p" with lines lw 1.5 lc rgb color(i) \
         title sprintf("%s, %s kPa: critical state (dotted) %.3f, {/Symbol f}_{cs} = %.1f°", mtitle(word(files, i)), pof(word(files, i)), \
                       cs(word(files, i)), phics(word(files, i))), \
       for [i = 1:nf] cs(word(files, i)) with lines dt 3 lw 1 lc rgb color(i) notitle
  set ylabel "volumetric strain {/Symbol e}_v = 1 - V/V_0 (contraction positive)"
  set yrange [*:*]
  set key below font ",8"
  plot for [i = 1:nf] word(files, i) using "eps_a":"eps_v" with lines lw 1.5 lc rgb color(i) \
         title sprintf("%s, p = %s kPa", mtitle(word(files, i)), pof(word(files, i)))
  unset multiplot
  unset output
}
