# incline.gp: figures of `contactlab incline`, run in its output folder (the driver copies
# this script there and runs it; run it again by hand with `gnuplot incline.gp`).
# Input: incline-summary.csv and the incline-tan_mu_<tan theta/mu>-<method>-h_<h>.csv series.
# Output: incline-acceleration (acceleration and friction/normal force against tan theta/mu,
# with the Coulomb lines) and incline-displacement (s(t) for four angles), .png and .pdf.

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls incline-summary.csv 2>/dev/null") eq "") { print "incline.gp: no incline-summary.csv in this folder"; exit }
meta(k) = system("sed -n 's/^# ".k." = //p' incline-summary.csv | head -1")
mu = real(meta("mu"))
g = real(meta("g_m_s2"))
# the Coulomb block on a slope: a = g (sin theta - mu cos theta) once tan theta > mu
th(x) = atan(x * mu)
a_an(x) = x > 1 ? g * (sin(th(x)) - mu * cos(th(x))) : 0
f_an(x) = x > 1 ? 1 : x

# the series: the steepest sticking angle and three sliding ones spread over the sweep
chosen = system("ls incline-tan_mu_*-*.csv 2>/dev/null | sed -e 's/^incline-tan_mu_//' -e 's/-.*//' | sort -g -u | " . \
  "awk '{r[NR] = $1} END {s = 0; for (i = 1; i <= NR; i++) if (r[i] + 0 <= 1) s = i; n = NR - s; " . \
  "out = (s > 0 ? r[s] : \"\"); if (n >= 3) out = out \" \" r[s + 1] \" \" r[s + 1 + int((n - 1) / 2)] \" \" r[NR]; " . \
  "else for (i = s + 1; i <= NR; i++) out = out \" \" r[i]; print out}'")
# every series of the chosen angles, by method; colour = the angle
sfiles(m) = system("for r in ".chosen."; do ls incline-tan_mu_$r-".m."-h_*.csv 2>/dev/null; done | tr '\\n' ' '")
pfiles = sfiles("penalty")
dfiles = sfiles("dvi")
afiles = system("for r in ".chosen."; do ls incline-tan_mu_$r-*.csv 2>/dev/null | head -1; done | tr '\\n' ' '")
rof(f) = f[strstrt(f, "tan_mu_") + 7 : strstrt(f, "-h_") - 1]
ratio(f) = substr(rof(f), 1, strstrt(rof(f), "-") - 1)
cidx(f) = sum [i = 1:words(chosen)] (word(chosen, i) eq ratio(f) ? i : 0)
hof(f) = f[strstrt(f, "-h_") + 3 : strlen(f) - 4]
sel(m) = strcol("method") eq m ? 1 : NaN

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1200, 480 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 8in, 3.2in font "Sans,8" enhanced
  }
  set output "incline-acceleration.".fmt
  set multiplot layout 1, 2 title sprintf("Box on an incline, {/Symbol m} = %g: stick below tan {/Symbol q} = {/Symbol m}, slide above", mu)
  set grid
  set xlabel "tan {/Symbol q} / {/Symbol m}"
  set xrange [*:*]
  set offsets graph 0.03, 0.03, 0.05, 0.05
  set key top left box opaque
  set samples 400
  set title "acceleration down the slope (fit of v(t))"
  set ylabel "acceleration a [m/s^2]"
  plot a_an(x) with lines lw 2 lc rgb "black" title "g (sin {/Symbol q} - {/Symbol m} cos {/Symbol q}), 0 when sticking", \
       "incline-summary.csv" using "tan_theta_over_mu":(sel("penalty") * column("accel_m_s2")) with points pt 6 ps 1.6 lc rgb "#1f77b4" title "Hertz-Mindlin penalty", \
       "" using "tan_theta_over_mu":(sel("dvi") * column("accel_m_s2")) with points pt 2 ps 1.4 lw 1.5 lc rgb "#d62728" title "Tasora-Anitescu CCP"
  set title "friction / normal force, mean over the fit window"
  set ylabel "F_t / ({/Symbol m} F_n)"
  set key bottom right box opaque
  plot f_an(x) with lines lw 2 lc rgb "black" title "min(tan {/Symbol q}, {/Symbol m}) / {/Symbol m}", \
       "incline-summary.csv" using "tan_theta_over_mu":(sel("penalty") * column("ft_mean_N") / (mu * column("fn_mean_N"))) with points pt 6 ps 1.6 lc rgb "#1f77b4" title "Hertz-Mindlin penalty", \
       "" using "tan_theta_over_mu":(sel("dvi") * column("ft_mean_N") / (mu * column("fn_mean_N"))) with points pt 2 ps 1.4 lw 1.5 lc rgb "#d62728" title "Tasora-Anitescu CCP"
  unset multiplot
  unset output

  if (fmt eq "png") {
    set terminal pngcairo size 900, 600 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 6in, 4in font "Sans,8" enhanced
  }
  set output "incline-displacement.".fmt
  set title sprintf("Box on an incline, {/Symbol m} = %g: displacement down the slope after the release", mu)
  set xlabel "time t [s]"
  set ylabel "displacement s [m]"
  set offsets 0, 0, graph 0.04, graph 0.04
  set autoscale yfix
  set key top left box opaque
  set xrange [0:*]
  set autoscale xfix
  hp = words(pfiles) > 0 ? hof(word(pfiles, 1)) : ""
  hd = words(dfiles) > 0 ? hof(word(dfiles, 1)) : ""
  plot for [f in pfiles] f using "t_s":"s_m" with lines lw 2 lc cidx(f) title sprintf("tan {/Symbol q}/{/Symbol m} = %s", ratio(f)), \
       for [f in dfiles] f using "t_s":"s_m" every 5 with points pt 2 ps 1.0 lc cidx(f) notitle, \
       for [f in afiles] f using "t_s":"s_analytic_m" with lines dt 2 lw 1 lc rgb "black" \
         title (f eq word(afiles, 1) ? "analytic a t^2/2" : ""), \
       (hp ne "" ? NaN : 1/0) with lines lw 2 lc rgb "gray40" title "lines: Hertz-Mindlin penalty, h = ".hp." s", \
       (hd ne "" ? NaN : 1/0) with points pt 2 lc rgb "gray40" title "crosses: Tasora-Anitescu CCP, h = ".hd." s"
  unset output
}
