package manuscript

import (
	"fmt"
	"strings"
)

// LineDiff compares two texts line by line: common lines at both ends are
// trimmed, the middle is aligned by longest common subsequence when small
// enough, unchanged runs beyond ctx lines around a change become gaps, and the
// list stops after limit lines.
func LineDiff(mine, disk string, ctx, limit int) []DiffLine {
	a, b := strings.Split(mine, "\n"), strings.Split(disk, "\n")
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var lines []DiffLine
	for _, l := range a[:p] {
		lines = append(lines, DiffLine{"same", l})
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	if len(am)*len(bm) <= 4_000_000 {
		lines = alignLines(lines, am, bm)
	} else {
		for _, l := range am {
			lines = append(lines, DiffLine{"mine", l})
		}
		for _, l := range bm {
			lines = append(lines, DiffLine{"disk", l})
		}
	}
	for _, l := range a[len(a)-s:] {
		lines = append(lines, DiffLine{"same", l})
	}
	return withContext(lines, ctx, limit)
}

// alignLines appends to lines the lines of am (mine) and bm (disk) aligned
// by their longest common subsequence.
func alignLines(lines []DiffLine, am, bm []string) []DiffLine {
	n, k := len(am), len(bm)
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, k+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			if am[i] == bm[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < k {
		switch {
		case i < n && j < k && am[i] == bm[j]:
			lines = append(lines, DiffLine{"same", am[i]})
			i, j = i+1, j+1
		case j < k && (i == n || t[i][j+1] >= t[i+1][j]):
			lines = append(lines, DiffLine{"disk", bm[j]})
			j++
		default:
			lines = append(lines, DiffLine{"mine", am[i]})
			i++
		}
	}
	return lines
}

// withContext keeps ctx lines of context around changes, the unchanged runs
// between them as gaps, and stops after limit lines.
func withContext(lines []DiffLine, ctx, limit int) []DiffLine {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.Kind != "same" {
			for j := max(0, i-ctx); j <= min(len(lines)-1, i+ctx); j++ {
				keep[j] = true
			}
		}
	}
	out := []DiffLine{}
	gap := 0
	for i, l := range lines {
		if keep[i] {
			if gap > 0 {
				out = append(out, DiffLine{"gap", fmt.Sprintf("%d unchanged line(s)", gap)})
				gap = 0
			}
			out = append(out, l)
		} else {
			gap++
		}
		if len(out) >= limit {
			out = append(out, DiffLine{"gap", "… the comparison is cut here"})
			return out
		}
	}
	if gap > 0 && len(out) > 0 {
		out = append(out, DiffLine{"gap", fmt.Sprintf("%d unchanged line(s)", gap)})
	}
	return out
}
