# roofline-h200.gp - NVIDIA H200: hierarchical roofline, square sizes (f32, cold L2)
# Written by `mmbench report`. Redraw from this folder: gnuplot roofline-h200.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1600,1100 noenhanced font "Sans,20.0" linewidth 2; PS = 1.0; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "svg") { set terminal svg size 1600,1100 noenhanced font "sans-serif,20.0" linewidth 2 background "white"; PS = 0.55; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "pdf") { set terminal pdfcairo size 8.00in,5.50in noenhanced font "Sans,7.20" fontscale 1.0 linewidth 1.5; PS = 0.450; FS = 0.3600; FK = 1.0000; FMIN = 0.00 }
    LARGE = FMIN > 0
    F8 = sprintf(",%g", (8 * FK > FMIN ? 8 * FK : FMIN) * FS)
    F10 = sprintf(",%g", (10 * FK > FMIN ? 10 * FK : FMIN) * FS)
    F12 = sprintf(",%g", (12 * FK > FMIN ? 12 * FK : FMIN) * FS)
    F14 = sprintf(",%g", (14 * FK > FMIN ? 14 * FK : FMIN) * FS)
    F16 = sprintf(",%g", (16 * FK > FMIN ? 16 * FK : FMIN) * FS)
    F18 = sprintf(",%g", (18 * FK > FMIN ? 18 * FK : FMIN) * FS)
    F20 = sprintf(",%g", (20 * FK > FMIN ? 20 * FK : FMIN) * FS)
    F22 = sprintf(",%g", (22 * FK > FMIN ? 22 * FK : FMIN) * FS)
    set output (fmt eq "deck" ? "../figures/deck-roofline-h200.pdf" : "../figures/roofline-h200.".fmt)
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    unset y2tics
    unset y2label
    unset x2tics
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#332288" dt 1 pt 5 ps 2 * PS lw 2.5  # naive
    set style line 2 lc rgb "#AA4499" dt 2 pt 7 ps 2 * PS lw 2.5  # tiled
    set style line 3 lc rgb "#88CCEE" dt 4 pt 9 ps 2 * PS lw 2.5  # rect_tiles
    set style line 4 lc rgb "#CC6677" dt 5 pt 11 ps 2 * PS lw 2.5  # tunable
    set style line 5 lc rgb "#000000" dt 1 pt 7 ps 2 * PS lw 2.5  # cublas
    set style line 6 lc rgb "#882255" dt 3 pt 13 ps 2 * PS lw 2.5  # 01_wmma
    set style line 7 lc rgb "#44AA99" dt 1 pt 4 ps 2 * PS lw 2.5  # 02_mma_sync
    set style line 8 lc rgb "#117733" dt 2 pt 6 ps 2 * PS lw 2.5  # 03_pipelined
    set style line 9 lc rgb "#DDCC77" dt 4 pt 8 ps 2 * PS lw 2.5  # 04_wgmma_tma
    set style line 10 lc rgb "#999933" dt 5 pt 10 ps 2 * PS lw 2.5  # 05_warp_specialized
    set style line 11 lc rgb "#332288" dt 3 pt 12 ps 2 * PS lw 2.5  # 06_tma_store
    set style line 12 lc rgb "#AA4499" dt 1 pt 5 ps 2 * PS lw 2.5  # 07_stream_k
    set style line 13 lc rgb "#88CCEE" dt 2 pt 7 ps 2 * PS lw 2.5  # 01_uncoalesced
    set style line 14 lc rgb "#CC6677" dt 4 pt 9 ps 2 * PS lw 2.5  # 01_coalesced
    set style line 15 lc rgb "#882255" dt 5 pt 11 ps 2 * PS lw 2.5  # 02_tiled
    set style line 16 lc rgb "#44AA99" dt 3 pt 13 ps 2 * PS lw 2.5  # 03_blocktile_1d
    set style line 17 lc rgb "#117733" dt 1 pt 4 ps 2 * PS lw 2.5  # 04_blocktile_2d
    set style line 18 lc rgb "#DDCC77" dt 2 pt 6 ps 2 * PS lw 2.5  # 05_vectorized
    set style line 19 lc rgb "#999933" dt 4 pt 8 ps 2 * PS lw 2.5  # 06_conflict_free
    set style line 20 lc rgb "#332288" dt 5 pt 10 ps 2 * PS lw 2.5  # 07_warptile
    set style line 21 lc rgb "#AA4499" dt 3 pt 12 ps 2 * PS lw 2.5  # 08_pipelined
    set style line 22 lc rgb "#88CCEE" dt 1 pt 5 ps 2 * PS lw 2.5  # 09_lean
    set style line 23 lc rgb "#CC6677" dt 2 pt 7 ps 2 * PS lw 2.5  # 10_stream_k
    set style line 24 lc rgb "#882255" dt 4 pt 9 ps 2 * PS lw 2.5  # wmma
    set style line 25 lc rgb "#CC6677" dt 1 pt 5 ps 2 * PS lw 2.5  # 004_basic
    set style line 26 lc rgb "#882255" dt 2 pt 7 ps 2 * PS lw 2.5  # 004_tiles
    set style line 27 lc rgb "#44AA99" dt 4 pt 9 ps 2 * PS lw 2.5  # 004_rec_tiles
    set style line 28 lc rgb "#AA4499" dt 5 pt 10 ps 2 * PS lw 2.5  # 003_default
    set style line 29 lc rgb "#88CCEE" dt 3 pt 12 ps 2 * PS lw 2.5  # 003_optimized
    set style line 30 lc rgb "#44AA99" dt 5 pt 11 ps 2 * PS lw 2.5  # 000_naive
    set style line 31 lc rgb "#117733" dt 3 pt 13 ps 2 * PS lw 2.5  # 000_data_reuse
    set style line 32 lc rgb "#DDCC77" dt 1 pt 4 ps 2 * PS lw 2.5  # 002_naive
    set style line 33 lc rgb "#999933" dt 2 pt 6 ps 2 * PS lw 2.5  # 002_shared
    set style line 34 lc rgb "#332288" dt 4 pt 8 ps 2 * PS lw 2.5  # 002_tiled_1xN
    set title "NVIDIA H200: hierarchical roofline, square sizes (f32, cold L2)"
    set xlabel "Arithmetic intensity (FLOP per byte moved at each level, log scale)"
    set ylabel "GFLOP/s (log scale)"
    set logscale x 10
    set format x "%.10g"
    set xrange [0.1:3276.8]
    set logscale y 10
    set format y "%.10g"
    set yrange [1000:160580]
    set samples 1000
    P = 66908.2
    B0 = 4814.3
    roof0(x) = x * B0 < P ? x * B0 : P
    set label "DRAM 4814 GB/s" at 0.92114, 4434.65 left rotate by 28 offset 0,0.7 tc rgb "#303030" font F16
    B1 = 15406.1
    roof1(x) = x * B1 < P ? x * B1 : P
    set label "L2 15406 GB/s" at 0.545763, 8408.08 left rotate by 28 offset 0,0.7 tc rgb "#303030" font F16
    B2 = 133438.1
    roof2(x) = x * B2 < P ? x * B2 : P
    set label "L1 133438 GB/s" at 0.206581, 27565.7 left rotate by 28 offset 0,0.7 tc rgb "#303030" font F16
    B3 = 33359.5
    roof3(x) = x * B3 < P ? x * B3 : P
    set label "shared 33360 GB/s" at 0.385493, 12859.9 left rotate by 28 offset 0,0.7 tc rgb "#303030" font F16
    set label "FP32 peak 66.9 TFLOP/s" at graph 0.98, first P * 1.18 right tc rgb "#303030"
    set key outside below center horizontal maxrows 3 samplen 3 spacing 1.1 height 1
    plot roof0(x) with lines lw 3.5 dt 1 lc rgb "#303030" notitle, \
         roof1(x) with lines lw 2.5 dt 2 lc rgb "#303030" notitle, \
         roof2(x) with lines lw 2.5 dt 4 lc rgb "#303030" notitle, \
         roof3(x) with lines lw 2.5 dt 5 lc rgb "#303030" notitle, \
         "roofline-h200.dat" index 0 using 1:2 with linespoints ls 1 lw 1 title "naive", \
         "roofline-h200.dat" index 0 using 1:2:3 with labels left offset 0.7,0 font F12 tc rgb "#404040" notitle, \
         "roofline-h200.dat" index 1 using 1:2 with linespoints ls 1 lw 1 pt 6 notitle, \
         "roofline-h200.dat" index 2 using 1:2 with linespoints ls 1 lw 1 pt 8 notitle, \
         "roofline-h200.dat" index 3 using 1:2 with linespoints ls 1 lw 1 pt 4 notitle, \
         "roofline-h200.dat" index 4 using 1:2 with linespoints ls 2 lw 1 title "tiled", \
         "roofline-h200.dat" index 4 using 1:2:3 with labels left offset 0.7,0 font F12 tc rgb "#404040" notitle, \
         "roofline-h200.dat" index 5 using 1:2 with linespoints ls 2 lw 1 pt 6 notitle, \
         "roofline-h200.dat" index 6 using 1:2 with linespoints ls 2 lw 1 pt 8 notitle, \
         "roofline-h200.dat" index 7 using 1:2 with linespoints ls 2 lw 1 pt 4 notitle, \
         "roofline-h200.dat" index 8 using 1:2 with linespoints ls 3 lw 1 title "rect_tiles", \
         "roofline-h200.dat" index 8 using 1:2:3 with labels left offset 0.7,0 font F12 tc rgb "#404040" notitle, \
         "roofline-h200.dat" index 9 using 1:2 with linespoints ls 3 lw 1 pt 6 notitle, \
         "roofline-h200.dat" index 10 using 1:2 with linespoints ls 3 lw 1 pt 8 notitle, \
         "roofline-h200.dat" index 11 using 1:2 with linespoints ls 3 lw 1 pt 4 notitle, \
         "roofline-h200.dat" index 12 using 1:2 with linespoints ls 4 lw 1 title "tunable", \
         "roofline-h200.dat" index 12 using 1:2:3 with labels left offset 0.7,0 font F12 tc rgb "#404040" notitle, \
         "roofline-h200.dat" index 13 using 1:2 with linespoints ls 4 lw 1 pt 6 notitle, \
         "roofline-h200.dat" index 14 using 1:2 with linespoints ls 4 lw 1 pt 8 notitle, \
         "roofline-h200.dat" index 15 using 1:2 with linespoints ls 4 lw 1 pt 4 notitle, \
         "roofline-h200.dat" index 16 using 1:2 with linespoints ls 5 lw 1 title "cublas", \
         "roofline-h200.dat" index 16 using 1:2:3 with labels left offset 0.7,0 font F12 tc rgb "#404040" notitle, \
         "roofline-h200.dat" index 17 using 1:2 with linespoints ls 5 lw 1 pt 6 notitle, \
         "roofline-h200.dat" index 18 using 1:2 with linespoints ls 5 lw 1 pt 8 notitle, \
         "roofline-h200.dat" index 19 using 1:2 with linespoints ls 5 lw 1 pt 4 notitle, \
         "roofline-h200.dat" index 20 using 1:2 with points pt 6 ps 4.5 * PS lw 1.5 lc rgb "#707070" title "output stayed in L2", \
         NaN with points pt 6 ps 2 * PS lw 2 lc rgb "#404040" title "L2 intensity", \
         NaN with points pt 8 ps 2 * PS lw 2 lc rgb "#404040" title "L1 intensity", \
         NaN with points pt 4 ps 2 * PS lw 2 lc rgb "#404040" title "shared intensity"
    unset output
}
