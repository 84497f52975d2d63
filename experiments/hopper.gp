# hopper.gp: figures of `contactlab hopper`, run in its output folder (the driver copies this
# script there and runs it; run it again by hand with `gnuplot hopper.gp`).
# Input: hopper-summary.csv, hopper-beverloo.csv and the hopper-<geometry>-D_<D_o/d>-<method>.csv
# series.
# Output: hopper-beverloo (W^(2/5) against D_o with each method's fitted line and the
# literature's), hopper-discharge (discharged mass against time, every method, one orifice),
# each as .png (pngcairo) and .pdf (pdfcairo).

set datafile separator ","
set datafile commentschars "#"
set key autotitle columnhead

if (system("ls hopper-beverloo.csv 2>/dev/null") eq "") { print "hopper.gp: no hopper-beverloo.csv in this folder"; exit }
# rows of hopper-beverloo.csv: method geometry C k a b r2 orifices rho_b d_mean C_lit k_lit
bev(i, col) = system(sprintf("grep -v '^#' hopper-beverloo.csv | awk -F, 'NR == %d + 1 {print $%d}'", i, col))
nb = int(system("grep -v '^#' hopper-beverloo.csv | awk 'END {print NR - 1}'"))
geoms = system("grep -v '^#' hopper-beverloo.csv | awk -F, 'NR > 1 && !s[$2]++ {printf \"%s \", $2}'")
# every method of the summary (a method whose orifices all clogged has points and no fit)
methods = system("grep -v '^#' hopper-summary.csv | awk -F, 'NR > 1 && !s[$1]++ {printf \"%s \", $1}'")
ng = words(geoms)
nm = words(methods)
midx(m) = sum [j = 1:nm] (word(methods, j) eq m ? j : 0)
title(m) = m eq "penalty" ? "Hertz-Mindlin penalty" : m eq "dvi" ? "Tasora-Anitescu CCP" : \
           m eq "dvi-exact" ? "CCP, De Saxce exact Coulomb" : m eq "dvi-regularized" ? "Lacoursiere-Servin regularized CCP" : \
           m eq "midpoint" ? "Solfec midpoint" : m eq "lcp" ? "Stewart-Trinkle LCP" : m
sel(m, g) = (strcol(1) eq m && strcol(2) eq g) ? 1 : NaN

do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 640 * ng + 80, 520 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 4.4 * ng + 0.5, 3.6 font "Sans,8" enhanced
  }
  set output "hopper-beverloo.".fmt
  set multiplot layout 1, ng title "Hopper discharge: W^{2/5} against the orifice D_o, a straight line under Beverloo's law W = C {/Symbol r}_b g^{1/2} (D_o - k d)^{5/2}"
  do for [gi = 1:ng] {
    g = word(geoms, gi)
    set title sprintf("%s hopper", g eq "cone" ? "conical" : "flat-bottomed")
    set xlabel "orifice diameter D_o / d"
    set ylabel "W^{2/5} [(kg/s)^{2/5}]"
    set grid
    set key top left box opaque font ",8" spacing 1.1
    set xrange [*:*]
    set yrange [0:*]
    set offsets graph 0.08, graph 0.08, graph 0.25, 0
    set samples 100
    # the first row of this geometry: d and rho_b (one fill a geometry)
    dm = 0; rb = 0
    do for [i = 1:nb] { if (bev(i, 2) eq g && dm == 0) { dm = real(bev(i, 10)); rb = real(bev(i, 9)) } }
    Clit = 0.58; klit = 1.4
    lit(x) = x > klit ? (Clit * rb * sqrt(9.81))**0.4 * (x - klit) * dm : NaN
    plot for [j = 1:nm] "hopper-summary.csv" using "D_o_over_d":(sel(word(methods, j), g) * column("W_kg_s")**0.4) \
           with points pt (5 + 2 * j) ps 1.4 lc j title sprintf("%s, measured", title(word(methods, j))), \
         for [i = 1:nb] (bev(i, 2) eq g ? real(bev(i, 5)) * x * dm + real(bev(i, 6)) : NaN) with lines lw 2 lc midx(bev(i, 1)) \
           title (bev(i, 2) eq g ? sprintf("%s fit: C = %.3f, k = %.2f (r^2 = %.3f)", title(bev(i, 1)), real(bev(i, 3)), real(bev(i, 4)), real(bev(i, 7))) : ""), \
         lit(x) with lines dt 2 lw 1.5 lc rgb "black" title sprintf("literature, spheres: C = %.2f, k = %.1f", Clit, klit)
  }
  unset multiplot
  unset output
}

# discharged mass against time: every method, the orifice nearest the middle of the sizes
Ds = system("grep -v '^#' hopper-summary.csv | awk -F, 'NR > 1 && !s[$4]++ {print $4}' | sort -g | tr '\\n' ' '")
Dmid = word(Ds, int((words(Ds) + 1) / 2))
do for [fmt in "png pdf"] {
  if (fmt eq "png") {
    set terminal pngcairo size 640 * ng + 80, 500 font "Sans,10" enhanced
  } else {
    set terminal pdfcairo size 4.4 * ng + 0.5, 3.5 font "Sans,8" enhanced
  }
  set output "hopper-discharge.".fmt
  set multiplot layout 1, ng title sprintf("Hopper discharge through D_o = %s d: mass out of the hopper against time since opening", Dmid)
  do for [gi = 1:ng] {
    g = word(geoms, gi)
    set title sprintf("%s hopper", g eq "cone" ? "conical" : "flat-bottomed")
    set xlabel "time since opening t [s]"
    set ylabel "discharged mass [kg]"
    set grid
    set key top left box opaque font ",8"
    set xrange [0:*]
    set yrange [0:*]
    set offsets 0, 0, graph 0.15, 0
    plot for [j = 1:nm] sprintf("hopper-%s-D_%s-%s.csv", g, Dmid, word(methods, j)) using "t_s":"discharged_mass_kg" \
           with lines lw 2 lc j title title(word(methods, j))
  }
  unset multiplot
  unset output
}
