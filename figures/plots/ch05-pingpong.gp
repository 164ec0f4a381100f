# ch05-pingpong.gp: make bench's ch05_pingpong family: SM cycles per hop of the ping-pong token for every signalling mechanism and its global-memory twin, one bar per harness (course, 1 warp, probe), median with min-max bars, DSMEM blue and global memory orange, the harness by fill.
# csv: bench/results/bench-h200/ch05_pingpong.csv
# Columns (bench/families/ch05_pingpong.c, after the driver's gpu,sm_clock_mhz,date,commit): 5 mechanism,
# 6 path, 7 label, 8 round_trips, 9 threads, 10 cycles_per_hop (median), 11 min, 12 max, 13 repeats,
# 14 event_ns_per_hop, 15 clock_mhz_from_events, 16 harness, 17 base_mechanism. One row per mechanism and
# harness (a failed one has no row); the seed's 1000-round-trip rows are not drawn. A CSV from before the
# harnesses (no columns 16-17) draws its rows as the course harness.
# Output out: an SVG. make bench runs it on each run folder's ch05_pingpong.csv (bench/driver/plots.sh):
#   gnuplot -e "csv='build/bench/latest/ch05_pingpong.csv'; out='build/bench/latest/ch05-pingpong.svg'" figures/plots/ch05-pingpong.gp
set terminal svg size 760,470 fixed enhanced font "DejaVu Sans,12" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set style fill solid 0.9 border rgb "#1d1f23"
set boxwidth 0.26
set ylabel "SM cycles per hop (one way)"
set yrange [0:*]
# room above the tallest bar for its value, written upwards (11 px: legible on paper, see tools/book/README.md)
set offsets 0, 0, graph 0.16, 0
set xrange [-0.6:7.6]
set grid ytics lc rgb "#d5d9e0"
set border 3
set ytics nomirror
set xtics nomirror scale 0 rotate by -25 left noenhanced ( \
  "barrier per hop, DSMEM" 0, "barrier per hop, global" 1, "relaxed flag, DSMEM" 2, "relaxed flag, global" 3, \
  "release flag, DSMEM" 4, "release flag, global" 5, "st.async (DSMEM only)" 6, "remote arrive (DSMEM only)" 7)
set bmargin 8
set rmargin 18
set key outside top center horizontal Left reverse noenhanced samplen 1.5 maxcols 3 font "DejaVu Sans,11"
# a CSV written before the harnesses has no columns 16-17 (and strcol of a missing column is an error)
has_h = int(system(sprintf("head -n 1 '%s' | grep -c base_mechanism", csv)))
mech(d) = has_h ? strcol(17) : strcol(5)
harness(d) = has_h ? strcol(16) : "course"
slot(k) = k eq "seed_dsmem" ? 0 : k eq "seed_gmem" ? 1 : k eq "flag_relaxed" ? 2 : \
          k eq "flag_gmem_relaxed" ? 3 : k eq "flag_release" ? 4 : k eq "flag_gmem_release" ? 5 : \
          k eq "st_async" ? 6 : k eq "mbar_arrive" ? 7 : NaN
offset(h) = h eq "course_1warp" ? 0 : h eq "probe" ? 0.28 : h eq "course" ? -0.28 : NaN
# the seed's 1000-round-trip rows (mechanism seed_*_1000) share base_mechanism and harness with the course
# rows; without this they would be drawn on top of them
seed1000(d) = strstrt(strcol(5), "_1000") > 0
x(d) = seed1000(d) ? NaN : slot(mech(d)) + offset(harness(d))
# DSMEM blue, global memory vermillion (Okabe-Ito, colour-blind safe); the harness is the second
# cue: solid for the exercises with 128 threads, hatched for 1 warp, open for the probe kernels
colour(p) = strstrt(p, "DSMEM") > 0 ? 0x0072B2 : 0xD55E00
xh(h) = harness(0) eq h ? x(0) : NaN
plot csv using (xh("course")):10:(colour(strcol(6))) \
       with boxes fs solid 0.9 border rgb "#1d1f23" lc rgb variable notitle, \
     '' using (xh("course_1warp")):10:(colour(strcol(6))) \
       with boxes fs pattern 4 border rgb "#1d1f23" lc rgb variable notitle, \
     '' using (xh("probe")):10:(colour(strcol(6))) \
       with boxes fs pattern 1 border rgb "#1d1f23" lc rgb variable notitle, \
     '' using (x(0)):11:(0):($12-$11) \
       with vectors heads size screen 0.006,90 lc rgb "#1d1f23" notitle, \
     '' using (x(0)):12:(sprintf("%.0f", $10)) \
       with labels rotate by 90 left offset 0,0.5 font "DejaVu Sans,11" notitle, \
     NaN with boxes fs solid 0.9 lc rgb "#0072B2" title "DSMEM", \
     NaN with boxes fs solid 0.9 lc rgb "#D55E00" title "global memory", \
     NaN with boxes fs solid 0.9 border rgb "#1d1f23" lc rgb "#6b6f76" title "exercises, 128 threads", \
     NaN with boxes fs pattern 4 border rgb "#1d1f23" lc rgb "#1d1f23" title "exercises, 1 warp", \
     NaN with boxes fs pattern 1 border rgb "#1d1f23" lc rgb "#1d1f23" title "probe kernels, 1 warp"
