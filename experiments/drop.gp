# drop.gp: figures of `contactlab drop`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot drop.gp`).
# Input: drop-summary.csv and the drop-H_<H>-cor_<cor>-<method>-h_<h>.csv series.
# Output: drop-height (height against time), drop-force (contact force at the first impact),
# drop-hertz (contact time, max overlap and restitution against the impact speed, with Hertz
# theory), each as .png (pngcairo) and .pdf (pdfcairo).

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls drop-summary.csv 2>/dev/null") eq "") { print "drop.gp: no drop-summary.csv in this folder"; exit }
# the cases, from the series' names (H and cor as they are written there)
Hs = system("ls drop-H_*-cor_*-*.csv 2>/dev/null | sed -e 's/^drop-H_//' -e 's/-cor_.*//' | sort -g -u | tr '\\n' ' '")
cors = system("ls drop-H_*-cor_*-*.csv 2>/dev/null | sed -e 's/^.*-cor_//' -e 's/-.*//' | sort -g -r -u | tr '\\n' ' '")
nH = words(Hs)
ncor = words(cors)
files(pat) = system("ls ".pat." 2>/dev/null | tr '\\n' ' '")
meta(f, k) = real(system("sed -n 's/^# ".k." = //p' ".f." | head -1"))
hof(f) = f[strstrt(f, "-h_") + 3 : strlen(f) - 4]
Hof(f) = f[strstrt(f, "-H_") + 3 : strstrt(f, "-cor_") - 1]
corof(f) = f[strstrt(f, "-cor_") + 5 : strstrt(f, (strstrt(f, "-penalty-") > 0 ? "-penalty-" : "-dvi-")) - 1]
Hidx(f) = sum [i = 1:nH] (word(Hs, i) + 0 == Hof(f) + 0 ? i : 0)
coridx(f) = sum [i = 1:ncor] (word(cors, i) + 0 == corof(f) + 0 ? i : 0)
sel(m, c) = (strcol("method") eq m && column("cor") == c) ? 1 : NaN

# one panel per cor: height against time, colour = H, line = method
do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 600 * ncor + 100, 480 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 4.2 * ncor + 0.5, 3.3 font "Sans,8" enhanced
  }
  set output "drop-height.".fmt
  set multiplot layout 1, ncor title "Sphere dropped on a plane: height of the lowest point (Hertz-Mindlin penalty rebounds, Tasora-Anitescu CCP lands inelastically)"
  do for [j = 1:ncor] {
    c = word(cors, j)
    pf = files("drop-H_*-cor_".c."-penalty-h_*.csv")
    df = files("drop-H_*-cor_".c."-dvi-h_*.csv")
    set title sprintf("material cor = %s", c)
    set xlabel "time t [s]"
    set ylabel "height of the lowest point [m]"
    set grid
    set key top right box opaque font ",8" maxrows 4
    set xrange [0:*]
    set autoscale xfix
    set yrange [*:*]
    set offsets 0, 0, graph 0.30, graph 0.03
    set autoscale yfix
    plot for [f in pf] f using "t_s":"height_m" with lines lw 2 lc Hidx(f) title sprintf("H = %s m (penalty h = %s s)", Hof(f), hof(f)), \
         for [f in df] f using "t_s":"height_m" with lines lw 2 dt 2 lc Hidx(f) notitle, \
         for [f in pf] f using "t_s":"height_reference_m" with lines lw 1 dt 3 lc rgb "black" notitle, \
         NaN with lines lw 2 lc rgb "gray40" title "solid: Hertz-Mindlin penalty", \
         NaN with lines lw 2 dt 2 lc rgb "gray40" title (words(df) > 0 ? "dashed: Tasora-Anitescu CCP, h = ".hof(word(df, 1))." s" : ""), \
         NaN with lines lw 1 dt 3 lc rgb "black" title "dotted: rigid ball, restitution cor"
  }
  unset multiplot
  unset output
}

# one panel per H: the force of the first impact against time since the analytic impact,
# penalty for every cor and DVI (its one-step impulse shows as a box of height m v / h)
do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 420 * nH + 100, 460 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 3.0 * nH + 0.5, 3.2 font "Sans,8" enhanced
  }
  set output "drop-force.".fmt
  set multiplot layout 1, nH title "Sphere drop: normal contact force at the first impact (mean over each output interval)"
  do for [i = 1:nH] {
    H = word(Hs, i)
    pf = files("drop-H_".H."-cor_*-penalty-h_*.csv")
    df = files("drop-H_".H."-cor_".word(cors, 1)."-dvi-h_*.csv")
    ref = word(pf." ".df, 1)
    ti = meta(ref, "t_impact_analytic_s")
    tc = meta(ref, "contact_time_hertz_analytic_s")
    hd = words(df) > 0 ? real(hof(word(df, 1))) : 0
    span = (tc > hd ? tc : hd)
    set title sprintf("H = %s m, v = %.3g m/s", H, meta(ref, "v_impact_analytic_m_s"))
    set xlabel "time since the analytic impact t - (2H/g)^{1/2} [ms]"
    set ylabel "normal force F_n [N]"
    set grid
    set key top left box opaque font ",8"
    set xrange [-1000 * 1.3 * span : 1000 * 1.8 * span]
    unset autoscale x
    set yrange [0:*]
    set offsets 0, 0, graph 0.35, 0
    plot for [f in pf] f using (1000 * (column("t_s") - ti)):"fn_N" with fsteps lw 2 lc coridx(f) title sprintf("Hertz-Mindlin penalty, cor = %s", corof(f)), \
         for [f in df] f using (1000 * (column("t_s") - ti)):"fn_N" with fsteps lw 2 lc rgb "#d62728" title sprintf("Tasora-Anitescu CCP, h = %s s", hof(f)), \
         meta(ref, "max_force_hertz_analytic_N") with lines dt 2 lc rgb "black" title "Hertz F_{max} (elastic)"
  }
  unset multiplot
  unset output
}

