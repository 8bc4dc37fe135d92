# traffic-h100-80gb-hbm3.gp - NVIDIA H100 80GB HBM3: bytes moved over the compulsory bytes (f32, cold L2)
# Written by `mmbench report`. Redraw from this folder: gnuplot traffic-h100-80gb-hbm3.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 2400,1050 noenhanced font "Sans,20.0" linewidth 2; PS = 1.0; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "svg") { set terminal svg size 2400,1050 noenhanced font "sans-serif,20.0" linewidth 2 background "white"; PS = 0.55; FS = 1.0; FK = 1.0000; FMIN = 0.00 }
    if (fmt eq "pdf") { set terminal pdfcairo size 12.00in,5.25in noenhanced font "Sans,7.20" fontscale 1.0 linewidth 1.5; PS = 0.450; FS = 0.3600; FK = 1.0000; FMIN = 0.00 }
    LARGE = FMIN > 0
    F8 = sprintf(",%g", (8 * FK > FMIN ? 8 * FK : FMIN) * FS)
    F10 = sprintf(",%g", (10 * FK > FMIN ? 10 * FK : FMIN) * FS)
    F12 = sprintf(",%g", (12 * FK > FMIN ? 12 * FK : FMIN) * FS)
    F14 = sprintf(",%g", (14 * FK > FMIN ? 14 * FK : FMIN) * FS)
    F16 = sprintf(",%g", (16 * FK > FMIN ? 16 * FK : FMIN) * FS)
    F18 = sprintf(",%g", (18 * FK > FMIN ? 18 * FK : FMIN) * FS)
    F20 = sprintf(",%g", (20 * FK > FMIN ? 20 * FK : FMIN) * FS)
    F22 = sprintf(",%g", (22 * FK > FMIN ? 22 * FK : FMIN) * FS)
    set output (fmt eq "deck" ? "../figures/deck-traffic-h100-80gb-hbm3.pdf" : "../figures/traffic-h100-80gb-hbm3.".fmt)
    set multiplot title "NVIDIA H100 80GB HBM3: bytes moved over the compulsory bytes (f32, cold L2)" font F22
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
    set lmargin at screen 0.1000
    set rmargin at screen 0.2725
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "shared-memory bytes"
    set logscale y 10
    set yrange [0.1:8589.43]
    set format y "%g×"
    set ylabel "bytes moved / compulsory bytes (log scale)"
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#505050" back
    set label "L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#505050" font F14
    set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb "#404040" back
    plot "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:9 with linespoints ls 1 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($10 > 0 ? $9 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($11 > 0 ? $9 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 1 using 1:9 with points ls 1 pt 4 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:9 with linespoints ls 2 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($10 > 0 ? $9 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($11 > 0 ? $9 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 3 using 1:9 with points ls 2 pt 6 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:9 with linespoints ls 3 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($10 > 0 ? $9 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($11 > 0 ? $9 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 5 using 1:9 with points ls 3 pt 8 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:9 with linespoints ls 4 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($10 > 0 ? $9 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($11 > 0 ? $9 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 7 using 1:9 with points ls 4 pt 10 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:9 with linespoints ls 5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($10 > 0 ? $9 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($11 > 0 ? $9 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 9 using 1:9 with points ls 5 pt 6 lw 2.5 notitle
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
    set lmargin at screen 0.3325
    set rmargin at screen 0.5050
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "L1/TEX bytes (global)"
    set logscale y 10
    set yrange [0.1:8589.43]
    set format y "%g×"
    unset ylabel
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#505050" back
    set label "L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#505050" font F14
    set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb "#404040" back
    plot "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:7 with linespoints ls 1 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($10 > 0 ? $7 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($11 > 0 ? $7 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 1 using 1:7 with points ls 1 pt 4 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:7 with linespoints ls 2 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($10 > 0 ? $7 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($11 > 0 ? $7 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 3 using 1:7 with points ls 2 pt 6 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:7 with linespoints ls 3 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($10 > 0 ? $7 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($11 > 0 ? $7 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 5 using 1:7 with points ls 3 pt 8 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:7 with linespoints ls 4 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($10 > 0 ? $7 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($11 > 0 ? $7 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 7 using 1:7 with points ls 4 pt 10 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:7 with linespoints ls 5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($10 > 0 ? $7 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($11 > 0 ? $7 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 9 using 1:7 with points ls 5 pt 6 lw 2.5 notitle
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
    set lmargin at screen 0.5650
    set rmargin at screen 0.7375
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "L2 bytes"
    set logscale y 10
    set yrange [0.1:8589.43]
    set format y "%g×"
    unset ylabel
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#505050" back
    set label "L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#505050" font F14
    set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb "#404040" back
    plot "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:8 with linespoints ls 1 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($10 > 0 ? $8 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($11 > 0 ? $8 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 1 using 1:8 with points ls 1 pt 4 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:8 with linespoints ls 2 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($10 > 0 ? $8 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($11 > 0 ? $8 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 3 using 1:8 with points ls 2 pt 6 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:8 with linespoints ls 3 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($10 > 0 ? $8 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($11 > 0 ? $8 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 5 using 1:8 with points ls 3 pt 8 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:8 with linespoints ls 4 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($10 > 0 ? $8 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($11 > 0 ? $8 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 7 using 1:8 with points ls 4 pt 10 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:8 with linespoints ls 5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($10 > 0 ? $8 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($11 > 0 ? $8 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 9 using 1:8 with points ls 5 pt 6 lw 2.5 notitle
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
    set lmargin at screen 0.7975
    set rmargin at screen 0.9700
    set bmargin at screen 0.3000
    set tmargin at screen 0.8600
    unset key
    set logscale x 2
    set xtics ("256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192)
    set xrange [176.552:11878.4]
    set xlabel "Matrix size N (N×N×N, log scale)"
    set title "DRAM bytes"
    set logscale y 10
    set yrange [0.1:8589.43]
    set format y "%g×"
    unset ylabel
    set arrow 1 from 2090.23, graph 0 to 2090.23, graph 1 nohead dt 2 lw 2 lc rgb "#505050" back
    set label "L2 50 MiB" at 2090.23, graph 0.970 right offset -0.5,0 tc rgb "#505050" font F14
    set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb "#404040" back
    plot "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:6 with linespoints ls 1 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($10 > 0 ? $6 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 0 using 1:($11 > 0 ? $6 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 1 using 1:6 with points ls 1 pt 4 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:6 with linespoints ls 2 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($10 > 0 ? $6 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 2 using 1:($11 > 0 ? $6 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 3 using 1:6 with points ls 2 pt 6 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:6 with linespoints ls 3 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($10 > 0 ? $6 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 4 using 1:($11 > 0 ? $6 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 5 using 1:6 with points ls 3 pt 8 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:6 with linespoints ls 4 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($10 > 0 ? $6 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 6 using 1:($11 > 0 ? $6 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 7 using 1:6 with points ls 4 pt 10 lw 2.5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:6 with linespoints ls 5 notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($10 > 0 ? $6 : NaN) with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 8 using 1:($11 > 0 ? $6 : NaN) with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" notitle, \
         "bandwidth-h100-80gb-hbm3.dat" index 9 using 1:6 with points ls 5 pt 6 lw 2.5 notitle
    set lmargin at screen 0.02
    set rmargin at screen 0.98
    set bmargin at screen 0.005
    set tmargin at screen 0.1810
    unset border
    unset tics
    unset xlabel
    unset ylabel
    unset title
    unset grid
    unset logscale
    unset label
    unset object
    unset arrow
    unset colorbox
    unset y2tics
    unset y2label
    unset x2tics
    set xrange [0:1]
    set yrange [0:1]
    set key center center horizontal maxrows 2 width 2 samplen 3 spacing 1.2
    plot NaN with linespoints ls 1 title "naive", \
         NaN with linespoints ls 2 title "tiled", \
         NaN with linespoints ls 3 title "rect_tiles", \
         NaN with linespoints ls 4 title "tunable", \
         NaN with linespoints ls 5 title "cublas", \
         NaN with points pt 6 ps 2 * PS lw 2.5 lc rgb "#404040" title "open: M×N×K", \
         NaN with points pt 12 ps 4 * PS lw 2 lc rgb "#303030" title "best configuration changes", \
         NaN with points pt 6 ps 5 * PS lw 1.5 lc rgb "#707070" title "output stayed in L2", \
         NaN with lines dt 2 lw 2 lc rgb "#505050" title "A, B, C fill L2"
    unset multiplot
    unset output
}
