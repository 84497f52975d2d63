# wave.gp: figures of `contactlab wave`, run in its output folder (the driver copies this script
# there and runs it; run it again by hand with `gnuplot wave.gp`).
# Input: wave-summary.csv, wave-fit.csv, the series wave-[random-]<method>-p_<p>[-iter_<N>-h_<h>].csv
# and the arrival files wave-arrival-*.csv.
# Output: wave-velocity (layer velocities against time, the simple-cubic column), wave-arrival
# (arrival time against depth, a row a packing), wave-speed (speed against pressure and against
# the solver's iterations, both packings), .png + .pdf.

set datafile separator ","
set datafile commentschars "#"
if (system("ls wave-summary.csv 2>/dev/null") eq "") { print "wave.gp: no wave-summary.csv in this folder"; exit }
files(pat) = system("ls ".pat." 2>/dev/null | tr '\\n' ' '")
meta(f, k) = system("sed -n 's/^# ".k." = //p' ".f." | head -1")
pof(f) = f[strstrt(f, "-p_") + 3 : (strstrt(f, "-iter_") > 0 ? strstrt(f, "-iter_") - 1 : strlen(f) - 4)]
itof(f) = f[strstrt(f, "-iter_") + 6 : strstrt(f, "-h_") - 1]
hof(f) = f[strstrt(f, "-h_") + 3 : strlen(f) - 4]
# summary columns by name
scol(m, name) = system("awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next} $1 == \"".m."\" && $2 == \"cubic\" {print $c[\"".name."\"]}' wave-summary.csv | tr '\\n' ' '")
# the packings run: cubic, random or both
packs = system("awk -F, '/^#/ {next} !h {h = 1; next} !s[$2]++ {printf \"%s \", $2}' wave-summary.csv")
npk = words(packs)
pkname(k) = k eq "random" ? "random dense column" : "simple-cubic column"
pkpre(k) = k eq "random" ? "random-" : ""
# the series shown: penalty at the middle pressure, the rigid method at its largest step with its fewest and most iterations
# the velocity figure's packing: the simple-cubic column, else the random one
vpk = strstrt(packs, "cubic") > 0 ? "cubic" : "random"
vpre = pkpre(vpk)
pen = files("wave-".vpre."penalty-p_*.csv")
npen = words(pen)
pens = system("ls wave-".vpre."penalty-p_*.csv 2>/dev/null | sed 's/^wave-".vpre."penalty-p_//; s/.csv$//' | sort -g | tr '\\n' ' '")
pmid = npen > 0 ? word(pens, (npen + 1) / 2 + (npen % 2 == 0 ? 1 : 0)) : ""
hs = system("ls wave-*dvi-p_*-iter_*-h_*.csv 2>/dev/null | sed 's/.*-h_//; s/.csv$//' | sort -g -u | tr '\\n' ' '")
# the same as plain decimals (gnuplot's string-to-number conversion stops at an exponent)
hsd = system("ls wave-*dvi-p_*-iter_*-h_*.csv 2>/dev/null | sed 's/.*-h_//; s/.csv$//' | sort -g -u | awk '{printf \"%.15f \", $1}'")
its = system("ls wave-*dvi-p_*-iter_*-h_*.csv 2>/dev/null | sed 's/.*-iter_//; s/-h_.*//' | sort -g -u | tr '\\n' ' '")
nh = words(hs)
nit = words(its)
hbig = nh > 0 ? word(hs, nh) : ""
show = (npen > 0 ? "wave-".vpre."penalty-p_".pmid.".csv " : "") . (nh > 0 ? files("wave-".vpre."dvi-p_*-iter_".word(its, 1)."-h_".hbig.".csv") : "") . \
       (nit > 1 ? files("wave-".vpre."dvi-p_*-iter_".word(its, nit)."-h_".hbig.".csv") : "")
nshow = words(show)
ttl(f) = strstrt(f, "penalty") > 0 ? sprintf("Hertz-Mindlin penalty, p = %s Pa", pof(f)) : \
         sprintf("Tasora-Anitescu CCP, %s iterations a step, h = %s s (apparent speed: the solver's)", itof(f), hof(f))

