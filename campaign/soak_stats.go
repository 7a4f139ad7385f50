package campaign

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// percentile is the q-quantile (0 < q <= 1) of xs by the nearest-rank
// rule; 0 for none. xs is sorted in place.
func percentile(xs []time.Duration, q float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	i := int(float64(len(xs))*q+0.999999) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// ms is a duration in milliseconds, rounded to microseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// linearFit is the least-squares slope and intercept of y over x; slope
// 0 with fewer than two distinct x.
func linearFit(x, y []float64) (slope, intercept float64) {
	n := float64(len(x))
	if len(x) < 2 {
		if len(y) == 1 {
			return 0, y[0]
		}
		return 0, 0
	}
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, sy / n
	}
	slope = (n*sxy - sx*sy) / d
	return slope, (sy - slope*sx) / n
}

// procMem reads a process's resident set (VmRSS) and its peak (VmHWM)
// in bytes from /proc; zeros where /proc does not say.
func procMem(pid int) (rss, peak int64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if k == "VmRSS" {
			rss = n << 10
		} else {
			peak = n << 10
		}
	}
	return rss, peak
}

// mib is bytes in MiB.
func mib(b int64) float64 { return float64(b) / (1 << 20) }
