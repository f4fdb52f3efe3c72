set terminal pngcairo size 1000,700 noenhanced
set output "<clone>/build/results/run-sugov/sugov.png"
set datafile separator ","
set multiplot layout 2,1
set xlabel "ms"
set ylabel "MHz"
set y2label "util_avg"
set yrange [2000:4100]
set y2range [0:1024]
set ytics nomirror
set y2tics
set key outside right
set title "schedutil, invariant"
plot "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 1) ? $3 : 1/0):4 with steps title "request", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 1 && $5 > 0) ? $3 : 1/0):5 with points pt 7 ps 0.6 title "effective (in C0)", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "model" && $2 == 1) ? $3 : 1/0):4 with steps dt 2 title "model's request", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 1) ? $3 : 1/0):6 axes x1y2 with lines title "util_avg"
set title "schedutil, not invariant"
plot "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 0) ? $3 : 1/0):4 with steps title "request", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 0 && $5 > 0) ? $3 : 1/0):5 with points pt 7 ps 0.6 title "effective (in C0)", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "model" && $2 == 0) ? $3 : 1/0):4 with steps dt 2 title "model's request", \
     "<clone>/build/results/run-sugov/sugov.csv" using ((strcol(1) eq "cpu" && $2 == 0) ? $3 : 1/0):6 axes x1y2 with lines title "util_avg"