do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 560 * nshow + 60, 460 font "Sans,10" enhanced }
  else { set terminal pdfcairo size 3.9 * nshow + 0.4, 3.2 font "Sans,8" enhanced }
  set output "wave-velocity.".fmt
  set multiplot layout 1, nshow title sprintf("Pulse through a pressed %s: mean vertical velocity of layers at several depths / pulse peak", pkname(vpk))
  do for [j = 1:nshow] {
    f = word(show, j)
    nz = int(real(meta(f, "nz")))
    vp = real(meta(f, "pulse_speed_m_s"))
    set title ttl(f) font ",9"
    set xlabel "time since the pulse began t [{/Symbol m}s]"
    set ylabel "layer velocity v_z / v_p"
    set grid
    set key top right box opaque font ",8"
    set autoscale
    set yrange [*:*]
    set offsets 0, 0, graph 0.1, graph 0.05
    plot for [q = 0:4] f using (1e6 * column("t_s")):(column(sprintf("v_layer_%d_m_s", int(q * (nz - 2) / 4.0))) / vp) \
      with lines lw 2 lc q + 1 title sprintf("layer %d (depth %.1f mm)", int(q * (nz - 2) / 4.0), \
      1000 * real(system(sprintf("awk -F, '/^#/ {next} !h {h = 1; next} $1 == %d {print $2}' wave-arrival-%s", int(q * (nz - 2) / 4.0), f[6:*]))))
  }
  unset multiplot
  unset output
}

do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 1300, 480 * npk + 40 font "Sans,10" enhanced }
  else { set terminal pdfcairo size 9.0, 3.3 * npk + 0.3 font "Sans,8" enhanced }
  set output "wave-arrival.".fmt
  set multiplot layout npk, 2 title "Arrival (a layer's velocity first reaches threshold x the pulse's peak) against depth; the wave speed is the slope"
  do for [k = 1:npk] {
    pk = word(packs, k)
    parr = files("wave-arrival-".pkpre(pk)."penalty-*.csv")
    darr = files("wave-arrival-".pkpre(pk)."dvi-*.csv")
    set xlabel "arrival time [{/Symbol m}s]"
    set ylabel "depth above the struck plate [mm]"
    set grid
    set key bottom right box opaque font ",8"
    set autoscale
    set offsets 0, 0, 0, 0
    set title sprintf("Hertz-Mindlin penalty, %s", pkname(pk))
    if (words(parr) > 0) {
      plot for [f in parr] f using (1e6 * column("arrival_s")):(1000 * column("depth_m")) with linespoints \
           lw 1.5 pt 7 ps 0.6 title sprintf("p = %s Pa", pof(f))
    } else { plot NaN notitle }
    set title sprintf("Tasora-Anitescu CCP at fixed iteration counts N, %s (apparent speed: the solver's)", pkname(pk))
    set key top left box opaque font ",8"
    set logscale x
    if (words(darr) > 0) {
      plot for [f in darr] f using (1e6 * column("arrival_s")):(1000 * column("depth_m")) with linespoints \
           lw 1.5 pt 7 ps 0.6 title sprintf("N = %s, h = %s s", itof(f), hof(f))
    } else { plot NaN notitle }
    unset logscale x
    set key bottom right box opaque font ",8"
  }
  unset multiplot
  unset output
}

