# gpus-gflops.gp - Every GPU: GFLOP/s against matrix size (f32, cold L2, shared axes)
# Written by `mmbench report`. Redraw from this folder: gnuplot gpus-gflops.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 2610,990 noenhanced font "Sans,20" linewidth 2; PS = 1.0; FS = 1.0 }
    if (fmt eq "svg") { set terminal svg size 2610,990 noenhanced font "sans-serif,20" linewidth 2 background "white"; PS = 0.55; FS = 1.0 }
    if (fmt eq "pdf") { set terminal pdfcairo size 13.05in,4.95in noenhanced font "Sans,7.2" fontscale 1.0 linewidth 1.5; PS = 0.45; FS = 0.360 }
    F12 = sprintf(",%g", 12 * FS)
    F14 = sprintf(",%g", 14 * FS)
    F16 = sprintf(",%g", 16 * FS)
    F18 = sprintf(",%g", 18 * FS)
    F20 = sprintf(",%g", 20 * FS)
    F22 = sprintf(",%g", 22 * FS)
    set output "../figures/gpus-gflops.".fmt
    set multiplot title "Every GPU: GFLOP/s against matrix size (f32, cold L2, shared axes)" font F22
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#0072B2" dt 1 pt 5 ps 2 * PS lw 2.5
    set style line 2 lc rgb "#D55E00" dt 2 pt 7 ps 2 * PS lw 2.5
    set style line 3 lc rgb "#009E73" dt 4 pt 9 ps 2 * PS lw 2.5
    set style line 4 lc rgb "#CC79A7" dt 5 pt 11 ps 2 * PS lw 2.5
    set style line 5 lc rgb "#000000" dt 1 pt 6 ps 2 * PS lw 2.5
    set lmargin at screen 0.0766
    set rmargin at screen 0.3448
    set tmargin at screen 0.8788
    set bmargin at screen 0.3131
    unset key
    set title "GeForce GTX TITAN X (published)"
    set ylabel "GFLOP/s (2MNK / median time)"
    set xtics ("256" 0, "512" 1, "1024" 2, "2048" 3, "2048x8192x1024" 4, "1024x4096x8192" 5, "4096" 6, "8192x2048x4096" 7, "8192" 8)
    set xtics rotate by 30 right
    set xtics font F16
    set xrange [-0.5:8.5]
    set xlabel "Matrix size (N, or M x N x K)"
    set logscale y 10
    set format y "%.10g"
    set yrange [100:107053]
    set label "6.6 TFLOP/s" at graph 0.99, first 6604.8 right offset 0,0.8 tc rgb "#404040"
    plot "gflops-geforce-gtx-titan-x.dat" index 0 using 1:2 with linespoints ls 1 title "naive", \
         "gflops-geforce-gtx-titan-x.dat" index 1 using 1:2 with linespoints ls 2 title "tiled", \
         6604.8 with lines lc rgb "#404040" dt 3 lw 2.5 title "FP32 peak"
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#0072B2" dt 1 pt 5 ps 2 * PS lw 2.5
    set style line 2 lc rgb "#D55E00" dt 2 pt 7 ps 2 * PS lw 2.5
    set style line 3 lc rgb "#009E73" dt 4 pt 9 ps 2 * PS lw 2.5
    set style line 4 lc rgb "#CC79A7" dt 5 pt 11 ps 2 * PS lw 2.5
    set style line 5 lc rgb "#000000" dt 1 pt 6 ps 2 * PS lw 2.5
    set lmargin at screen 0.3946
    set rmargin at screen 0.6628
    set tmargin at screen 0.8788
    set bmargin at screen 0.3131
    unset key
    set title "NVIDIA H100 80GB HBM3"
    unset ylabel
    set xtics ("256" 0, "512" 1, "1024" 2, "2048" 3, "2048x8192x1024" 4, "1024x4096x8192" 5, "4096" 6, "8192x2048x4096" 7, "8192" 8)
    set xtics rotate by 30 right
    set xtics font F16
    set xrange [-0.5:8.5]
    set xlabel "Matrix size (N, or M x N x K)"
    set logscale y 10
    set format y "%.10g"
    set yrange [100:107053]
    set label "66.9 TFLOP/s" at graph 0.99, first 66908.16 right offset 0,0.8 tc rgb "#404040"
    plot "gflops-h100-80gb-hbm3.dat" index 0 using 1:2 with linespoints ls 1 title "naive", \
         "gflops-h100-80gb-hbm3.dat" index 1 using 1:2 with linespoints ls 2 title "tiled", \
         "gflops-h100-80gb-hbm3.dat" index 2 using 1:2 with linespoints ls 3 title "rect_tiles", \
         "gflops-h100-80gb-hbm3.dat" index 3 using 1:2 with linespoints ls 4 title "tunable", \
         "gflops-h100-80gb-hbm3.dat" index 4 using 1:2 with linespoints ls 5 title "cublas", \
         66908.16 with lines lc rgb "#404040" dt 3 lw 2.5 title "FP32 peak"
    unset label
    unset object
    unset arrow
    unset logscale
    unset title
    set border lw 1.5
    set grid xtics ytics lc rgb "#c4c4c4" lw 1 dt 1
    set tics nomirror out
    set xtics norotate
    set style line 1 lc rgb "#0072B2" dt 1 pt 5 ps 2 * PS lw 2.5
    set style line 2 lc rgb "#D55E00" dt 2 pt 7 ps 2 * PS lw 2.5
    set style line 3 lc rgb "#009E73" dt 4 pt 9 ps 2 * PS lw 2.5
    set style line 4 lc rgb "#CC79A7" dt 5 pt 11 ps 2 * PS lw 2.5
    set style line 5 lc rgb "#000000" dt 1 pt 6 ps 2 * PS lw 2.5
    set lmargin at screen 0.7126
    set rmargin at screen 0.9808
    set tmargin at screen 0.8788
    set bmargin at screen 0.3131
    unset key
    set title "NVIDIA H200"
    unset ylabel
    set xtics ("256" 0, "512" 1, "1024" 2, "2048" 3, "2048x8192x1024" 4, "1024x4096x8192" 5, "4096" 6, "8192x2048x4096" 7, "8192" 8)
    set xtics rotate by 30 right
    set xtics font F16
    set xrange [-0.5:8.5]
    set xlabel "Matrix size (N, or M x N x K)"
    set logscale y 10
    set format y "%.10g"
    set yrange [100:107053]
    set label "66.9 TFLOP/s" at graph 0.99, first 66908.16 right offset 0,0.8 tc rgb "#404040"
    plot "gflops-h200.dat" index 0 using 1:2 with linespoints ls 1 title "naive", \
         "gflops-h200.dat" index 1 using 1:2 with linespoints ls 2 title "tiled", \
         "gflops-h200.dat" index 2 using 1:2 with linespoints ls 3 title "rect_tiles", \
         "gflops-h200.dat" index 3 using 1:2 with linespoints ls 4 title "tunable", \
         "gflops-h200.dat" index 4 using 1:2 with linespoints ls 5 title "cublas", \
         66908.16 with lines lc rgb "#404040" dt 3 lw 2.5 title "FP32 peak"
    set lmargin at screen 0.02
    set rmargin at screen 0.98
    set bmargin at screen 0.005
    set tmargin at screen 0.1111
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
    set xrange [0:1]
    set yrange [0:1]
    set key center center horizontal maxrows 1 width 2 samplen 3 spacing 1.2
    plot NaN with linespoints ls 1 title "naive", \
         NaN with linespoints ls 2 title "tiled", \
         NaN with linespoints ls 3 title "rect_tiles", \
         NaN with linespoints ls 4 title "tunable", \
         NaN with linespoints ls 5 title "cublas", \
         NaN with lines lc rgb "#404040" dt 3 lw 2.5 title "FP32 peak"
    unset multiplot
    unset output
}