# Hertz theory: contact time and max overlap against the impact speed, restitution.
# The theory lines are power laws through the summary's Hertz values (t_c ~ v^(-1/5),
# delta_max ~ v^(4/5) for Hertz; exponents taken from the first and last penalty rows).
pcol(name, which) = real(system("grep -v '^#' drop-summary.csv | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == \"".name."\") c = i; next} " . \
  "$1 == \"penalty\" {v[++n] = $c} END {print (n ? v[".which." == 1 ? 1 : n] : \"nan\")}'"))
v1 = pcol("v_impact_m_s", 1)
v2 = pcol("v_impact_m_s", 2)
pw(name, dflt) = (v2 > 1.01 * v1) ? log(pcol(name, 2) / pcol(name, 1)) / log(v2 / v1) : dflt
ptc = pw("contact_time_hertz_s", -0.2)
pdm = pw("max_overlap_hertz_m", 0.8)
Atc = pcol("contact_time_hertz_s", 1)
Adm = pcol("max_overlap_hertz_m", 1)
tcH(v) = 1000 * Atc * (v / v1)**ptc
dmH(v) = 1000 * Adm * (v / v1)**pdm
do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 1400, 470 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 9.5in, 3.2in font "Sans,8" enhanced
  }
  set output "drop-hertz.".fmt
  set multiplot layout 1, 3 title "Sphere drop, first impact of the Hertz-Mindlin penalty method against Hertz theory"
  set grid
  set xlabel "impact speed v [m/s]"
  unset logscale
  set xrange [0:*]
  set yrange [0:*]
  set autoscale xfix
  set offsets graph 0.0, graph 0.06, graph 0.2, 0
  set format y "%g"
  set format x "%g"
  set samples 200
  set tmargin 4
  set key bottom left box opaque font ",8"
  set title "contact time, Hertz t_c = 2.9432 {/Symbol d}_{max}/v"
  set ylabel "contact time t_c [ms]"
  plot tcH(x) with lines lw 1.5 lc rgb "black" title "Hertz (elastic)", \
       for [j = 1:ncor] "drop-summary.csv" using "v_impact_m_s":(1000 * sel("penalty", word(cors, j) + 0) * column("contact_time_s")) \
         with points pt 6 + j ps 1.6 lw 1.5 lc j title sprintf("Hertz-Mindlin penalty, cor = %s", word(cors, j))
  set title "max overlap, Hertz {/Symbol d}_{max} = (5 m v^2/(4 K))^{2/5}"
  set ylabel "max overlap {/Symbol d}_{max} [mm]"
  set key top left
  plot dmH(x) with lines lw 1.5 lc rgb "black" title "Hertz (elastic)", \
       for [j = 1:ncor] "drop-summary.csv" using "v_impact_m_s":(1000 * sel("penalty", word(cors, j) + 0) * column("max_overlap_m")) \
         with points pt 6 + j ps 1.6 lw 1.5 lc j title sprintf("Hertz-Mindlin penalty, cor = %s", word(cors, j))
  set title "restitution (speed out / speed in)"
  set ylabel "restitution e"
  set yrange [-0.05:1.1]
  set offsets graph 0.0, graph 0.06, 0, 0
  set key at graph 0.97, graph 0.6 right box opaque
  plot for [j = 1:ncor] "drop-summary.csv" using "v_impact_m_s":(sel("penalty", word(cors, j) + 0) * column("restitution")) \
         with points pt 6 + j ps 1.6 lw 1.5 lc j title sprintf("Hertz-Mindlin penalty, cor = %s", word(cors, j)), \
       for [j = 1:ncor] (word(cors, j) + 0) with lines dt 2 lc j title sprintf("material cor = %s", word(cors, j)), \
       "drop-summary.csv" using "v_impact_m_s":(strcol("method") eq "dvi" ? column("restitution") : NaN) \
         with points pt 2 ps 1.6 lw 1.5 lc rgb "#d62728" title "Tasora-Anitescu CCP (every cor)"
  unset multiplot
  unset output
}