# speeds
fa = system("awk -F, '/^#/ {next} $1 == \"penalty\" && $2 == \"cubic\" {print $4}' wave-fit.csv 2>/dev/null")
far = system("awk -F, '/^#/ {next} $1 == \"penalty\" && $2 == \"random\" {print $4}' wave-fit.csv 2>/dev/null")
# the random column's lowest-pressure speed, where the guides p^(1/6) and p^(1/4) start
rp0 = real(system("awk -F, '/^#/ {next} !h {h = 1; next} $1 == \"penalty\" && $2 == \"random\" && (n++ == 0 || $3 < p) {p = $3} END {print p + 0}' wave-summary.csv"))
rv0 = real(system(sprintf("awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next} $1 == \"penalty\" && $2 == \"random\" && $3 == %.17g {print $c[\"wave_speed_m_s\"]}' wave-summary.csv", rp0)))
pp = scol("penalty", "p_Pa")
pv = scol("penalty", "wave_speed_m_s")
pt = scol("penalty", "wave_speed_theory_m_s")
dit = scol("dvi", "iterations")
dh = scol("dvi", "h_s")
dv = system("awk -F, '/^#/ {next} $1 == \"dvi\" {printf \"x \"}' wave-summary.csv")
do for [fmt in "png pdf"] {
  if (fmt eq "png") { set terminal pngcairo size 1300, 520 font "Sans,10" enhanced }
  else { set terminal pdfcairo size 9.0, 3.6 font "Sans,8" enhanced }
  set output "wave-speed.".fmt
  set multiplot layout 1, 2 title (npk > 1 ? "Wave speed in pressed columns of spheres: simple cubic (filled) and random dense (open)" : sprintf("Wave speed in a pressed %s of spheres", pkname(word(packs, 1))))
  set grid
  set logscale xy
  set autoscale
  set offsets graph 0.05, graph 0.05, 0, 0
  set format x "10^{%L}"
  set format y "%g"
  set mytics 10
  set title "Hertz-Mindlin penalty: speed against pressure (Hertz: c ~ p^{1/6})"
  set xlabel "static pressure p [Pa]"
  set ylabel "wave speed [m/s]"
  set key bottom right box opaque
  set samples 200
  S = "wave-summary.csv"
  vpmid = npen > 0 ? real(word(pv, (npen + 1) / 2 + (npen % 2 == 0 ? 1 : 0))) : NaN
  ptitle = npen > 0 ? sprintf("Hertz-Mindlin penalty at p = %s Pa", pmid) : "no penalty run"
  set key autotitle columnhead
  set key font ",9"
  pen_c = words(pp) > 0
  pen_r = far ne ""
  if (pen_c || pen_r) {
    plot S using (strcol(1) eq "penalty" && strcol(2) eq "cubic" ? column("p_Pa") : NaN):"wave_speed_m_s" with points pt 7 ps 1.6 lc 1 \
           title (pen_c ? sprintf("simple cubic: fitted exponent %.4f", real(fa)) : ""), \
         S using (strcol(1) eq "penalty" && strcol(2) eq "cubic" ? column("p_Pa") : NaN):"wave_speed_theory_m_s" with lines lw 2 dt 2 lc rgb "black" \
           title (pen_c ? "precompressed Hertz chain a' (k_t/m)^{1/2}, exponent 1/6" : ""), \
         S using (strcol(1) eq "penalty" && strcol(2) eq "random" ? column("p_Pa") : NaN):"wave_speed_m_s" with points pt 6 ps 1.8 lw 2 lc 2 \
           title (pen_r ? sprintf("random dense: fitted exponent %.4f", real(far)) : ""), \
         (pen_r && x >= rp0 ? rv0 * (x / rp0)**(1.0 / 6) : NaN) with lines lw 1.5 dt 3 lc 2 title (pen_r ? "p^{1/6} (Hertz, fixed contacts)" : ""), \
         (pen_r && x >= rp0 ? rv0 * (x / rp0)**0.25 : NaN) with lines lw 1.5 dt 4 lc rgb "gray40" \
           title (pen_r ? "p^{1/4} (contacts added with p: Goddard 1990, Makse et al. 1999)" : "")
  } else { set title "no penalty runs"; plot NaN notitle }
  set title "Tasora-Anitescu CCP: rigid contacts have no finite speed;\nthe apparent speed is set by the solver's iterations and h (Unger et al., PRE 65, 061305, 2002)"
  set xlabel "solver iterations per step N (tol = 0)"
  set format x "%g"
  set xrange [1.5:30]
  set xtics (1, 2, 5, 10, 20, 50)
  set ylabel "apparent wave speed [m/s]"
  if (words(dv) > 0) {
    array H[nh]
    do for [j = 1:nh] { H[j] = real(word(hsd, j)) }
    plot for [j = 1:nh] S using (strcol(1) eq "dvi" && strcol(2) eq "cubic" && column("h_s") == H[j] ? column("iterations") : NaN):"wave_speed_m_s" \
           with linespoints lw 2 pt 7 ps 1.4 lc (j + 1) title sprintf("simple cubic, h = %s s", word(hs, j)), \
         for [j = 1:nh] S using (strcol(1) eq "dvi" && strcol(2) eq "random" && column("h_s") == H[j] ? column("iterations") : NaN):"wave_speed_m_s" \
           with linespoints lw 2 dt 2 pt 6 ps 1.4 lc (j + 1) title (npk > 1 ? sprintf("random dense, h = %s s", word(hs, j)) : ""), \
         vpmid with lines lw 1.5 dt 2 lc rgb "black" title ptitle
  } else { set title "no rigid-contact runs"; plot NaN notitle }
  unset multiplot
  unset output
}
