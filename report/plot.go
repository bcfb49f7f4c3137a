// This file lays out the plot of branch outcomes covered over time.

package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The plot's frame, in SVG user units: the plot area is the rectangle
// between the margins, the legend is right of it.
const (
	plotWidth   = 1000
	plotHeight  = 380
	plotLeft    = 64
	plotRight   = 760 // right edge of the plot area
	plotTop     = 20
	plotBottom  = 330 // bottom edge of the plot area (the x axis)
	legendLeft  = 784
	legendChars = 30 // longest legend label shown in full
)

// palette holds the curves' colours: distinct on white and for the common
// forms of colour blindness (Okabe and Ito's set, without yellow).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#333333"}

// dashes tells curves apart once the palette has gone round.
var dashes = []string{"", "6 3", "2 3"}

type tick struct {
	Pos   float64 // in SVG units along its axis
	Label string
}

type curve struct {
	Index   int
	Label   string
	Short   string // Label cut to fit the legend
	Color   string
	Dash    string
	Points  string // SVG polyline points; "" for an empty timeline
	Empty   bool
	Final   string // final coverage, for the legend
	Marks   []mark
	LegendY float64
}

// mark is a finding on its run's curve.
type mark struct {
	X, Y  float64
	Title string
}

type hline struct {
	Y     float64
	Label string
}

type plot struct {
	Width, Height            int
	Left, Right, Top, Bottom float64
	XTicks, YTicks           []tick
	Curves                   []curve
	Totals                   []hline
	XLabel, YLabel           string
	LegendLeft               float64
}

// legendY is the baseline of the legend's ith entry.
func legendY(top float64, i int) float64 { return top + 14 + float64(i)*40 }

// niceStep returns a step of 1, 2 or 5 times a power of ten that divides
// [0, max] into at most about n intervals.
func niceStep(max float64, n int) float64 {
	if max <= 0 || n <= 0 {
		return 1
	}
	raw := max / float64(n)
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= raw {
			return m * pow
		}
	}
	return 10 * pow
}

// ticks returns the ticks of an axis from 0 to at least max, the axis's
// upper end, and the step. integer asks for whole-number steps; tight ends
// the axis at max rather than at the next tick.
func ticks(max float64, n int, integer, tight bool) (ts []float64, top, step float64) {
	step = niceStep(max, n)
	if integer && step < 1 {
		step = 1
	}
	top = math.Ceil(max/step-1e-9) * step
	if tight && max > 0 {
		top = max
	}
	if top <= 0 {
		top = step
	}
	for i := 0; ; i++ {
		v := float64(i) * step
		if v > top*(1+1e-9) {
			break
		}
		ts = append(ts, v)
	}
	return ts, top, step
}

// formatTick writes v with as many decimals as step needs.
func formatTick(v, step float64) string {
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// endMS is the time a run's curve ends at: the end of the run, or its last
// sample or finding if later.
func endMS(r *Report) int64 {
	end := r.ElapsedMS
	if n := len(r.Timeline); n > 0 && r.Timeline[n-1].MS > end {
		end = r.Timeline[n-1].MS
	}
	for _, b := range r.Bugs {
		if b.FoundMS > end {
			end = b.FoundMS
		}
	}
	return end
}

// coveredAt returns the outcomes covered at ms by a timeline in time order.
func coveredAt(tl []Point, ms int64) int {
	c := 0
	for _, p := range tl {
		if p.MS > ms {
			break
		}
		c = p.Covered
	}
	return c
}

// sortedTimeline returns the timeline in time order (older reports may
// not be).
func sortedTimeline(tl []Point) []Point {
	out := append([]Point(nil), tl...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].MS < out[j-1].MS; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// layoutPlot places the runs' coverage curves on shared axes: seconds
// across, branch outcomes covered up, both from zero.
func layoutPlot(runs []*Run, labels []string) *plot {
	p := &plot{
		Width: plotWidth, Height: plotHeight,
		Left: plotLeft, Right: plotRight, Top: plotTop, Bottom: plotBottom,
		XLabel: "time (s)", YLabel: "branch outcomes covered", LegendLeft: legendLeft,
	}
	var maxMS int64
	maxY := 0
	totals := map[int]bool{}
	var totalList []int
	for _, r := range runs {
		rep := &r.Report
		maxMS = max(maxMS, endMS(rep))
		maxY = max(maxY, rep.Branches.Total, rep.Branches.Covered)
		for _, pt := range rep.Timeline {
			maxY = max(maxY, pt.Covered)
		}
		if t := rep.Branches.Total; t > 0 && !totals[t] {
			totals[t] = true
			totalList = append(totalList, t)
		}
	}
	maxS := float64(maxMS) / 1000
	if maxS <= 0 {
		maxS = 1
	}
	if maxY <= 0 {
		maxY = 1
	}
	xs, xTop, xStep := ticks(maxS, 8, false, true)
	ys, yTop, yStep := ticks(float64(maxY), 6, true, false)
	x := func(ms int64) float64 {
		return p.Left + (p.Right-p.Left)*(float64(ms)/1000)/xTop
	}
	y := func(c int) float64 {
		return p.Bottom - (p.Bottom-p.Top)*float64(c)/yTop
	}
	for _, v := range xs {
		p.XTicks = append(p.XTicks, tick{p.Left + (p.Right-p.Left)*v/xTop, formatTick(v, xStep)})
	}
	for _, v := range ys {
		p.YTicks = append(p.YTicks, tick{p.Bottom - (p.Bottom-p.Top)*v/yTop, formatTick(v, yStep)})
	}
	for _, t := range totalList {
		p.Totals = append(p.Totals, hline{y(t), fmt.Sprintf("total %d", t)})
	}
	for i, r := range runs {
		rep := &r.Report
		c := curve{
			Index: i, Label: labels[i],
			Color:   palette[i%len(palette)],
			Dash:    dashes[(i/len(palette))%len(dashes)],
			LegendY: legendY(p.Top, i),
		}
		c.Short = c.Label
		if rs := []rune(c.Short); len(rs) > legendChars {
			c.Short = string(rs[:legendChars-1]) + "…"
		}
		tl := sortedTimeline(rep.Timeline)
		if len(tl) == 0 {
			c.Empty = true
			c.Final = "no timeline"
		} else {
			var b strings.Builder
			add := func(px, py float64) {
				fmt.Fprintf(&b, "%.1f,%.1f ", px, py)
			}
			prev := 0
			add(x(0), y(0))
			for _, pt := range tl {
				if pt.Covered != prev {
					add(x(pt.MS), y(prev))
					add(x(pt.MS), y(pt.Covered))
					prev = pt.Covered
				}
			}
			add(x(endMS(rep)), y(prev))
			c.Points = strings.TrimSpace(b.String())
			c.Final = fmt.Sprintf("%d covered", prev)
			if rep.Branches.Total > 0 {
				c.Final = fmt.Sprintf("%d/%d covered", prev, rep.Branches.Total)
			}
			for _, bug := range rep.Bugs {
				c.Marks = append(c.Marks, mark{
					X: x(bug.FoundMS), Y: y(coveredAt(tl, bug.FoundMS)),
					Title: fmt.Sprintf("%s: %s, %s: %s", c.Label, formatMS(bug.FoundMS), bug.Kind, bug.Message),
				})
			}
		}
		p.Curves = append(p.Curves, c)
	}
	return p
}
