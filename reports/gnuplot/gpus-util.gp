# gpus-util.gp - Every GPU: compute and memory utilisation at 4096 (f32, cold L2)
# Written by `mmbench report`. Redraw from this folder: gnuplot gpus-util.gp
formats = "png svg pdf"
do for [i = 1:words(formats)] {
    fmt = word(formats, i)
    reset
    set encoding utf8
    if (fmt eq "png") { set terminal pngcairo size 1780,990 noenhanced font "Sans,20" linewidth 2; PS = 1.0; FS = 1.0 }
    if (fmt eq "svg") { set terminal svg size 1780,990 noenhanced font "sans-serif,20" linewidth 2 background "white"; PS = 0.55; FS = 1.0 }
    if (fmt eq "pdf") { set terminal pdfcairo size 8.90in,4.95in noenhanced font "Sans,7.2" fontscale 1.0 linewidth 1.5; PS = 0.45; FS = 0.360 }
    F12 = sprintf(",%g", 12 * FS)
    F14 = sprintf(",%g", 14 * FS)
    F16 = sprintf(",%g", 16 * FS)
    F18 = sprintf(",%g", 18 * FS)
    F20 = sprintf(",%g", 20 * FS)
    F22 = sprintf(",%g", 22 * FS)
    set output "../figures/gpus-util.".fmt
    set multiplot title "Every GPU: compute and memory utilisation at 4096 (f32, cold L2)" font F22
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
    set lmargin at screen 0.1124
    set rmargin at screen 0.5056
    set tmargin at screen 0.8788
    set bmargin at screen 0.3131
    unset key
    set title "NVIDIA H100 80GB HBM3"
    set ylabel "Utilisation (% of peak sustained)"
    set xtics ("naive" 0, "tiled" 1, "rect_tiles" 2, "tunable" 3, "cublas" 4)
    set xrange [-0.6:4.6]
    set xlabel "Kernel (best configuration at this size)"
    set yrange [0:112]
    set ytics 0,20,100
    set grid noxtics
    set boxwidth 0.36
    plot "util-h100-80gb-hbm3.dat" using ($1-0.19):2 with boxes fs solid 0.9 border lc rgb "#202020" lc rgb "#0072B2" title "Compute (SM %)", \
         "" using ($1+0.19):3 with boxes fs pattern 4 border lc rgb "#202020" lc rgb "#D55E00" title "Memory (DRAM %)", \
         "" using ($1-0.19):2:(sprintf("%.0f", $2)) with labels offset 0,0.7 font F20 notitle, \
         "" using ($1+0.19):3:(sprintf("%.0f", $3)) with labels offset 0,0.7 font F20 notitle
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
    set lmargin at screen 0.5787
    set rmargin at screen 0.9719
    set tmargin at screen 0.8788
    set bmargin at screen 0.3131
    unset key
    set title "NVIDIA H200"
    unset ylabel
    set xtics ("naive" 0, "tiled" 1, "rect_tiles" 2, "tunable" 3, "cublas" 4)
    set xrange [-0.6:4.6]
    set xlabel "Kernel (best configuration at this size)"
    set yrange [0:112]
    set ytics 0,20,100
    set grid noxtics
    set boxwidth 0.36
    plot "util-h200.dat" using ($1-0.19):2 with boxes fs solid 0.9 border lc rgb "#202020" lc rgb "#0072B2" title "Compute (SM %)", \
         "" using ($1+0.19):3 with boxes fs pattern 4 border lc rgb "#202020" lc rgb "#D55E00" title "Memory (DRAM %)", \
         "" using ($1-0.19):2:(sprintf("%.0f", $2)) with labels offset 0,0.7 font F20 notitle, \
         "" using ($1+0.19):3:(sprintf("%.0f", $3)) with labels offset 0,0.7 font F20 notitle
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
    plot NaN with boxes fs solid 0.9 border lc rgb "#202020" lc rgb "#0072B2" title "Compute (SM %)", \
         NaN with boxes fs pattern 4 border lc rgb "#202020" lc rgb "#D55E00" title "Memory (DRAM %)"
    unset multiplot
    unset output
}
