# ch05-pingpong.gp: make bench's ch05_pingpong family: SM cycles per hop of the ping-pong token for every signalling mechanism, median with min-max bars, DSMEM blue and global memory red.
# csv: bench/results/bench-h200/ch05_pingpong.csv
# Columns (bench/families/ch05_pingpong.c, after the driver's gpu,sm_clock_mhz,date,commit): 5 mechanism,
# 6 path, 7 label, 8 round_trips, 9 threads, 10 cycles_per_hop (median), 11 min, 12 max, 13 repeats,
# 14 event_ns_per_hop, 15 clock_mhz_from_events. One row per mechanism.
# Output out: an SVG. make bench runs it on each run folder's ch05_pingpong.csv (bench/driver/plots.sh):
#   gnuplot -e "csv='build/bench/latest/ch05_pingpong.csv'; out='build/bench/latest/ch05-pingpong.svg'" figures/plots/ch05-pingpong.gp
set terminal svg size 820,420 fixed enhanced font "DejaVu Sans,12" background rgb "white"
set output out
set datafile separator ","
set datafile columnheaders
set style fill solid 0.85 border rgb "#1d1f23"
set boxwidth 0.62
set ylabel "SM cycles per hop (one way)"
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.12, 0
set grid ytics lc rgb "#d5d9e0"
set border 3
set xtics nomirror scale 0 rotate by -30 left noenhanced
set ytics nomirror
set key off
set bmargin 7
colour(p) = strstrt(p, "DSMEM") > 0 ? 0x1f5f99 : 0xc62828
name(k) = k eq "seed_dsmem" ? "seed: cluster barrier" : \
          k eq "seed_gmem" ? "seed: global + fence + barrier" : \
          k eq "seed_dsmem_1000" ? "seed, 1000 trips (DSMEM)" : \
          k eq "seed_gmem_1000" ? "seed, 1000 trips (global)" : \
          k eq "seed_dsmem_1warp" ? "seed, 1 warp (DSMEM)" : \
          k eq "seed_gmem_1warp" ? "seed, 1 warp (global)" : \
          k eq "mbar_arrive" ? "remote mbarrier arrive" : \
          k eq "st_async" ? "st.async + complete_tx" : \
          k eq "flag_relaxed" ? "flag, relaxed" : \
          k eq "flag_release" ? "flag, release/acquire" : \
          k eq "flag_gmem" ? "global flag, .gpu" : k
plot csv using 0:10:(colour(strcol(6))):xtic(name(strcol(5))) with boxes lc rgb variable, \
     '' using 0:11:(0):($12-$11) with vectors heads size screen 0.008,90 lc rgb "#1d1f23", \
     '' using 0:12:(sprintf("%.0f", $10)) with labels offset 0,0.8 font "DejaVu Sans,11"
